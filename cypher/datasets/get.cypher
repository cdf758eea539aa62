// One live dataset by (namespace, name); a symlink alias name returns its primary dataset.
// Params: $namespace, $name. Returns {dataset: dataset projection (see list.cypher)} or no row.
MATCH (x:Dataset {namespace: $namespace, name: $name})
OPTIONAL MATCH (x)-[:ALIAS_OF]->(p:Dataset)
WITH coalesce(p, x) AS d
WHERE NOT d.isDeleted
RETURN d {.*,
  tags: [(d)-[:TAGGED]->(t:Tag) | t.name],
  fieldTags: [(d)-[:HAS_FIELD]->(f:DatasetField)-[:TAGGED]->(t:Tag) | [f.name, t.name]]} AS dataset
