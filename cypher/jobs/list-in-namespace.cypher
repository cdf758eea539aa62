// Live jobs of one namespace ordered by name, one page, with the total, each with its latest run and
// latest runs; optionally only jobs whose latest run is in one of $states.
// Params: $namespace, $states ([string] or null), $offset, $limit, $runsPerJob (how many of each job's latest
//   runs, newest first).
// Returns one row {namespaceExists: boolean, totalCount, jobs: [job projection]} where a job projection is
//   j {.*, inputs: [[ns, name]], outputs: [[ns, name]], tags: [name], latestRun: run projection or null,
//   latestRuns: [run projection]},
//   a run projection is r {.*, reads: [version ref], wrote: [version ref]} and a version ref is
//   v {.id, .namespace, .name, facets: [[propertyName 'facet.<name>', JSON]]}.
// Cost does not grow with the namespace: without $states the total is the namespace's HAS_JOB degree
// less its soft-deleted jobs (found through the isDeleted index), and the page is read in the order of
// the (namespace, name) index, stopping after $offset + $limit rows.
// The ordering marked `/*order*/` is the default (by name); the store swaps in name descending or updatedAt
// (src/store/list-order.ts). By updatedAt the page is a sort of every live job of the namespace, not an index walk.
CALL () {
  WITH $states AS states WHERE states IS NULL
  MATCH (ns:Namespace {name: $namespace})
  RETURN COUNT { (ns)-[:HAS_JOB]->() } - COUNT { MATCH (j:Job) USING INDEX SEEK j:Job(isDeleted)
    WHERE j.isDeleted = true AND j.namespace = $namespace } AS n
  UNION ALL
  WITH $states AS states WHERE states IS NOT NULL
  MATCH (j:Job) WHERE j.latestRunState IN states AND j.namespace = $namespace AND NOT j.isDeleted
  RETURN count(j) AS n
}
WITH sum(n) AS totalCount
CALL () {
  // When only a few jobs are soft-deleted they are excluded by name: the index already holds the name,
  // so skipping to a deep offset reads no node properties. With many (a deleted namespace) the flag is
  // read instead (no quadratic list test).
  WITH COLLECT { MATCH (x:Job) USING INDEX SEEK x:Job(isDeleted)
    WHERE x.isDeleted = true AND x.namespace = $namespace RETURN x.name LIMIT 101 } AS hidden
  WITH hidden, size(hidden) <= 100 AS fewHidden
  MATCH (j:Job) USING INDEX SEEK j:Job(namespace, name)
  WHERE j.namespace = $namespace AND j.name IS NOT NULL
    AND CASE WHEN fewHidden THEN NOT j.name IN hidden ELSE NOT j.isDeleted END
    AND ($states IS NULL OR j.latestRunState IN $states)
  WITH j ORDER BY j.namespace, j.name /*order*/ SKIP $offset LIMIT $limit
  // Each job's latest runs newest first from the index run_job_sort_order, as jobs/runs.cypher pages them:
  // $runsPerJob entries a job, whatever its history.
  CALL (j) {
    MATCH (r:Run) USING INDEX SEEK r:Run(jobNamespace, jobName, sortTime, id)
      WHERE r.jobNamespace = j.namespace AND r.jobName = j.name AND r.sortTime IS NOT NULL AND r.id IS NOT NULL
    WITH r ORDER BY r.jobNamespace DESC, r.jobName DESC, r.sortTime DESC, r.id DESC LIMIT $runsPerJob
    RETURN collect(r {.*, reads: [(r)-[rd:READ]->(rv) | rv {.id, .namespace, .name, facets: [k IN keys(rd)
      WHERE k STARTS WITH 'facet.' | [k, rd[k]]]}], wrote: [(r)-[:WROTE]->(wv) | wv {.id, .namespace, .name,
      facets: [k IN keys(wv) WHERE k STARTS WITH 'facet.' | [k, wv[k]]]}]}) AS latestRuns
  }
  RETURN collect(j {.*,
    inputs: [(j)-[:CURRENT_VERSION]->(:JobVersion)-[:HAS_INPUT]->(d:Dataset) | [d.namespace, d.name]],
    outputs: [(j)-[:CURRENT_VERSION]->(:JobVersion)-[:HAS_OUTPUT]->(d:Dataset) | [d.namespace, d.name]],
    tags: [(j)-[:TAGGED]->(t:Tag) | t.name],
    latestRun: [(j)-[:LATEST_RUN]->(r:Run) | r {.*, reads: [(r)-[rd:READ]->(rv) | rv {.id, .namespace, .name,
      facets: [k IN keys(rd) WHERE k STARTS WITH 'facet.' | [k, rd[k]]]}], wrote: [(r)-[:WROTE]->(wv) | wv {.id,
      .namespace, .name, facets: [k IN keys(wv) WHERE k STARTS WITH 'facet.' | [k, wv[k]]]}]}][0],
    latestRuns: latestRuns
  }) AS jobs
}
RETURN EXISTS { (:Namespace {name: $namespace}) } AS namespaceExists, totalCount, jobs
