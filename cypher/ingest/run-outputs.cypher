// Records the dataset versions runs write: one version per (dataset, run), created on first sight
// and enriched by later events of the same run (facets latest by event time, from the planner). It
// is committed, and may become the dataset's current version, only when the run completes
// (versions-commit.cypher).
// Params: $outputs: [{runId, namespace, name, versionId, createdAt (ISO: the run's earliest event naming it),
//   facetProps (map, facets whose content changed), sameAsDataset ([string]: facets whose content is the
//   dataset's, copied from it rather than sent; with `facet.schema`, `fields` too), derived (map: fields
//   (JSON), lifecycleState that changed), facetStamps ([string] or null)}], one row per (runId, dataset)
// Returns nothing.
// Its plan starts from unique-key seeks, so statistics cannot improve it: keep the cached plan (cypher/README.md).
CYPHER replan=skip
UNWIND $outputs AS out
MATCH (r:Run {id: out.runId})
MATCH (d:Dataset {namespace: out.namespace, name: out.name})
WITH r, d, out, datetime(out.createdAt) AS t
// A version that exists already has its dataset and run links (its id derives from them, and they
// are made with it). One that does not is created by this row: the batch has one row per (run,
// dataset), and other transactions wait for the run's lock (runs-prepare). So its links are
// created, not merged: MERGE would check them against a dense dataset's relationships.
OPTIONAL MATCH (known:DatasetVersion {id: out.versionId})
WITH r, d, out, t, known IS NOT NULL AS existed
MERGE (v:DatasetVersion {id: out.versionId})
  ON CREATE SET v.namespace = d.namespace, v.name = d.name, v.createdAt = t, v.runId = r.id
WITH r, d, out, t, existed, v, v.`facet.columnLineage` IS NOT NULL AS declaredBefore
SET v += out.facetProps,
    v += out.derived,
    v.createdAt = CASE WHEN t < v.createdAt THEN t ELSE v.createdAt END,
    v.facetStamps = coalesce(out.facetStamps, v.facetStamps)
FOREACH (k IN out.sameAsDataset | SET v[k] = d[k])
FOREACH (_ IN CASE WHEN 'facet.schema' IN out.sameAsDataset THEN [1] ELSE [] END | SET v.fields = d.fields)
FOREACH (_ IN CASE WHEN existed THEN [] ELSE [1] END |
  CREATE (v)-[:VERSION_OF]->(d)
  CREATE (r)-[:WROTE]->(v))
// How many of the dataset's versions carry a columnLineage facet (cypher/README.md): column lineage
// reads it instead of visiting every version. Counted by the change this row made, so it is the same
// whatever the order of delivery (d is locked by datasets-upsert).
WITH d, CASE WHEN v.`facet.columnLineage` IS NOT NULL THEN 1 ELSE 0 END - CASE WHEN declaredBefore THEN 1 ELSE 0 END
  AS gained
FOREACH (_ IN CASE WHEN gained <> 0 THEN [1] ELSE [] END |
  SET d.columnLineageVersions = coalesce(d.columnLineageVersions, 0) + gained)
