// Dates the symlink alias names a batch mentions (names resolved to their primary dataset before
// planning): an alias keeps createdAt/updatedAt = the earliest/latest mention of its name, as it
// would had it been mentioned before it became an alias (its namespace is dated by namespaces.cypher).
// An alias is locked by the read statement (datasets-state.cypher locks every name mentioned).
// Params: $names: [{namespace, name, firstSeen, lastSeen (ISO)}], sorted. The aliases exist (datasets-upsert).
// Returns nothing.
// Its plan starts from unique-key seeks, so statistics cannot improve it: keep the cached plan (cypher/README.md).
CYPHER replan=skip
UNWIND $names AS n
MATCH (a:Dataset {namespace: n.namespace, name: n.name})
WITH n, a, datetime(n.firstSeen) AS t, datetime(n.lastSeen) AS t1
FOREACH (_ IN CASE WHEN t < a.createdAt THEN [1] ELSE [] END | SET a.createdAt = t)
FOREACH (_ IN CASE WHEN t1 > a.updatedAt THEN [1] ELSE [] END | SET a.updatedAt = t1)
