// Third read of an ingest transaction (composed after runs-prepare and datasets-state): takes the
// write lock of every job the batch's run events and JobEvents name (creating a bare job node when
// it is new, completed by jobs-upsert in the write statement) and returns each job's lineage edges,
// so the planner (src/domain/edge-plan.ts) can fold the batch's observations into their histories,
// and each job's facet stamps (src/domain/facet-stamps.ts).
// Under the job's lock no other transaction changes those edges until this one commits.
// Params: $jobs ([{namespace, name}], sorted). Returns one row: jobs, a list of one map per job:
//   {namespace, name, stamps ([string]), edges: [{eid (elementId), input (true: INPUT_TO, false: PRODUCES), namespace,
//   name (the dataset), firstSeenAt, lastSeenAt (epoch ms), lastRunId, lastRunState, seenFrom, seenTo,
//   heldUntil ([epoch ms])}]}.
// Its plan starts from unique-key seeks, so statistics cannot improve it: keep the cached plan (cypher/README.md).
CYPHER replan=skip
UNWIND $jobs AS ref
MERGE (j:Job {namespace: ref.namespace, name: ref.name})
SET j.name = j.name
RETURN collect({
  namespace: ref.namespace,
  name: ref.name,
  stamps: coalesce(j.facetStamps, []),
  edges: COLLECT {
    MATCH (d:Dataset)-[e:INPUT_TO]->(j)
    RETURN {eid: elementId(e), input: true, namespace: d.namespace, name: d.name,
      firstSeenAt: e.firstSeenAt.epochMillis, lastSeenAt: e.lastSeenAt.epochMillis, lastRunId: e.lastRunId,
        lastRunState: e.lastRunState,
      seenFrom: [x IN e.seenFrom | x.epochMillis], seenTo: [x IN e.seenTo | x.epochMillis],
        heldUntil: [x IN e.heldUntil | x.epochMillis]} AS edge
    UNION ALL
    MATCH (j)-[e:PRODUCES]->(d:Dataset)
    RETURN {eid: elementId(e), input: false, namespace: d.namespace, name: d.name,
      firstSeenAt: e.firstSeenAt.epochMillis, lastSeenAt: e.lastSeenAt.epochMillis, lastRunId: e.lastRunId,
        lastRunState: e.lastRunState,
      seenFrom: [x IN e.seenFrom | x.epochMillis], seenTo: [x IN e.seenTo | x.epochMillis],
        heldUntil: [x IN e.heldUntil | x.epochMillis]} AS edge
  }
}) AS jobs
