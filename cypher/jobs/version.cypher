// One version of one job.
// Params: $namespace, $name, $version. Returns {job: job projection, version: v {.*, inputs, outputs}, latestRun}
// (shapes as in versions.cypher) or no row when the job or the version (of that job) does not exist.
MATCH (v:JobVersion {id: $version})-[:VERSION_OF]->(j:Job {namespace: $namespace, name: $name})
RETURN j {.*, inputs: [], outputs: [], tags: [(j)-[:TAGGED]->(t:Tag) | t.name], latestRun: null} AS job,
  v {.*, inputs: [(v)-[:HAS_INPUT]->(d:Dataset) | [d.namespace, d.name]],
    outputs: [(v)-[:HAS_OUTPUT]->(d:Dataset) | [d.namespace, d.name]]} AS version,
  COLLECT {
    MATCH (r:Run)-[:EXECUTED]->(v)
    RETURN r {.*, reads: [(r)-[rd:READ]->(rv) | rv {.id, .namespace, .name, facets: [k IN keys(rd)
      WHERE k STARTS WITH 'facet.' | [k, rd[k]]]}], wrote: [(r)-[:WROTE]->(wv) | wv {.id, .namespace, .name,
      facets: [k IN keys(wv) WHERE k STARTS WITH 'facet.' | [k, wv[k]]]}]} ORDER BY r.sortTime DESC LIMIT 1
  }[0] AS latestRun
