// Runs of one live job, latest start first (runs that never started sort by their end, then creation).
// Params: $namespace, $name, $offset, $limit.
// Returns no row when the job does not exist, else {totalCount, runs: [run projection r {.*, reads, wrote}]}.
MATCH (j:Job {namespace: $namespace, name: $name})
WHERE NOT j.isDeleted
// The count is the relationship's degree and the page reads the index run_job_sort_order in its order
// (a run's jobNamespace and jobName mirror its RUN_OF, and every run has a sortTime): neither visits
// every run of a job with a long history (test/store/history-cost.test.ts).
WITH j, COUNT { (j)<-[:RUN_OF]-() } AS totalCount
CALL (j) {
  MATCH (r:Run) USING INDEX SEEK r:Run(jobNamespace, jobName, sortTime, id)
    WHERE r.jobNamespace = j.namespace AND r.jobName = j.name AND r.sortTime IS NOT NULL AND r.id IS NOT NULL
  WITH r ORDER BY r.jobNamespace DESC, r.jobName DESC, r.sortTime DESC, r.id DESC SKIP $offset LIMIT $limit
  RETURN collect(r {.*, reads: [(r)-[rd:READ]->(rv) | rv {.id, .namespace, .name, facets: [k IN keys(rd)
    WHERE k STARTS WITH 'facet.' | [k, rd[k]]]}], wrote: [(r)-[:WROTE]->(wv) | wv {.id, .namespace, .name,
    facets: [k IN keys(wv) WHERE k STARTS WITH 'facet.' | [k, wv[k]]]}]}) AS runs
}
RETURN totalCount, runs
