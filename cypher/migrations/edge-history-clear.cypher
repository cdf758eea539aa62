// Migration `lineage-edge-history`, write step 1: removes the jobs' INPUT_TO / PRODUCES edges (the
// old model kept only the current version's, without history) and gives their runs `lastEventAt`;
// lineage-edges.cypher then creates the edges with their histories, in the same transaction.
// Params: $jobs: [{namespace, name}]. Returns nothing.
UNWIND $jobs AS ref
MATCH (j:Job {namespace: ref.namespace, name: ref.name})
CALL (j) { MATCH (:Dataset)-[e:INPUT_TO]->(j) DELETE e }
CALL (j) { MATCH (j)-[e:PRODUCES]->(:Dataset) DELETE e }
CALL (j) {
  MATCH (r:Run)-[:RUN_OF]->(j) WHERE r.lastEventAt IS NULL
  SET r.lastEventAt = coalesce(r.updatedAt, r.createdAt)
}
