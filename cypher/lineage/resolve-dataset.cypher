// Resolves a dataset node id: the first candidate (namespace, name) split that names a dataset, in the
// given preference order; a symlink alias resolves to its primary dataset. Datasets soft-deleted by
// $asOf, or first seen after it, do not resolve.
// Params: $candidates: [{namespace, name}] (preference order, see src/domain/node-id.ts), $asOf (DateTime)
// Returns at most one row: {eid (elementId), namespace, name} of the (primary) dataset.
UNWIND range(0, size($candidates) - 1) AS i
WITH i, $candidates[i] AS c
MATCH (d:Dataset {namespace: c.namespace, name: c.name})
OPTIONAL MATCH (d)-[:ALIAS_OF]->(p:Dataset)
WITH i, coalesce(p, d) AS ds
WHERE ds.createdAt <= $asOf AND NOT (coalesce(ds.isDeleted, false) AND coalesce(ds.deletedAt, ds.createdAt) <= $asOf)
RETURN elementId(ds) AS eid, ds.namespace AS namespace, ds.name AS name
ORDER BY i
LIMIT 1
