// Tags a live dataset (an alias name tags its primary); an unknown tag is created.
// Params: $namespace, $name, $tag, $now (ISO-8601 string).
// Returns {dataset: dataset projection (see list.cypher)} or no row when the dataset does not exist.
MATCH (x:Dataset {namespace: $namespace, name: $name})
OPTIONAL MATCH (x)-[:ALIAS_OF]->(p:Dataset)
WITH coalesce(p, x) AS d
WHERE NOT d.isDeleted
MERGE (t:Tag {name: $tag})
  ON CREATE SET t.createdAt = datetime($now), t.description = null
MERGE (d)-[:TAGGED]->(t)
WITH DISTINCT d
RETURN d {.*,
  tags: [(d)-[:TAGGED]->(t:Tag) | t.name],
  fieldTags: [(d)-[:HAS_FIELD]->(f:DatasetField)-[:TAGGED]->(t:Tag) | [f.name, t.name]],
  // readFacets: as in get.cypher.
  readFacets: [(d)-[:CURRENT_VERSION]->(:DatasetVersion)<-[rd:READ]-() WHERE rd.facetStamps IS NOT NULL
    AND any(k IN keys(rd) WHERE k STARTS WITH 'facet.' AND d[k] IS NULL)
    | {stamps: rd.facetStamps,
       facets: [k IN keys(rd) WHERE k STARTS WITH 'facet.' AND d[k] IS NULL | [k, rd[k]]]}]} AS dataset
