// First statement of a RunEvent's transaction: creates the run if new and takes its write lock, so
// concurrent events of one run serialize; then reads what the state machine and versioning need.
// Params: $runId (service UUID), $externalId (as sent), $eventTime (ISO), $datasets ([{namespace, name}])
// Returns one row: startedAt, endedAt, terminalState (run so far), jobNamespace, jobName (null if new),
//   inputs, outputs ([{namespace, name}] accumulated over earlier events),
//   aliases ([{from:{namespace,name}, to:{namespace,name}}] for event datasets that are symlink aliases).
MERGE (r:Run {id: $runId})
  ON CREATE SET r.externalId = $externalId, r.createdAt = datetime($eventTime), r.state = 'NEW'
SET r.externalId = r.externalId
RETURN
  toString(r.startedAt) AS startedAt,
  toString(r.endedAt) AS endedAt,
  r.terminalState AS terminalState,
  COLLECT { MATCH (r)-[:RUN_OF]->(j:Job) RETURN j.namespace }[0] AS jobNamespace,
  COLLECT { MATCH (r)-[:RUN_OF]->(j:Job) RETURN j.name }[0] AS jobName,
  COLLECT { MATCH (r)-[:READ]->(:DatasetVersion)-[:VERSION_OF]->(d:Dataset) RETURN DISTINCT {namespace: d.namespace, name: d.name} } AS inputs,
  COLLECT { MATCH (r)-[:WROTE]->(:DatasetVersion)-[:VERSION_OF]->(d:Dataset) RETURN DISTINCT {namespace: d.namespace, name: d.name} } AS outputs,
  COLLECT {
    UNWIND $datasets AS ref
    MATCH (:Dataset {namespace: ref.namespace, name: ref.name})-[:ALIAS_OF]->(p:Dataset)
    RETURN {from: ref, to: {namespace: p.namespace, name: p.name}}
  } AS aliases
