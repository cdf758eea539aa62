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
SET v += ds.facetProps, v += ds.derived
MERGE (v)-[:VERSION_OF]->(d)
