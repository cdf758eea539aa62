// Live jobs of one namespace ordered by name, one page, with the total, each with its latest run;
// optionally only jobs whose latest run is in one of $states.
// Params: $namespace, $states ([string] or null), $offset, $limit.
// Returns one row {namespaceExists: boolean, totalCount, jobs: [job projection]} where a job projection is
//   j {.*, inputs: [[ns, name]], outputs: [[ns, name]], tags: [name], latestRun: run projection or null}
//   and a run projection is r {.*, reads: [v {.*}], wrote: [v {.*}]}.
CALL () {
  MATCH (j:Job)
  WHERE j.namespace = $namespace AND j.name IS NOT NULL AND NOT j.isDeleted
    AND ($states IS NULL OR j.latestRunState IN $states)
  RETURN count(j) AS totalCount
}
CALL () {
  MATCH (j:Job)
  WHERE j.namespace = $namespace AND j.name IS NOT NULL AND NOT j.isDeleted
    AND ($states IS NULL OR j.latestRunState IN $states)
  WITH j ORDER BY j.name SKIP $offset LIMIT $limit
  RETURN collect(j {.*,
    inputs: [(d:Dataset)-[:INPUT_TO]->(j) | [d.namespace, d.name]],
    outputs: [(j)-[:PRODUCES]->(d:Dataset) | [d.namespace, d.name]],
    tags: [(j)-[:TAGGED]->(t:Tag) | t.name],
    latestRun: [(j)-[:LATEST_RUN]->(r:Run) | r {.*, reads: [(r)-[:READ]->(rv) | rv {.*}], wrote: [(r)-[:WROTE]->(wv) | wv {.*}]}][0]
  }) AS jobs
}
RETURN EXISTS { (:Namespace {name: $namespace}) } AS namespaceExists, totalCount, jobs
