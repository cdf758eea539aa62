// First statement of an ingest transaction: creates the batch's runs if new and takes their write
// locks (so events of one run serialize across transactions), then reads what the run state
// machine and versioning need.
// Params: $runs: [{id (service UUID), externalId (as sent), eventTime (ISO, earliest in the batch)}], sorted by id.
// Returns one row: runs, a list of one map per run: {id, startedAt, endedAt, terminalState, jobNamespace,
//   jobName (null if new), inputs, outputs ([{namespace, name}] accumulated over earlier transactions),
//   lastEventAt (the run's newest eventTime so far, or null)}.
//   One row of lists, so that it composes with datasets-state into one statement (src/store/ingest.ts).
// Its plan starts from unique-key seeks, so statistics cannot improve it: keep the cached plan (cypher/README.md).
CYPHER replan=skip
UNWIND $runs AS run
MERGE (r:Run {id: run.id})
  ON CREATE SET r.externalId = run.externalId, r.createdAt = datetime(run.eventTime), r.state = 'NEW'
SET r.externalId = r.externalId
WITH run, r
RETURN collect({
  id: run.id,
  startedAt: toString(r.startedAt),
  endedAt: toString(r.endedAt),
  terminalState: r.terminalState,
  lastEventAt: toString(r.lastEventAt),
  // Mirrors of RUN_OF (cypher/README.md "Links are made once"): no walk of the relationship needed.
  jobNamespace: r.jobNamespace,
  jobName: r.jobName,
  inputs: COLLECT { MATCH (r)-[:READ]->(:DatasetVersion)-[:VERSION_OF]->(d:Dataset) RETURN DISTINCT {namespace: d.namespace, name: d.name} },
  outputs: COLLECT { MATCH (r)-[:WROTE]->(:DatasetVersion)-[:VERSION_OF]->(d:Dataset) RETURN DISTINCT {namespace: d.namespace, name: d.name} }
}) AS runs
