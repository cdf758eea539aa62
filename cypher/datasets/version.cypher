// One version of one dataset (a symlink alias name finds its primary's versions).
// Params: $namespace, $name, $version. Returns {dataset: dataset projection, version: v {.*, readFacets: [[stamp,
// JSON]: per facet its readers reported on their READs (their input facets too), the latest report]}, run: run
// projection or null}
// or no row when the dataset or the version (of that dataset) does not exist.
MATCH (x:Dataset {namespace: $namespace, name: $name})
OPTIONAL MATCH (x)-[:ALIAS_OF]->(p:Dataset)
WITH coalesce(p, x) AS d
MATCH (v:DatasetVersion {id: $version})-[:VERSION_OF]->(d)
// Readers' facets in a WITH of their own: inside the projection Neo4j reads the COLLECT subquery as an
// aggregation.
WITH d, v, COLLECT {
  // Per facet name, the latest report among its readers (by event time, then digest, as
  // src/domain/facet-stamps.ts decides): one entry per facet, not one per READ, so a version read
  // by thousands of runs does not send each of their facets (test/http/read/dataset-input-facets.test.ts).
  MATCH (v)<-[rd:READ]-() WHERE rd.facetStamps IS NOT NULL
  UNWIND rd.facetStamps AS stamp
  WITH rd, stamp, split(stamp, ' ') AS part
  WHERE rd[part[0]] IS NOT NULL
  WITH part[0] AS key, stamp, toInteger(part[1]) AS at, part[2] AS digest, rd[part[0]] AS json
  ORDER BY key, at DESC, digest DESC
  WITH key, collect([stamp, json])[0] AS latest
  RETURN latest} AS readFacets
RETURN d {.*, tags: [(d)-[:TAGGED]->(t:Tag) | t.name], fieldTags: [(d)-[:HAS_FIELD]->(f:DatasetField)-[:TAGGED]->(t:Tag)
  | [f.name, t.name]]} AS dataset,
  v {.*, readFacets: readFacets} AS version,
  [(r:Run)-[:WROTE]->(v) | r {.*, reads: [(r)-[rd:READ]->(rv) | rv {.id, .namespace, .name, facets: [k IN keys(rd)
    WHERE k STARTS WITH 'facet.' | [k, rd[k]]]}], wrote: [(r)-[:WROTE]->(wv) | wv {.id, .namespace, .name,
    facets: [k IN keys(wv) WHERE k STARTS WITH 'facet.' | [k, wv[k]]]}]}][0] AS run
