// One live dataset by (namespace, name); a symlink alias name returns its primary dataset.
// Params: $namespace, $name. Returns {dataset: dataset projection (see list.cypher)} or no row.
MATCH (x:Dataset {namespace: $namespace, name: $name})
OPTIONAL MATCH (x)-[:ALIAS_OF]->(p:Dataset)
WITH coalesce(p, x) AS d
WHERE NOT d.isDeleted
RETURN d {.*,
  tags: [(d)-[:TAGGED]->(t:Tag) | t.name],
  fieldTags: [(d)-[:HAS_FIELD]->(f:DatasetField)-[:TAGGED]->(t:Tag) | [f.name, t.name]],
  // Readers' input facets on the current version (dataQualityMetrics, say), as Marquez shows them: only
  // READs with a facet the dataset itself does not hold (cypher/README.md, the READ relationship).
  readFacets: [(d)-[:CURRENT_VERSION]->(:DatasetVersion)<-[rd:READ]-() WHERE rd.facetStamps IS NOT NULL
    AND any(k IN keys(rd) WHERE k STARTS WITH 'facet.' AND d[k] IS NULL)
    | {stamps: rd.facetStamps,
       facets: [k IN keys(rd) WHERE k STARTS WITH 'facet.' AND d[k] IS NULL | [k, rd[k]]]}]} AS dataset
