// Tags one field (column) of a live dataset (an alias name finds its primary); an unknown tag is created.
// Params: $namespace, $name, $field, $tag, $now (ISO-8601 string).
// Returns no row when the dataset does not exist, else {fieldExists: boolean, dataset: dataset projection
// (see list.cypher)}; nothing is written when the field does not exist.
MATCH (x:Dataset {namespace: $namespace, name: $name})
OPTIONAL MATCH (x)-[:ALIAS_OF]->(p:Dataset)
WITH coalesce(p, x) AS d
WHERE NOT d.isDeleted
WITH d, [(d)-[:HAS_FIELD]->(f:DatasetField {name: $field}) | f][0] AS f
FOREACH (field IN CASE WHEN f IS NULL THEN [] ELSE [f] END |
  MERGE (t:Tag {name: $tag})
    ON CREATE SET t.createdAt = datetime($now), t.description = null
  MERGE (field)-[:TAGGED]->(t))
RETURN f IS NOT NULL AS fieldExists,
  d {.*,
    tags: [(d)-[:TAGGED]->(t:Tag) | t.name],
    fieldTags: [(d)-[:HAS_FIELD]->(df:DatasetField)-[:TAGGED]->(t:Tag) | [df.name, t.name]],
    // readFacets: as in get.cypher.
    readFacets: [(d)-[:CURRENT_VERSION]->(:DatasetVersion)<-[rd:READ]-() WHERE rd.facetStamps IS NOT NULL
      AND any(k IN keys(rd) WHERE k STARTS WITH 'facet.' AND d[k] IS NULL)
      | {stamps: rd.facetStamps,
         facets: [k IN keys(rd) WHERE k STARTS WITH 'facet.' AND d[k] IS NULL | [k, rd[k]]]}]} AS dataset
