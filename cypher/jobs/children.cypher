// The live child jobs of one live job (jobs whose runs name it as their parent, `(child)-[:CHILD_OF]->(job)`),
// ordered by (namespace, name), one page, with the total. A child may be in another namespace.
// Params: $namespace, $name (the parent job), $offset, $limit.
// Returns no row when the parent job does not exist (or is soft-deleted), else one row
//   {totalCount, jobs: [job projection]} with the job projection of list.cypher.
// Cost grows with the job's children only: both subqueries start from the parent's unique-key seek.
MATCH (p:Job {namespace: $namespace, name: $name})
WHERE NOT p.isDeleted
CALL (p) {
  MATCH (c:Job)-[:CHILD_OF]->(p) WHERE NOT c.isDeleted
  RETURN count(c) AS totalCount
}
CALL (p) {
  MATCH (j:Job)-[:CHILD_OF]->(p) WHERE NOT j.isDeleted
  WITH j ORDER BY j.namespace, j.name SKIP $offset LIMIT $limit
  RETURN collect(j {.*,
    inputs: [(j)-[:CURRENT_VERSION]->(:JobVersion)-[:HAS_INPUT]->(d:Dataset) | [d.namespace, d.name]],
    outputs: [(j)-[:CURRENT_VERSION]->(:JobVersion)-[:HAS_OUTPUT]->(d:Dataset) | [d.namespace, d.name]],
    tags: [(j)-[:TAGGED]->(t:Tag) | t.name],
    latestRun: [(j)-[:LATEST_RUN]->(r:Run) | r {.*, reads: [(r)-[rd:READ]->(rv) | rv {.id, .namespace, .name,
      facets: [k IN keys(rd) WHERE k STARTS WITH 'facet.' | [k, rd[k]]]}], wrote: [(r)-[:WROTE]->(wv) | wv {.id,
      .namespace, .name, facets: [k IN keys(wv) WHERE k STARTS WITH 'facet.' | [k, wv[k]]]}]}][0]
  }) AS jobs
}
RETURN totalCount, jobs
