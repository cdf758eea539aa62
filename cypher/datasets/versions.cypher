// Versions of one live dataset, newest first, one page, with the total.
// Params: $namespace, $name, $offset, $limit. A symlink alias name lists its primary's versions.
// Returns no row when the dataset does not exist, else one row {totalCount, dataset: dataset projection,
// versions: [{version: v {.*, readFacets: [[stamp, JSON]: per facet its readers reported on their READs, the latest
// report]}, run:
// run projection of the run that wrote it, or null}]}
// (run projection: r {.*, reads: [version ref], wrote: [version ref]}).
MATCH (x:Dataset {namespace: $namespace, name: $name})
OPTIONAL MATCH (x)-[:ALIAS_OF]->(p:Dataset)
WITH coalesce(p, x) AS d
WHERE NOT d.isDeleted
// The count is the relationship's degree and the page reads the index dataset_version_create_order in
// its order (a version's namespace and name are its dataset's, set when it is created): neither visits
// every version of a dataset with a long history (test/store/history-cost.test.ts). Versions created at
// the same instant come by id, descending.
WITH d, COUNT { (d)<-[:VERSION_OF]-() } AS totalCount
CALL (d) {
  MATCH (v:DatasetVersion) USING INDEX SEEK v:DatasetVersion(namespace, name, createdAt, id)
    WHERE v.namespace = d.namespace AND v.name = d.name AND v.createdAt IS NOT NULL AND v.id IS NOT NULL
  WITH v ORDER BY v.namespace DESC, v.name DESC, v.createdAt DESC, v.id DESC SKIP $offset LIMIT $limit
  // Readers' facets before the page is collected (a COLLECT subquery may not sit inside collect()), in
  // the page's order again.
  WITH v, COLLECT {
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
  ORDER BY v.createdAt DESC, v.id DESC
  RETURN collect({
    version: v {.*, readFacets: readFacets},
    run: [(r:Run)-[:WROTE]->(v) | r {.*, reads: [(r)-[rd:READ]->(rv) | rv {.id, .namespace, .name,
      facets: [k IN keys(rd) WHERE k STARTS WITH 'facet.' | [k, rd[k]]]}], wrote: [(r)-[:WROTE]->(wv) | wv {.id,
      .namespace, .name, facets: [k IN keys(wv) WHERE k STARTS WITH 'facet.' | [k, wv[k]]]}]}][0]
  }) AS versions
}
RETURN totalCount,
  d {.*, tags: [(d)-[:TAGGED]->(t:Tag) | t.name], fieldTags: [(d)-[:HAS_FIELD]->(f:DatasetField)-[:TAGGED]->(t:Tag) |
    [f.name, t.name]]} AS dataset,
  versions
