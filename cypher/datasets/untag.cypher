// Removes a tag from a live dataset (an alias name untags its primary); not tagged is a no-op.
// Params: $namespace, $name, $tag.
// Returns {dataset: dataset projection (see list.cypher)} or no row when the dataset does not exist.
MATCH (x:Dataset {namespace: $namespace, name: $name})
OPTIONAL MATCH (x)-[:ALIAS_OF]->(p:Dataset)
WITH coalesce(p, x) AS d
WHERE NOT d.isDeleted
CALL (d) {
  MATCH (d)-[e:TAGGED]->(:Tag {name: $tag})
  DELETE e
}
RETURN d {.*,
  tags: [(d)-[:TAGGED]->(t:Tag) | t.name],
  fieldTags: [(d)-[:HAS_FIELD]->(f:DatasetField)-[:TAGGED]->(t:Tag) | [f.name, t.name]],
  // readFacets: as in get.cypher.
  readFacets: [(d)-[:CURRENT_VERSION]->(:DatasetVersion)<-[rd:READ]-() WHERE rd.facetStamps IS NOT NULL
    AND any(k IN keys(rd) WHERE k STARTS WITH 'facet.' AND d[k] IS NULL)
    | {stamps: rd.facetStamps,
       facets: [k IN keys(rd) WHERE k STARTS WITH 'facet.' AND d[k] IS NULL | [k, rd[k]]]}]} AS dataset
