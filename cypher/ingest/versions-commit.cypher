// Commits dataset versions (a run that completed, a DatasetEvent), moves a commit earlier, or takes it
// back (a run that did not complete after all), and moves every pointer that depends on commit times:
//   - a READ points at the dataset's version committed last at or before the read (by committedAt,
// then id; never the reading run's own output), else at the dataset's placeholder version (`placeholder`, committed at
// its earliest
//     read), which exists only while some read needs it;
//   - CURRENT_VERSION points at the version committed last (by committedAt, then id), else at the
//     placeholder.
// So reads and the current version are the same whatever order the commits and reads arrived in.
// Each lookup of "the version committed last" names all four properties of the index
// dataset_version_commit_order and orders as it does, so it reads one index entry.
// Params: $commits: [{versionId, namespace, name, committedAt (ISO, or null: not committed), placeholderId
//   (the dataset's placeholder version id)}], sorted by versionId. Rows that change nothing do nothing.
// Returns nothing.
// Its plan starts from unique-key seeks, so statistics cannot improve it: keep the cached plan (cypher/README.md).
CYPHER replan=skip
UNWIND $commits AS c
MATCH (v:DatasetVersion {id: c.versionId})-[:VERSION_OF]->(d:Dataset)
WITH c, v, d, v.committedAt AS old, CASE WHEN c.committedAt IS NULL THEN null ELSE datetime(c.committedAt) END AS new
WHERE (old IS NULL) <> (new IS NULL) OR old <> new
// Writing d first takes its lock: its versions' pointers are read below.
SET d.currentVersion = d.currentVersion, v.committedAt = new
WITH c, v, d, old, new
// Reads that saw v and no longer do (taken back, or committed later): to the version before its old commit, else the
// placeholder.
CALL (c, v, d, old, new) {
  WITH c, v, d, old, new WHERE old IS NOT NULL AND (new IS NULL OR new > old)
  // The reader is unlabelled (only runs READ), so the walk starts from v: see the reads below.
  MATCH (v)<-[rd:READ]-(r) WHERE new IS NULL OR rd.at < new
  WITH c, v, d, old, collect([r, rd]) AS moving
  OPTIONAL CALL (v, d, old) {
    MATCH (p:DatasetVersion) USING INDEX SEEK p:DatasetVersion(namespace, name, committedAt, id)
      WHERE p.namespace = d.namespace AND p.name = d.name AND p.committedAt <= old AND p.id IS NOT NULL
      AND p <> v AND p.placeholder IS NULL
    RETURN p ORDER BY p.namespace DESC, p.name DESC, p.committedAt DESC, p.id DESC LIMIT 1
  }
  CALL (c, d, p, moving) {
    WITH c, d, p, moving WHERE p IS NULL AND size(moving) > 0
    WITH c, d, reduce(m = null, x IN moving | CASE WHEN m IS NULL OR x[1].at < m THEN x[1].at ELSE m END) AS earliest
    MERGE (ph:DatasetVersion {id: c.placeholderId})
      ON CREATE SET ph.namespace = d.namespace, ph.name = d.name, ph.placeholder = true, ph.createdAt = earliest,
        ph.committedAt = earliest
    MERGE (ph)-[:VERSION_OF]->(d)
    SET ph.createdAt = CASE WHEN earliest < ph.createdAt THEN earliest ELSE ph.createdAt END,
        ph.committedAt = CASE WHEN earliest < ph.committedAt THEN earliest ELSE ph.committedAt END
    RETURN ph AS target
    UNION
    WITH p WHERE p IS NOT NULL
    RETURN p AS target
  }
  UNWIND moving AS m
  WITH target, m[0] AS r, m[1] AS rd
  CREATE (r)-[moved:READ]->(target)
  SET moved = properties(rd)
  DELETE rd
}
// Reads that now see v: reads of the version committed last before it, and of the placeholder, made at or after its
// commit.
CALL (c, v, d, new) {
  WITH c, v, d, new WHERE new IS NOT NULL
  OPTIONAL CALL (v, d, new) {
    MATCH (p:DatasetVersion) USING INDEX SEEK p:DatasetVersion(namespace, name, committedAt, id)
      WHERE p.namespace = d.namespace AND p.name = d.name AND p.committedAt <= new AND p.id IS NOT NULL
      AND p.placeholder IS NULL AND CASE WHEN p.committedAt = new THEN p.id < v.id ELSE true END
    RETURN p ORDER BY p.namespace DESC, p.name DESC, p.committedAt DESC, p.id DESC LIMIT 1
  }
  OPTIONAL MATCH (ph:DatasetVersion {id: c.placeholderId})
  UNWIND [x IN [p, ph] WHERE x IS NOT NULL] AS before
  // The reader is unlabelled (only runs READ): as `r:Run`, with `r.id` in the predicate, this statement,
  // alone or composed, planned on a database of one batch read the index of every run's id for each version
  // and kept that plan (bench:first-batch-plan; test/store/ingest-plans.test.ts).
  MATCH (before)<-[rd:READ]-(r) WHERE rd.at >= new AND coalesce(v.runId, '') <> r.id
  CREATE (r)-[moved:READ]->(v)
  SET moved = properties(rd)
  DELETE rd
}
// The placeholder goes when no read needs it.
CALL (c) {
  MATCH (ph:DatasetVersion {id: c.placeholderId}) WHERE NOT EXISTS { (ph)<-[:READ]-() }
  DETACH DELETE ph
}
// CURRENT_VERSION: the version committed last, else the placeholder.
CALL (c, d) {
  OPTIONAL CALL (d) {
    MATCH (x:DatasetVersion) USING INDEX SEEK x:DatasetVersion(namespace, name, committedAt, id)
      WHERE x.namespace = d.namespace AND x.name = d.name AND x.committedAt IS NOT NULL AND x.id IS NOT NULL
      AND x.placeholder IS NULL
    RETURN x ORDER BY x.namespace DESC, x.name DESC, x.committedAt DESC, x.id DESC LIMIT 1
  }
  OPTIONAL MATCH (ph:DatasetVersion {id: c.placeholderId})
  WITH d, coalesce(x, ph) AS best
  OPTIONAL MATCH (d)-[cv:CURRENT_VERSION]->(cur:DatasetVersion)
  // Its commit time may have moved even when the pointer stays. A placeholder is no modification.
  SET d.currentVersion = best.id, d.lastModifiedAt = CASE WHEN best.placeholder THEN null ELSE best.committedAt END
  WITH d, best, cv, cur WHERE cur IS NULL OR best IS NULL OR cur <> best
  DELETE cv
  WITH d, best WHERE best IS NOT NULL
  CREATE (d)-[:CURRENT_VERSION]->(best)
}
