// Soft-deletes a namespace: hides it and soft-deletes its datasets and jobs (they leave lists, search
// and lineage). A later event about the namespace un-hides it and brings back what it mentions.
// Params: $name, $now (ISO-8601 string). Returns {namespace: n {.*}} (after the change) or no row.
MATCH (n:Namespace {name: $name})
SET n.isHidden = true, n.updatedAt = datetime($now)
WITH n
CALL (n) {
  MATCH (n)-[:HAS_DATASET]->(d:Dataset) WHERE NOT d.isDeleted
  SET d.isDeleted = true, d.deletedAt = datetime($now), d:Deleted
  RETURN count(d) AS datasets
}
CALL (n) {
  MATCH (n)-[:HAS_JOB]->(j:Job) WHERE NOT j.isDeleted
  SET j.isDeleted = true, j.deletedAt = datetime($now), j:Deleted
  RETURN count(j) AS jobs
}
RETURN n {.*} AS namespace
