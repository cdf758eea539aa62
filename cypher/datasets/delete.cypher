// Soft-deletes a dataset: it leaves lists, search and lineage; its history stays, and a later event
// about it brings it back.
// Params: $namespace, $name. Returns {dataset: dataset projection} (as it was, with deleted = true) or no row.
MATCH (d:Dataset {namespace: $namespace, name: $name})
WHERE NOT d.isDeleted
SET d.isDeleted = true, d.deletedAt = datetime(), d:Deleted
RETURN d {.*, tags: [(d)-[:TAGGED]->(t:Tag) | t.name], fieldTags: [(d)-[:HAS_FIELD]->(f:DatasetField)-[:TAGGED]->(t:Tag)
  | [f.name, t.name]],
  // readFacets: as in get.cypher.
  readFacets: [(d)-[:CURRENT_VERSION]->(:DatasetVersion)<-[rd:READ]-() WHERE rd.facetStamps IS NOT NULL
    AND any(k IN keys(rd) WHERE k STARTS WITH 'facet.' AND d[k] IS NULL)
    | {stamps: rd.facetStamps,
       facets: [k IN keys(rd) WHERE k STARTS WITH 'facet.' AND d[k] IS NULL | [k, rd[k]]]}]} AS dataset
