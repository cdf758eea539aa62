// Change impact: datasets whose schema changed since a point in time (default: the last day), and the
// jobs that consume them. A change is a dataset version with a schema whose columns differ from those of
// the dataset's previous version that has a schema (by createdAt, then id; versions written without a
// schema facet are passed over), as GET /api/v1/impact/schema-changes compares them.
// Params: $since (ISO-8601 datetime string, or null for "24 hours ago")
// Returns: namespace, name (the dataset), changedAt (latest change), versions (ids of the changed
//   versions), consumers (["<job namespace>:<job name>"]), newest change first.
// Columns compare by name and type (types case-insensitively), so a change of descriptions or of the
// order of columns alone is no change; members of a nested struct compare by their own names, where the
// API names them parent.child.
// Edges: those seen in the last 30 days or among their job's latest known I/O (the service's default
// view, docs/lineage.md "Time"); change P30D for another window, or drop the WHERE for all history.
WITH coalesce(datetime($since), datetime() - duration('P1D')) AS since
MATCH (v:DatasetVersion) WHERE v.createdAt >= since AND v.fields IS NOT NULL
MATCH (v)-[:VERSION_OF]->(d:Dataset)
WHERE NOT d:Deleted
CALL (d, v) {
  MATCH (d)<-[:VERSION_OF]-(o:DatasetVersion)
  WHERE o.fields IS NOT NULL AND (o.createdAt < v.createdAt OR (o.createdAt = v.createdAt AND o.id < v.id))
  RETURN o ORDER BY o.createdAt DESC, o.id DESC LIMIT 1
}
// `fields` is compact JSON text written by the service ([{"name":...,"type":...,"description":...}]);
// Cypher has no JSON parser without APOC, so each column's name and type are cut out with split().
WITH d, v, [m IN split(o.fields, '{"name":"')[1..] | split(m, '"')[0] + ' '
    + toLower(coalesce(split(split(m, '","type":"')[1], '"')[0], ''))] AS before,
  [m IN split(v.fields, '{"name":"')[1..] | split(m, '"')[0] + ' '
    + toLower(coalesce(split(split(m, '","type":"')[1], '"')[0], ''))] AS after
WHERE any(c IN before WHERE NOT c IN after) OR any(c IN after WHERE NOT c IN before)
WITH d, max(v.createdAt) AS changedAt, collect(v.id) AS versions
RETURN d.namespace AS namespace, d.name AS name, changedAt, versions,
       COLLECT { MATCH (d)-[e:INPUT_TO WHERE e.lastSeenAt >= datetime() - duration('P30D') OR e.current]->(c:Job)
         WHERE NOT c:Deleted
                 RETURN c.namespace + ':' + c.name AS consumer ORDER BY consumer } AS consumers
ORDER BY changedAt DESC, namespace, name
