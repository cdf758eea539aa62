// First statement of an ingest transaction: creates the batch's runs if new and takes their write
// locks (so events of one run serialize across transactions), then reads what the planner folds the
// batch's events onto (src/domain/batch-plan.ts).
// Params: $runs: [{id (service UUID), externalId (as sent), eventTime (ISO, earliest in the batch)}], sorted by id.
// Returns one row: runs, a list of one map per run: {id, createdAt, startedAt, endedAt, lastEventAt (ISO or null),
//   terminalState, jobNamespace, jobName (null if new), jobVersion (the version it executes, or null),
// stamps (its facetStamps), code: {sourceCodeLocation, sql, jobType} (its job facets' JSON: its version depends on
// them),
//   reads: [{namespace, name, at (ISO: when it first named the input), stamps}] (its READs),
//   writes: [{namespace, name, createdAt, stamps}] (the versions it WROTE)}.
//   One row of lists, so that it composes with the other reads into one statement (src/store/ingest.ts).
// Its plan starts from unique-key seeks, so statistics cannot improve it: keep the cached plan (cypher/README.md).
CYPHER replan=skip
UNWIND $runs AS run
MERGE (r:Run {id: run.id})
  ON CREATE SET r.externalId = run.externalId, r.createdAt = datetime(run.eventTime), r.state = 'NEW'
SET r.externalId = r.externalId
WITH run, r
RETURN collect({
  id: run.id,
  createdAt: toString(r.createdAt),
  startedAt: toString(r.startedAt),
  endedAt: toString(r.endedAt),
  terminalState: r.terminalState,
  lastEventAt: toString(r.lastEventAt),
  // Mirrors of RUN_OF and EXECUTED (cypher/README.md "Links are made once"): no walk needed.
  jobNamespace: r.jobNamespace,
  jobName: r.jobName,
  jobVersion: r.jobVersion,
  stamps: r.facetStamps,
  code: {sourceCodeLocation: r.`jobFacet.sourceCodeLocation`, sql: r.`jobFacet.sql`, jobType: r.`jobFacet.jobType`},
  reads: COLLECT { MATCH (r)-[rd:READ]->(:DatasetVersion)-[:VERSION_OF]->(d:Dataset) RETURN {namespace: d.namespace,
    name: d.name, at: toString(rd.at), stamps: rd.facetStamps} },
  writes: COLLECT { MATCH (r)-[:WROTE]->(v:DatasetVersion)-[:VERSION_OF]->(d:Dataset) RETURN {namespace: d.namespace,
    name: d.name, createdAt: toString(v.createdAt), stamps: v.facetStamps} }
}) AS runs
