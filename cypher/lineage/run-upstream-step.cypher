// One breadth-first level of version-level (run) lineage, for GET /api/v1/runlineage/upstream:
// for each run, the exact dataset versions it read and the run that wrote each of them.
// (The service repeats this level by level, at most `depth` times: a multi-hop quantified pattern
// (:Run)-[:READ]->(:DatasetVersion)<-[:WROTE]-(:Run) is planned as Repeat(Trail), which enumerates
// every trail and explodes on diamonds; one query per level visits each run once.)
// Params: $runIds ([service run id (UUID)])
// Returns one row per known run: {id, externalId, jobNamespace, jobName, jobVersion, startedAt, endedAt,
//   state, inputs ([{namespace, name, version, producedByRunId}], sorted)}
UNWIND $runIds AS rid
MATCH (r:Run {id: rid})
RETURN r.id AS id, r.externalId AS externalId, r.jobNamespace AS jobNamespace, r.jobName AS jobName,
       r.jobVersion AS jobVersion, r.startedAt AS startedAt, r.endedAt AS endedAt, r.state AS state,
       COLLECT {
         MATCH (r)-[:READ]->(v:DatasetVersion)
         OPTIONAL MATCH (p:Run)-[:WROTE]->(v)
         WITH v, head(collect(p.id)) AS producedByRunId
         RETURN {namespace: v.namespace, name: v.name, version: v.id, producedByRunId: producedByRunId} AS input
         ORDER BY input.namespace, input.name, input.version
       } AS inputs
