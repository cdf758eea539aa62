// Migration `nested-fields` (src/store/migrations.ts), read step: the next batch of datasets after a
// cursor, each with the schemas that name nested columns (`fields` JSON holding a column's `fields`):
// its own (the latest reported) and the distinct ones of its versions. Earlier versions made column nodes
// for top-level columns only; nested ones are named by their dotted path (cypher/README.md, DatasetField).
// Params: $afterNamespace, $afterName (the cursor; null for the first batch), $limit (integer).
// Returns one row per dataset, in (namespace, name) order: namespace, name, fields (its `fields` JSON when
//   it has nested columns, else null), versionFields ([JSON]: the distinct `fields` of its versions with
//   nested columns).
MATCH (d:Dataset)
WHERE $afterNamespace IS NULL OR d.namespace > $afterNamespace OR (d.namespace = $afterNamespace
  AND d.name > $afterName)
WITH d ORDER BY d.namespace, d.name LIMIT $limit
RETURN d.namespace AS namespace, d.name AS name,
  CASE WHEN d.fields CONTAINS '"fields":' THEN d.fields END AS fields,
  COLLECT {
    MATCH (v:DatasetVersion)-[:VERSION_OF]->(d) WHERE v.fields CONTAINS '"fields":'
    RETURN DISTINCT v.fields
  } AS versionFields
