// Resolves a dataset node id: the first candidate (namespace, name) split that names a dataset, in the
// given preference order; a symlink alias resolves to its primary dataset. Soft-deleted datasets do
// not resolve.
// Params: $candidates: [{namespace, name}] (preference order, see src/domain/node-id.ts)
// Returns at most one row: {eid (elementId), namespace, name} of the (primary) dataset.
UNWIND range(0, size($candidates) - 1) AS i
WITH i, $candidates[i] AS c
MATCH (d:Dataset {namespace: c.namespace, name: c.name})
OPTIONAL MATCH (d)-[:ALIAS_OF]->(p:Dataset)
WITH i, coalesce(p, d) AS ds
WHERE NOT coalesce(ds.isDeleted, false)
RETURN elementId(ds) AS eid, ds.namespace AS namespace, ds.name AS name
ORDER BY i
LIMIT 1
