// Datasets of one namespace ordered by name, one page, with the total (soft-deleted datasets and
// symlink aliases left out).
// Params: $namespace, $offset, $limit (integers).
// Returns no row when the namespace does not exist, else one row {totalCount, datasets: [dataset projection]}
// where a dataset projection is d {.*, tags: [name], fieldTags: [[field, tag]], readFacets: [{stamps, facets:
// [[key, JSON]]}] (facets that readers of the current version reported and the dataset does not hold)}.
// Cost does not grow with the namespace: the total is the namespace's HAS_DATASET degree less its
// soft-deleted datasets and live aliases (both found through indexes), and the page is read in the
// order of the (namespace, name) index, stopping after $offset + $limit rows.
// The ordering marked `/*order*/` is the default (by name); the store swaps in name descending or updatedAt
// (src/store/list-order.ts). By updatedAt the page is a sort of every live dataset of the namespace, not an index walk.
MATCH (ns:Namespace {name: $namespace})
WITH COUNT { (ns)-[:HAS_DATASET]->() }
  - COUNT { MATCH (d:Dataset) USING INDEX SEEK d:Dataset(isDeleted)
    WHERE d.isDeleted = true AND d.namespace = $namespace }
  - COUNT { MATCH (d:Dataset) USING INDEX SEEK d:Dataset(isAlias) WHERE d.isAlias = true AND d.isDeleted = false
    AND d.namespace = $namespace } AS totalCount
CALL () {
  // When only a few names are hidden (soft-deleted, aliases) they are excluded by name: the index
  // already holds the name, so skipping to a deep offset reads no node properties. With many (a
  // deleted namespace, an alias-only namespace) the flags are read instead (no quadratic list test).
  WITH COLLECT { MATCH (x:Dataset) USING INDEX SEEK x:Dataset(isDeleted) WHERE x.isDeleted = true
       AND x.namespace = $namespace RETURN x.name LIMIT 101 }
     + COLLECT { MATCH (x:Dataset) USING INDEX SEEK x:Dataset(isAlias) WHERE x.isAlias = true
       AND x.namespace = $namespace RETURN x.name LIMIT 101 } AS hidden
  WITH hidden, size(hidden) <= 100 AS fewHidden
  MATCH (d:Dataset) USING INDEX SEEK d:Dataset(namespace, name) WHERE d.namespace = $namespace AND d.name IS NOT NULL
    AND CASE WHEN fewHidden THEN NOT d.name IN hidden ELSE NOT d.isDeleted AND d.isAlias IS NULL END
  WITH d ORDER BY d.namespace, d.name /*order*/ SKIP $offset LIMIT $limit
  RETURN collect(d {.*,
    tags: [(d)-[:TAGGED]->(t:Tag) | t.name],
    fieldTags: [(d)-[:HAS_FIELD]->(f:DatasetField)-[:TAGGED]->(t:Tag) | [f.name, t.name]],
    // readFacets: as in get.cypher.
    readFacets: [(d)-[:CURRENT_VERSION]->(:DatasetVersion)<-[rd:READ]-() WHERE rd.facetStamps IS NOT NULL
      AND any(k IN keys(rd) WHERE k STARTS WITH 'facet.' AND d[k] IS NULL)
      | {stamps: rd.facetStamps,
         facets: [k IN keys(rd) WHERE k STARTS WITH 'facet.' AND d[k] IS NULL | [k, rd[k]]]}]}) AS datasets
}
RETURN totalCount, datasets
