// Migration `job-version-links` (src/store/migrations.ts): removes the extra VERSION_OF links of a batch of
// job versions that have more than one to their job. Earlier releases created the link once per run of a
// batch taking a new version, so two runs of one transaction on the same new version made it twice
// (the version pages then listed it twice and counted it twice).
// Params: $limit (integer: versions per batch).
// Returns one row: versions (the versions repaired in this batch; 0 when none was left).
CALL () {
  MATCH (v:JobVersion) WHERE COUNT { (v)-[:VERSION_OF]->() } > 1
  WITH v LIMIT $limit
  MATCH (v)-[e:VERSION_OF]->(j:Job)
  WITH v, j, collect(e) AS links
  FOREACH (extra IN links[1..] | DELETE extra)
  RETURN count(DISTINCT v) AS versions
}
RETURN versions
