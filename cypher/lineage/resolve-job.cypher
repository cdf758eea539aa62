// Resolves a job node id: the first candidate (namespace, name) split that names a job that existed
// at $asOf and was not soft-deleted by then, in the given preference order.
// Params: $candidates: [{namespace, name}] (preference order, see src/domain/node-id.ts), $asOf (DateTime)
// Returns at most one row: {eid (elementId), namespace, name}.
UNWIND range(0, size($candidates) - 1) AS i
WITH i, $candidates[i] AS c
MATCH (j:Job {namespace: c.namespace, name: c.name})
WHERE j.createdAt <= $asOf AND NOT (coalesce(j.isDeleted, false) AND coalesce(j.deletedAt, j.createdAt) <= $asOf)
RETURN elementId(j) AS eid, j.namespace AS namespace, j.name AS name
ORDER BY i
LIMIT 1
