// Schema-change impact (GET /api/v1/impact/schema-changes): dataset versions committed since a time whose
// columns differ from the dataset's previous committed version (commit order: the order versions become
// current), the columns that disappeared, and the columns downstream that read them (column lineage, FEEDS).
// Params: $since (ISO-8601 datetime string)
// Returns: dataset (namespace:name), version, previousVersion, runId (the run that wrote the new version),
//   removed (column names gone), readers (["<namespace>:<dataset>.<column> by <job>"] reading a removed
//   column), newest first. Retyped columns: compare the `type` of the two versions' fields the same way.
// Note: FEEDS keeps every mapping ever declared; the service also drops the ones a newer declaration
// of the reading dataset no longer lists.
MATCH (v:DatasetVersion) WHERE v.committedAt >= datetime($since) AND v.fields IS NOT NULL
MATCH (v)-[:VERSION_OF]->(d:Dataset)
WHERE NOT d:Deleted
CALL (d, v) {
  MATCH (d)<-[:VERSION_OF]-(o:DatasetVersion)
  WHERE o.fields IS NOT NULL AND o.committedAt IS NOT NULL
    AND (o.committedAt < v.committedAt OR (o.committedAt = v.committedAt AND o.id < v.id))
  RETURN o ORDER BY o.committedAt DESC, o.id DESC LIMIT 1
}
WITH d, v, o WHERE o.fields <> v.fields
// `fields` is compact JSON text ([{"name":...,"type":...}]); Cypher has no JSON parser without APOC,
// so the column names are cut out of it with split().
WITH d, v, o,
     [m IN split(o.fields, '"name":"')[1..] | split(m, '"')[0]] AS before,
     [m IN split(v.fields, '"name":"')[1..] | split(m, '"')[0]] AS after
WITH d, v, o, [c IN before WHERE NOT c IN after] AS removed
RETURN d.namespace + ':' + d.name AS dataset, v.id AS version, o.id AS previousVersion, v.runId AS runId, removed,
       COLLECT { MATCH (d)-[:HAS_FIELD]->(f:DatasetField)-[r:FEEDS]->(g:DatasetField) WHERE f.name IN removed
                 RETURN g.namespace + ':' + g.dataset + '.' + g.name + ' by ' + r.jobName AS reader ORDER BY reader } AS
                   readers
ORDER BY v.committedAt DESC, dataset
