// Creates (or finds) job versions, ties each run that ended (or a streaming run with known I/O) to
// its version (exactly one per run: computed by the planner from the run's whole I/O and latest
// code), and keeps each version's times and its job's current version true to the events:
//   - a version's createdAt/updatedAt are the earliest/latest time it took effect: the end (or, while
//     running, the start) of each run executing it, and each JobEvent declaring it (declaredFrom/declaredTo);
//   - a version no run executes and no JobEvent declares (a run's earlier version, before more of its
//     I/O or a later code report arrived) is removed;
//   - the job's CURRENT_VERSION is its version with the greatest updatedAt, then id.
// The job's dataset-level lineage edges (INPUT_TO / PRODUCES) do not follow it: they accumulate with
// their history (lineage-edges.cypher).
// Params: $versions: [{id, job: {namespace, name}, runId (or null for a JobEvent), previous (the version the run
//   executed before, when another one, or null), time (ISO: when it took effect for this run or JobEvent),
//   retimed (boolean: the run stays on it, its time changed), location, context (JSON string),
//   inputs, outputs ([{namespace, name}])}]
// Returns nothing.
// Its plan starts from unique-key seeks, so statistics cannot improve it: keep the cached plan (cypher/README.md).
CYPHER replan=skip
UNWIND $versions AS ver
WITH ver, datetime(ver.time) AS vt
// A version that exists already has its job and dataset links: its id derives from them, and they are
// made with it. Checking them again against dense datasets costs more than this lookup.
OPTIONAL MATCH (known:JobVersion {id: ver.id})
WITH ver, vt, known IS NOT NULL AS existed
MATCH (j:Job {namespace: ver.job.namespace, name: ver.job.name})
MERGE (v:JobVersion {id: ver.id})
  ON CREATE SET v.namespace = j.namespace, v.name = j.name, v.location = ver.location,
                v.context = ver.context, v.createdAt = vt, v.updatedAt = vt
// Merged, not created: two runs of one batch can take the same new version, and both rows found no
// version before either made it. The check reads the new version's own few links, not the job's.
FOREACH (_ IN CASE WHEN existed THEN [] ELSE [1] END | MERGE (v)-[:VERSION_OF]->(j))
WITH ver, vt, j, v, existed
CALL (ver, v, existed) {
  WITH ver, v WHERE NOT existed
  UNWIND ver.inputs AS ref
  MATCH (d:Dataset {namespace: ref.namespace, name: ref.name})
  MERGE (v)-[:HAS_INPUT]->(d)
}
CALL (ver, v, existed) {
  WITH ver, v WHERE NOT existed
  UNWIND ver.outputs AS ref
  MATCH (d:Dataset {namespace: ref.namespace, name: ref.name})
  MERGE (v)-[:HAS_OUTPUT]->(d)
}
CALL (ver, vt, v) {
  WITH ver, vt, v WHERE ver.runId IS NULL
  SET v.declaredFrom = CASE WHEN v.declaredFrom IS NULL OR vt < v.declaredFrom THEN vt ELSE v.declaredFrom END,
      v.declaredTo = CASE WHEN v.declaredTo IS NULL OR vt > v.declaredTo THEN vt ELSE v.declaredTo END
}
CALL (ver, v) {
  WITH ver, v WHERE ver.runId IS NOT NULL AND NOT ver.retimed
  MATCH (r:Run {id: ver.runId})
  OPTIONAL MATCH (r)-[old:EXECUTED]->(other:JobVersion) WHERE other <> v
  DELETE old
  WITH DISTINCT r, v
  MERGE (r)-[:EXECUTED]->(v)
  SET r.jobVersion = v.id
}
// The version's times: a new run or declaration only widens them; a run whose time changed may narrow them.
CALL (ver, vt, v) {
  WITH ver, vt, v WHERE NOT ver.retimed
  SET v.createdAt = CASE WHEN vt < v.createdAt THEN vt ELSE v.createdAt END,
      v.updatedAt = CASE WHEN vt > v.updatedAt THEN vt ELSE v.updatedAt END
}
CALL (ver, v) {
  WITH ver, v WHERE ver.retimed
  WITH v, [t IN COLLECT { MATCH (r:Run)-[:EXECUTED]->(v) RETURN coalesce(r.endedAt, r.startedAt,
    r.createdAt) } + [v.declaredFrom, v.declaredTo] WHERE t IS NOT NULL] AS times
  SET v.createdAt = reduce(m = times[0], t IN times | CASE WHEN t < m THEN t ELSE m END),
      v.updatedAt = reduce(m = times[0], t IN times | CASE WHEN t > m THEN t ELSE m END)
}
// The run's previous version: its times without this run, or gone if nothing else uses it.
CALL (ver) {
  WITH ver WHERE ver.previous IS NOT NULL
  MATCH (p:JobVersion {id: ver.previous})
  WITH p, [t IN COLLECT { MATCH (r:Run)-[:EXECUTED]->(p) RETURN coalesce(r.endedAt, r.startedAt,
    r.createdAt) } + [p.declaredFrom, p.declaredTo] WHERE t IS NOT NULL] AS times
  CALL (p, times) {
    WITH p WHERE size(times) = 0
    DETACH DELETE p
  }
  CALL (p, times) {
    WITH p, times WHERE size(times) > 0
    SET p.createdAt = reduce(m = times[0], t IN times | CASE WHEN t < m THEN t ELSE m END),
        p.updatedAt = reduce(m = times[0], t IN times | CASE WHEN t > m THEN t ELSE m END)
  }
}
// CURRENT_VERSION: the version with the greatest updatedAt, then id. A version that gained time may
// overtake it; when versions lost time or went away, it is chosen again among all the job's versions.
CALL (ver, j, v) {
  OPTIONAL MATCH (j)-[c:CURRENT_VERSION]->(cur:JobVersion)
  WITH ver, j, v, c, cur
  CALL (ver, j, v, cur) {
    WITH ver, j, v, cur WHERE cur IS NOT NULL AND NOT ver.retimed AND ver.previous IS NULL
    RETURN CASE WHEN cur.updatedAt > v.updatedAt OR (cur.updatedAt = v.updatedAt AND cur.id >= v.id) THEN cur
      ELSE v END AS best
    UNION
    WITH ver, j, v, cur WHERE cur IS NULL OR ver.retimed OR ver.previous IS NOT NULL
    // A subquery of its own, so that the condition above gates the lookup (see runs-upsert.cypher).
    CALL (j) {
      // All four properties of the index job_version_use_order, ordered as it is: one entry read.
      MATCH (x:JobVersion) USING INDEX SEEK x:JobVersion(namespace, name, updatedAt, id) WHERE x.namespace = j.namespace
        AND x.name = j.name AND x.updatedAt IS NOT NULL AND x.id IS NOT NULL
      RETURN x ORDER BY x.namespace DESC, x.name DESC, x.updatedAt DESC, x.id DESC LIMIT 1
    }
    RETURN x AS best
  }
  // Its time may have moved even when the pointer stays.
  SET j.currentVersion = best.id, j.currentVersionAt = best.updatedAt, j.location = best.location,
    j.context = best.context
  WITH j, c, cur, best WHERE cur IS NULL OR cur <> best
  DELETE c
  // j is locked (jobs-upsert) and has no CURRENT_VERSION left: CREATE spares MERGE's check of a dense node.
  CREATE (j)-[:CURRENT_VERSION]->(best)
}
