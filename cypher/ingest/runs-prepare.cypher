// First statement of an ingest transaction: creates the batch's runs if new and takes their write
// locks (so events of one run serialize across transactions), then reads what the run state
// machine and versioning need.
// Params: $runs: [{id (service UUID), externalId (as sent), eventTime (ISO, earliest in the batch)}], sorted by id.
// Returns one row per run: id, startedAt, endedAt, terminalState, jobNamespace, jobName (null if new),
//   inputs, outputs ([{namespace, name}] accumulated over earlier transactions).
// Its plan starts from unique-key seeks, so statistics cannot improve it: keep the cached plan (cypher/README.md).
CYPHER replan=skip
UNWIND $runs AS run
MERGE (r:Run {id: run.id})
  ON CREATE SET r.externalId = run.externalId, r.createdAt = datetime(run.eventTime), r.state = 'NEW'
SET r.externalId = r.externalId
WITH run, r
RETURN
  run.id AS id,
  toString(r.startedAt) AS startedAt,
  toString(r.endedAt) AS endedAt,
  r.terminalState AS terminalState,
  COLLECT { MATCH (r)-[:RUN_OF]->(j:Job) RETURN j.namespace }[0] AS jobNamespace,
  COLLECT { MATCH (r)-[:RUN_OF]->(j:Job) RETURN j.name }[0] AS jobName,
  COLLECT { MATCH (r)-[:READ]->(:DatasetVersion)-[:VERSION_OF]->(d:Dataset) RETURN DISTINCT {namespace: d.namespace, name: d.name} } AS inputs,
  COLLECT { MATCH (r)-[:WROTE]->(:DatasetVersion)-[:VERSION_OF]->(d:Dataset) RETURN DISTINCT {namespace: d.namespace, name: d.name} } AS outputs
