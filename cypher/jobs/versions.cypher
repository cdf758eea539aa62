// Versions of one live job, newest first, one page, with the total.
// Params: $namespace, $name, $offset, $limit.
// Returns no row when the job does not exist, else {totalCount, job: job projection (see list.cypher),
// versions: [{version: v {.*, inputs: [[ns, name]], outputs: [[ns, name]]}, latestRun: run projection of its latest run
// or null}]}.
MATCH (j:Job {namespace: $namespace, name: $name})
WHERE NOT j.isDeleted
CALL (j) {
  MATCH (v:JobVersion)-[:VERSION_OF]->(j)
  RETURN count(v) AS totalCount
}
CALL (j) {
  MATCH (v:JobVersion)-[:VERSION_OF]->(j)
  WITH v ORDER BY v.createdAt DESC, v.id SKIP $offset LIMIT $limit
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
