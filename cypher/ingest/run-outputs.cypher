// Records the dataset versions runs write: one version per (dataset, run), created on first sight
// and enriched by later events of the same run. It becomes the dataset's current version only when
// the run completes (run-complete.cypher).
// Params: $outputs: [{runId, eventTime (ISO), namespace, name, versionId, versionFacetProps, fields (JSON or null), lifecycleState}]
// Returns nothing.
// Its plan starts from unique-key seeks, so statistics cannot improve it: keep the cached plan (cypher/README.md).
CYPHER replan=skip
UNWIND $outputs AS out
MATCH (r:Run {id: out.runId})
MATCH (d:Dataset {namespace: out.namespace, name: out.name})
WITH r, d, out, datetime(out.eventTime) AS t
MERGE (v:DatasetVersion {id: out.versionId})
  ON CREATE SET v.namespace = d.namespace, v.name = d.name, v.createdAt = t, v.runId = r.id
SET v += out.versionFacetProps,
    v.createdAt = CASE WHEN t < v.createdAt THEN t ELSE v.createdAt END,
    v.fields = coalesce(out.fields, v.fields, d.fields),
    v.lifecycleState = coalesce(out.lifecycleState, v.lifecycleState)
MERGE (v)-[:VERSION_OF]->(d)
MERGE (r)-[:WROTE]->(v)
