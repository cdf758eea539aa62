// One version of one dataset (a symlink alias name finds its primary's versions).
// Params: $namespace, $name, $version. Returns {dataset: dataset projection, version: v {.*, readFacets: [the facet
// properties and facetStamps of each READ of it that carries facets: readers' input facets]}, run: run projection or
// null}
// or no row when the dataset or the version (of that dataset) does not exist.
MATCH (x:Dataset {namespace: $namespace, name: $name})
OPTIONAL MATCH (x)-[:ALIAS_OF]->(p:Dataset)
WITH coalesce(p, x) AS d
MATCH (v:DatasetVersion {id: $version})-[:VERSION_OF]->(d)
RETURN d {.*, tags: [(d)-[:TAGGED]->(t:Tag) | t.name], fieldTags: [(d)-[:HAS_FIELD]->(f:DatasetField)-[:TAGGED]->(t:Tag)
  | [f.name, t.name]]} AS dataset,
  v {.*, readFacets: [(v)<-[rd:READ]-() WHERE rd.facetStamps IS NOT NULL | rd {.*}]} AS version,
  [(r:Run)-[:WROTE]->(v) | r {.*, reads: [(r)-[rd:READ]->(rv) | rv {.id, .namespace, .name, facets: [k IN keys(rd)
    WHERE k STARTS WITH 'facet.' | [k, rd[k]]]}], wrote: [(r)-[:WROTE]->(wv) | wv {.id, .namespace, .name,
    facets: [k IN keys(wv) WHERE k STARTS WITH 'facet.' | [k, wv[k]]]}]}][0] AS run
