// Change impact: datasets whose schema changed since a point in time (default: the last day), and the
// jobs that consume them. A change is a dataset version whose `fields` differ from the version before it.
// Params: $since (ISO-8601 datetime string, or null for "24 hours ago")
// Returns: namespace, name (the dataset), changedAt (latest change), versions (ids of the changed
//   versions), consumers (["<job namespace>:<job name>"]), newest change first.
// Edges: those seen in the last 30 days or among their job's latest known I/O (the service's default
// view, docs/lineage.md "Time"); change P30D for another window, or drop the WHERE for all history.
WITH coalesce(datetime($since), datetime() - duration('P1D')) AS since
MATCH (v:DatasetVersion) WHERE v.createdAt >= since
MATCH (v)-[:VERSION_OF]->(d:Dataset)
WHERE NOT d:Deleted
// The version just before v: expanded from d (a pattern comprehension), so only d's versions are read.
WITH d, v, [(d)<-[:VERSION_OF]-(o:DatasetVersion) | o] AS all
WITH d, v, reduce(best = null, o IN all |
       CASE WHEN o.createdAt < v.createdAt AND (best IS NULL OR o.createdAt > best.createdAt) THEN o
         ELSE best END) AS prev
WHERE v.fields IS NOT NULL AND prev.fields IS NOT NULL AND v.fields <> prev.fields
WITH d, max(v.createdAt) AS changedAt, collect(v.id) AS versions
RETURN d.namespace AS namespace, d.name AS name, changedAt, versions,
       COLLECT { MATCH (d)-[e:INPUT_TO WHERE e.lastSeenAt >= datetime() - duration('P30D') OR e.current]->(c:Job)
         WHERE NOT c:Deleted
                 RETURN c.namespace + ':' + c.name AS consumer ORDER BY consumer } AS consumers
ORDER BY changedAt DESC, namespace, name
