// A DatasetEvent declares a dataset state without a run: it gets its own version (keyed by the
// event's content), current when it is the newest by eventTime.
// Params: $eventTime (ISO), $dataset: {namespace, name, versionId, versionFacetProps, fields (JSON or null), lifecycleState}
// Returns nothing.
WITH datetime($eventTime) AS t
MATCH (d:Dataset {namespace: $dataset.namespace, name: $dataset.name})
MERGE (v:DatasetVersion {id: $dataset.versionId})
  ON CREATE SET v.namespace = d.namespace, v.name = d.name, v.createdAt = t, v.committedAt = t
SET v += $dataset.versionFacetProps,
    v.fields = coalesce($dataset.fields, d.fields),
    v.lifecycleState = $dataset.lifecycleState
MERGE (v)-[:VERSION_OF]->(d)
WITH d, v
OPTIONAL MATCH (d)-[c:CURRENT_VERSION]->(cur:DatasetVersion)
WITH d, v, c, cur
WHERE cur IS NULL OR (cur <> v AND coalesce(cur.committedAt, cur.createdAt) <= v.committedAt)
DELETE c
MERGE (d)-[:CURRENT_VERSION]->(v)
SET d.currentVersion = v.id, d.lastModifiedAt = v.committedAt
