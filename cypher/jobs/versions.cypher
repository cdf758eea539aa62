// Versions of one live job, newest first, one page, with the total.
// Params: $namespace, $name, $offset, $limit.
// Returns no row when the job does not exist, else {totalCount, job: job projection (see list.cypher),
// versions: [{version: v {.*, inputs: [[ns, name]], outputs: [[ns, name]]}, latestRun: run projection of its latest run
// or null}]}.
MATCH (j:Job {namespace: $namespace, name: $name})
WHERE NOT j.isDeleted
// The count is the relationship's degree and the page reads the index job_version_create_order in its
// order (a version's namespace and name are its job's, set when it is created): neither visits every
// version of a job that writes a new partition each run, and so has a version per run
// (test/store/history-cost.test.ts). Versions created at the same instant come by id, descending.
WITH j, COUNT { (j)<-[:VERSION_OF]-() } AS totalCount
CALL (j) {
  MATCH (v:JobVersion) USING INDEX SEEK v:JobVersion(namespace, name, createdAt, id)
    WHERE v.namespace = j.namespace AND v.name = j.name AND v.createdAt IS NOT NULL AND v.id IS NOT NULL
  WITH v ORDER BY v.namespace DESC, v.name DESC, v.createdAt DESC, v.id DESC SKIP $offset LIMIT $limit
  RETURN collect({
    version: v {.*, inputs: [(v)-[:HAS_INPUT]->(d:Dataset) | [d.namespace, d.name]],
      outputs: [(v)-[:HAS_OUTPUT]->(d:Dataset) | [d.namespace, d.name]]},
    // The index run_version_sort_order read newest first: one entry, however many runs executed the version.
    latestRun: COLLECT {
      MATCH (r:Run) USING INDEX SEEK r:Run(jobVersion, sortTime, id)
        WHERE r.jobVersion = v.id AND r.sortTime IS NOT NULL AND r.id IS NOT NULL
      WITH r ORDER BY r.jobVersion DESC, r.sortTime DESC, r.id DESC LIMIT 1
      RETURN r {.*, reads: [(r)-[rd:READ]->(rv) | rv {.id, .namespace, .name, facets: [k IN keys(rd)
        WHERE k STARTS WITH 'facet.' | [k, rd[k]]]}], wrote: [(r)-[:WROTE]->(wv) | wv {.id, .namespace, .name,
        facets: [k IN keys(wv) WHERE k STARTS WITH 'facet.' | [k, wv[k]]]}]}
    }[0]
  }) AS versions
}
RETURN totalCount,
  j {.*, inputs: [], outputs: [], tags: [(j)-[:TAGGED]->(t:Tag) | t.name], latestRun: null} AS job,
  versions
