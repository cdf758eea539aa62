// One version of one job.
// Params: $namespace, $name, $version. Returns {job: job projection, version: v {.*, inputs, outputs}, latestRun}
// (shapes as in versions.cypher) or no row when the job or the version (of that job) does not exist.
MATCH (v:JobVersion {id: $version})-[:VERSION_OF]->(j:Job {namespace: $namespace, name: $name})
RETURN j {.*, inputs: [], outputs: [], tags: [(j)-[:TAGGED]->(t:Tag) | t.name], latestRun: null} AS job,
  v {.*, inputs: [(v)-[:HAS_INPUT]->(d:Dataset) | [d.namespace, d.name]],
    outputs: [(v)-[:HAS_OUTPUT]->(d:Dataset) | [d.namespace, d.name]]} AS version,
  // The index run_version_sort_order read newest first (see versions.cypher).
  COLLECT {
    MATCH (r:Run) USING INDEX SEEK r:Run(jobVersion, sortTime, id)
      WHERE r.jobVersion = v.id AND r.sortTime IS NOT NULL AND r.id IS NOT NULL
    WITH r ORDER BY r.jobVersion DESC, r.sortTime DESC, r.id DESC LIMIT 1
    RETURN r {.*, reads: [(r)-[rd:READ]->(rv) | rv {.id, .namespace, .name, facets: [k IN keys(rd)
      WHERE k STARTS WITH 'facet.' | [k, rd[k]]]}], wrote: [(r)-[:WROTE]->(wv) | wv {.id, .namespace, .name,
      facets: [k IN keys(wv) WHERE k STARTS WITH 'facet.' | [k, wv[k]]]}]}
  }[0] AS latestRun
