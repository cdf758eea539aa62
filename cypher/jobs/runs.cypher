// Runs of one live job, latest start first (runs that never started sort by their end, then creation).
// Params: $namespace, $name, $offset, $limit.
// Returns no row when the job does not exist, else {totalCount, runs: [run projection r {.*, reads, wrote}]}.
MATCH (j:Job {namespace: $namespace, name: $name})
WHERE NOT j.isDeleted
CALL (j) {
  MATCH (r:Run)-[:RUN_OF]->(j)
  RETURN count(r) AS totalCount
}
CALL (j) {
  MATCH (r:Run)-[:RUN_OF]->(j)
  WITH r ORDER BY r.sortTime DESC, r.id DESC SKIP $offset LIMIT $limit
  RETURN collect(r {.*, reads: [(r)-[rd:READ]->(rv) | rv {.id, .namespace, .name, facets: [k IN keys(rd)
    WHERE k STARTS WITH 'facet.' | [k, rd[k]]]}], wrote: [(r)-[:WROTE]->(wv) | wv {.id, .namespace, .name,
    facets: [k IN keys(wv) WHERE k STARTS WITH 'facet.' | [k, wv[k]]]}]}) AS runs
}
RETURN totalCount, runs
