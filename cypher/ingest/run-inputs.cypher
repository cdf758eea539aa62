// Ties runs to the version of each input dataset they read: the version committed last at or before
// the run first named the input (`at`, by committedAt then id; never the run's own output), else the dataset's
// placeholder
// version (created for it, committed at its earliest read; see versions-commit.cypher, which keeps
// reads right when commits arrive later). Facets the run reports about an input are kept on its READ
// (latest by event time, from the planner).
// Params: $inputs: [{runId, namespace, name, at (ISO), resolve (boolean: a new read, or `at` moved earlier),
//   initialVersionId (the dataset's placeholder version id), facetProps (map), facetStamps ([string] or null)}]
// Returns nothing.
// Its plan starts from unique-key seeks, so statistics cannot improve it: keep the cached plan (cypher/README.md).
CYPHER replan=skip
UNWIND $inputs AS input
MATCH (r:Run {id: input.runId})
MATCH (d:Dataset {namespace: input.namespace, name: input.name})
WITH r, d, input, datetime(input.at) AS at
// Start from the run: a hot dataset has many versions, a run reads few. Written as one hop and a
// predicate, because with both ends bound the planner expanded from d, through every version of the
// dataset, and the cost of an event then grew with the dataset's history (test/store/ingest-plans.test.ts).
OPTIONAL MATCH (r)-[old:READ]->(known:DatasetVersion) WHERE (known)-[:VERSION_OF]->(d)
CALL (r, d, input, at, old, known) {
  WITH r, d, input, at, old, known WHERE input.resolve
  OPTIONAL CALL (r, d, at) {
    // All four properties of the index dataset_version_commit_order, ordered as it is: one entry read.
    MATCH (x:DatasetVersion) USING INDEX SEEK x:DatasetVersion(namespace, name, committedAt, id)
      WHERE x.namespace = d.namespace AND x.name = d.name AND x.committedAt <= at AND x.id IS NOT NULL
      AND x.placeholder IS NULL AND coalesce(x.runId, '') <> r.id
    RETURN x ORDER BY x.namespace DESC, x.name DESC, x.committedAt DESC, x.id DESC LIMIT 1
  }
  CALL (d, input, at, x) {
    WITH d, input, at, x WHERE x IS NULL
    // Writing d takes its lock (its current version may change).
    SET d.currentVersion = d.currentVersion
    MERGE (ph:DatasetVersion {id: input.initialVersionId})
      ON CREATE SET ph.namespace = d.namespace, ph.name = d.name, ph.placeholder = true, ph.createdAt = at,
        ph.committedAt = at
    MERGE (ph)-[:VERSION_OF]->(d)
    SET ph.createdAt = CASE WHEN at < ph.createdAt THEN at ELSE ph.createdAt END,
        ph.committedAt = CASE WHEN at < ph.committedAt THEN at ELSE ph.committedAt END
    // The placeholder is current only while nothing was committed (its commit time may have moved).
    WITH d, ph, COLLECT { MATCH (d)-[:CURRENT_VERSION]->(cur) RETURN cur }[0] AS cur
    FOREACH (_ IN CASE WHEN cur IS NULL THEN [1] ELSE [] END | CREATE (d)-[:CURRENT_VERSION]->(ph))
    // Nothing known wrote d while the placeholder is current: no modification time.
    SET d.currentVersion = coalesce(cur.id, ph.id),
        d.lastModifiedAt = CASE WHEN cur IS NULL OR cur = ph THEN null ELSE d.lastModifiedAt END
  }
  WITH r, d, input, old, known, coalesce(x, COLLECT { MATCH (ph:DatasetVersion {id: input.initialVersionId}) RETURN ph
    }[0]) AS target
  CALL (r, old, target) {
    WITH r, old, target WHERE old IS NULL
    CREATE (r)-[:READ]->(target)
  }
  CALL (r, old, known, target) {
    WITH r, old, known, target WHERE old IS NOT NULL AND known <> target
    CREATE (r)-[moved:READ]->(target)
    SET moved = properties(old)
    DELETE old
  }
}
MATCH (r)-[rd:READ]->(readVersion:DatasetVersion) WHERE (readVersion)-[:VERSION_OF]->(d)
SET rd += input.facetProps,
    rd.at = CASE WHEN rd.at IS NULL OR at < rd.at THEN at ELSE rd.at END,
    rd.facetStamps = coalesce(input.facetStamps, rd.facetStamps)
