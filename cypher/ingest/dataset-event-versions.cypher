// DatasetEvents declare a dataset state without a run: each gets its own version (keyed by the
// event's content), current when it is the newest by eventTime.
// Params: $datasets: [{namespace, name, eventTime (ISO), versionId, versionFacetProps, fields (JSON or null), lifecycleState}]
// Returns nothing.
// Its plan starts from unique-key seeks, so statistics cannot improve it: keep the cached plan (cypher/README.md).
CYPHER replan=skip
UNWIND $datasets AS ds
MATCH (d:Dataset {namespace: ds.namespace, name: ds.name})
WITH ds, d, datetime(ds.eventTime) AS t
MERGE (v:DatasetVersion {id: ds.versionId})
  ON CREATE SET v.namespace = d.namespace, v.name = d.name, v.createdAt = t, v.committedAt = t
SET v += ds.versionFacetProps,
    v.fields = coalesce(ds.fields, d.fields),
    v.lifecycleState = ds.lifecycleState
MERGE (v)-[:VERSION_OF]->(d)
WITH d, v
CALL (d, v) {
  OPTIONAL MATCH (d)-[c:CURRENT_VERSION]->(cur:DatasetVersion)
  WITH d, v, c, cur
  WHERE cur IS NULL OR (cur <> v AND coalesce(cur.committedAt, cur.createdAt) <= v.committedAt)
  DELETE c
  // d is locked and has no CURRENT_VERSION left (see run-complete).
  CREATE (d)-[:CURRENT_VERSION]->(v)
  SET d.currentVersion = v.id, d.lastModifiedAt = v.committedAt
}
