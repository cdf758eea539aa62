// Migration `lineage-edge-history` (src/store/migrations.ts), read step: the next batch of jobs after
// a cursor, each with what its lineage edges' histories derive from. For each run: its state, its
// first and newest event times (createdAt; lastEventAt, or updatedAt on data written before runs had
// it), the datasets it read, and those it wrote with when each was first mentioned (the written
// version's createdAt). For each job version no run executed (a JobEvent's): its first and last
// event times and its declared inputs and outputs.
// Params: $afterNamespace, $afterName (the cursor; null for the first batch), $limit (integer).
// Returns one row per job, in (namespace, name) order: namespace, name, runs ([{id, state, first, last
//   (epoch ms), inputs ([[namespace, name]]), outputs ([[namespace, name, epoch ms]])}]), declared
//   ([{first, last (epoch ms), inputs, outputs ([[namespace, name]])}]).
MATCH (j:Job)
WHERE $afterNamespace IS NULL OR j.namespace > $afterNamespace OR (j.namespace = $afterNamespace
  AND j.name > $afterName)
WITH j ORDER BY j.namespace, j.name LIMIT $limit
RETURN j.namespace AS namespace, j.name AS name,
  COLLECT {
    MATCH (r:Run)-[:RUN_OF]->(j)
    RETURN {id: r.id, state: r.state, first: r.createdAt.epochMillis,
      last: coalesce(r.lastEventAt, r.updatedAt, r.createdAt).epochMillis,
      inputs: COLLECT { MATCH (r)-[:READ]->(:DatasetVersion)-[:VERSION_OF]->(d:Dataset) RETURN DISTINCT [d.namespace,
        d.name] },
      outputs: COLLECT { MATCH (r)-[:WROTE]->(v:DatasetVersion)-[:VERSION_OF]->(d:Dataset) RETURN [d.namespace, d.name,
        v.createdAt.epochMillis] }} AS run
  } AS runs,
  COLLECT {
    MATCH (v:JobVersion)-[:VERSION_OF]->(j)
    WHERE NOT EXISTS { (:Run)-[:EXECUTED]->(v) }
    RETURN {first: v.createdAt.epochMillis, last: v.updatedAt.epochMillis,
      inputs: COLLECT { MATCH (v)-[:HAS_INPUT]->(d:Dataset) RETURN [d.namespace, d.name] },
      outputs: COLLECT { MATCH (v)-[:HAS_OUTPUT]->(d:Dataset) RETURN [d.namespace, d.name] }} AS version
  } AS declared
