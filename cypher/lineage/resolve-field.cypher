// Resolves a dataset-field node id: the first candidate (namespace, dataset, field) split that names a
// column of a dataset that is not soft-deleted. A field named through a symlink alias resolves to the
// same-named field of the primary dataset.
// Params: $candidates: [{namespace, dataset, field}] (preference order, see src/domain/node-id.ts)
// Returns at most one row: {eid (elementId of the DatasetField), namespace, dataset, field}.
UNWIND range(0, size($candidates) - 1) AS i
WITH i, $candidates[i] AS c
MATCH (d:Dataset {namespace: c.namespace, name: c.dataset})
OPTIONAL MATCH (d)-[:ALIAS_OF]->(p:Dataset)
WITH i, c, coalesce(p, d) AS ds
WHERE NOT coalesce(ds.isDeleted, false)
MATCH (f:DatasetField {namespace: ds.namespace, dataset: ds.name, name: c.field})
RETURN elementId(f) AS eid, f.namespace AS namespace, f.dataset AS dataset, f.name AS field
ORDER BY i
LIMIT 1
