// One live job with its current inputs/outputs, tags and latest run.
// Params: $namespace, $name. Returns {job: job projection (see list.cypher)} or no row.
MATCH (j:Job {namespace: $namespace, name: $name})
WHERE NOT j.isDeleted
RETURN j {.*,
  inputs: [(d:Dataset)-[:INPUT_TO]->(j) | [d.namespace, d.name]],
  outputs: [(j)-[:PRODUCES]->(d:Dataset) | [d.namespace, d.name]],
  tags: [(j)-[:TAGGED]->(t:Tag) | t.name],
  latestRun: [(j)-[:LATEST_RUN]->(r:Run) | r {.*, reads: [(r)-[:READ]->(rv) | rv {.*}], wrote: [(r)-[:WROTE]->(wv) | wv {.*}]}][0]
} AS job
