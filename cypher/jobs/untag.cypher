// Removes a tag from a live job; not tagged is a no-op.
// Params: $namespace, $name, $tag.
// Returns {job: job projection (see list.cypher)} or no row when the job does not exist.
MATCH (j:Job {namespace: $namespace, name: $name})
WHERE NOT j.isDeleted
CALL (j) {
  MATCH (j)-[e:TAGGED]->(:Tag {name: $tag})
  DELETE e
}
RETURN j {.*,
  inputs: [(d:Dataset)-[:INPUT_TO]->(j) | [d.namespace, d.name]],
  outputs: [(j)-[:PRODUCES]->(d:Dataset) | [d.namespace, d.name]],
  tags: [(j)-[:TAGGED]->(t:Tag) | t.name],
  latestRun: [(j)-[:LATEST_RUN]->(r:Run) | r {.*, reads: [(r)-[:READ]->(rv) | rv {.*}], wrote: [(r)-[:WROTE]->(wv) | wv {.*}]}][0]
} AS job
