// DatasetEvents declare a dataset state without a run: each gets its own version (keyed by the
// event's content), committed at the event's time (versions-commit.cypher moves the pointers).
// Params: $datasets: [{namespace, name, versionId, at (ISO), facetProps (map), derived (map: fields, lifecycleState)}]
// Returns nothing.
// Its plan starts from unique-key seeks, so statistics cannot improve it: keep the cached plan (cypher/README.md).
CYPHER replan=skip
UNWIND $datasets AS ds
MATCH (d:Dataset {namespace: ds.namespace, name: ds.name})
WITH ds, d, datetime(ds.at) AS t
MERGE (v:DatasetVersion {id: ds.versionId})
  ON CREATE SET v.namespace = d.namespace, v.name = d.name, v.createdAt = t
WITH ds, d, v, v.`facet.columnLineage` IS NOT NULL AS declaredBefore
SET v += ds.facetProps, v += ds.derived
MERGE (v)-[:VERSION_OF]->(d)
// The dataset's count of versions with a columnLineage facet (see run-outputs.cypher).
WITH d, CASE WHEN v.`facet.columnLineage` IS NOT NULL THEN 1 ELSE 0 END - CASE WHEN declaredBefore THEN 1 ELSE 0 END
  AS gained
FOREACH (_ IN CASE WHEN gained <> 0 THEN [1] ELSE [] END |
  SET d.columnLineageVersions = coalesce(d.columnLineageVersions, 0) + gained)
