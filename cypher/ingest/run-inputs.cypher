// Ties runs to the version of each input dataset they read: the version the run already reads
// (retries, later events), else the dataset's current version at this point, else a first version
// of the dataset. Facets the run reports about an input attach to that version.
// Params: $inputs: [{runId, eventTime (ISO), namespace, name, initialVersionId, versionFacetProps}]
// Returns nothing.
// Its plan starts from unique-key seeks, so statistics cannot improve it: keep the cached plan (cypher/README.md).
CYPHER replan=skip
UNWIND $inputs AS input
MATCH (r:Run {id: input.runId})
MATCH (d:Dataset {namespace: input.namespace, name: input.name})
WITH r, d, input, datetime(input.eventTime) AS t
CALL (r, d) {
  // Start from the run: a hot dataset has many versions, a run reads few.
  OPTIONAL MATCH (r)-[:READ]->(already:DatasetVersion) WHERE (already)-[:VERSION_OF]->(d)
  OPTIONAL MATCH (d)-[:CURRENT_VERSION]->(cur:DatasetVersion)
  RETURN coalesce(already, cur) AS known
  LIMIT 1
}
CALL (t, r, d, input, known) {
  WITH t, r, d, input, known WHERE known IS NULL
  MERGE (v:DatasetVersion {id: input.initialVersionId})
    ON CREATE SET v.namespace = d.namespace, v.name = d.name, v.createdAt = t, v.committedAt = t, v.fields = d.fields
  MERGE (v)-[:VERSION_OF]->(d)
  MERGE (d)-[:CURRENT_VERSION]->(v)
  SET d.currentVersion = v.id
  RETURN v
  UNION
  WITH known WHERE known IS NOT NULL
  RETURN known AS v
}
MERGE (r)-[:READ]->(v)
SET v += input.versionFacetProps
