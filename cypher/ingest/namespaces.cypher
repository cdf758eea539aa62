// Creates the namespaces a batch names (of its datasets, symlink aliases, jobs and parent jobs) and
// dates each by the earliest event naming it; runs first, so later stages find them. Namespaces are
// shared by many writers: one is written only when an event earlier than its createdAt arrives, and
// then under its lock with its createdAt read again (two writers lowering it at once would otherwise
// each write what they read before the other committed). updatedAt follows createdAt until the
// namespace is edited (PUT).
// Params: $namespaces: [{name, at (ISO: the batch's earliest event naming it)}], sorted by name.
// Returns nothing.
// Its plan starts from unique-key seeks, so statistics cannot improve it: keep the cached plan (cypher/README.md).
CYPHER replan=skip
UNWIND $namespaces AS row
WITH row, datetime(row.at) AS t
MERGE (ns:Namespace {name: row.name})
  ON CREATE SET ns.createdAt = t, ns.updatedAt = t, ns.ownerName = 'anonymous', ns.description = null,
    ns.isHidden = false
WITH row, t, ns WHERE t < ns.createdAt
SET ns.name = ns.name
WITH row, t
MATCH (locked:Namespace {name: row.name}) WHERE t < locked.createdAt
SET locked.updatedAt = CASE WHEN locked.updatedAt = locked.createdAt THEN t ELSE locked.updatedAt END,
  locked.createdAt = t
