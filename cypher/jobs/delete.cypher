// Soft-deletes a job: it leaves lists, search and lineage; its history stays, and a later event
// about it brings it back.
// Params: $namespace, $name. Returns {job: job projection (see list.cypher)} or no row.
MATCH (j:Job {namespace: $namespace, name: $name})
WHERE NOT j.isDeleted
SET j.isDeleted = true, j.deletedAt = datetime(), j:Deleted
RETURN j {.*,
  inputs: [(j)-[:CURRENT_VERSION]->(:JobVersion)-[:HAS_INPUT]->(d:Dataset) | [d.namespace, d.name]],
  outputs: [(j)-[:CURRENT_VERSION]->(:JobVersion)-[:HAS_OUTPUT]->(d:Dataset) | [d.namespace, d.name]],
  tags: [(j)-[:TAGGED]->(t:Tag) | t.name],
  latestRun: [(j)-[:LATEST_RUN]->(r:Run) | r {.*, reads: [(r)-[rd:READ]->(rv) | rv {.id, .namespace, .name,
    facets: [k IN keys(rd) WHERE k STARTS WITH 'facet.' | [k, rd[k]]]}], wrote: [(r)-[:WROTE]->(wv) | wv {.id,
    .namespace, .name, facets: [k IN keys(wv) WHERE k STARTS WITH 'facet.' | [k, wv[k]]]}]}][0]
} AS job
