// One live job with its current version's inputs/outputs, tags, latest run and its 10 latest runs.
// Params: $namespace, $name. Returns {job: job projection (see list.cypher) with latestRuns: [run projection],
//   newest first, as jobs/runs.cypher pages them} or no row.
MATCH (j:Job {namespace: $namespace, name: $name})
WHERE NOT j.isDeleted
// Read newest first from the index run_job_sort_order, as jobs/runs.cypher does: ten entries, whatever the
// job's history (test/store/history-cost.test.ts).
CALL (j) {
  MATCH (r:Run) USING INDEX SEEK r:Run(jobNamespace, jobName, sortTime, id)
    WHERE r.jobNamespace = j.namespace AND r.jobName = j.name AND r.sortTime IS NOT NULL AND r.id IS NOT NULL
  WITH r ORDER BY r.jobNamespace DESC, r.jobName DESC, r.sortTime DESC, r.id DESC LIMIT 10
  RETURN collect(r {.*, reads: [(r)-[rd:READ]->(rv) | rv {.id, .namespace, .name, facets: [k IN keys(rd)
    WHERE k STARTS WITH 'facet.' | [k, rd[k]]]}], wrote: [(r)-[:WROTE]->(wv) | wv {.id, .namespace, .name,
    facets: [k IN keys(wv) WHERE k STARTS WITH 'facet.' | [k, wv[k]]]}]}) AS latestRuns
}
RETURN j {.*,
  inputs: [(j)-[:CURRENT_VERSION]->(:JobVersion)-[:HAS_INPUT]->(d:Dataset) | [d.namespace, d.name]],
  outputs: [(j)-[:CURRENT_VERSION]->(:JobVersion)-[:HAS_OUTPUT]->(d:Dataset) | [d.namespace, d.name]],
  tags: [(j)-[:TAGGED]->(t:Tag) | t.name],
  latestRun: [(j)-[:LATEST_RUN]->(r:Run) | r {.*, reads: [(r)-[rd:READ]->(rv) | rv {.id, .namespace, .name,
    facets: [k IN keys(rd) WHERE k STARTS WITH 'facet.' | [k, rd[k]]]}], wrote: [(r)-[:WROTE]->(wv) | wv {.id,
    .namespace, .name, facets: [k IN keys(wv) WHERE k STARTS WITH 'facet.' | [k, wv[k]]]}]}][0],
  latestRuns: latestRuns
} AS job
