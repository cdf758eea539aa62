// Creates the jobs a batch names as parents of its runs (the `parent` run facet) and dates each by
// its earliest mention: a job known only as a parent has createdAt = updatedAt = that time; one with
// events of its own gets its times from them (jobs-upsert). Runs before jobs-upsert, which links
// children to these parents. A parent may be a job of another writer's batch, not locked here: an
// earlier mention locks it and reads it again before writing (see namespaces.cypher).
// Params: $parents: [{namespace, name, at (ISO: the earliest event naming it as a parent)}], sorted by (namespace,
// name).
//   Their namespaces exist (namespaces.cypher).
// Returns nothing.
// Its plan starts from unique-key seeks, so statistics cannot improve it: keep the cached plan (cypher/README.md).
CYPHER replan=skip
UNWIND $parents AS parent
WITH parent, datetime(parent.at) AS t
MATCH (ns:Namespace {name: parent.namespace})
// jobs-state.cypher leaves a bare node (no createdAt) for a job of the batch: it is new here too.
MERGE (p:Job {namespace: parent.namespace, name: parent.name})
WITH ns, p, parent, t, p.createdAt IS NULL AS fresh
FOREACH (_ IN CASE WHEN fresh THEN [1] ELSE [] END |
  SET p.createdAt = t, p.updatedAt = t, p.simpleName = p.name, p.type = 'BATCH',
      p.searchName = toLower(p.name), p.isDeleted = false, p.context = '{}'
  MERGE (ns)-[:HAS_JOB]->(p))
WITH parent, t, p WHERE t < p.createdAt
SET p.name = p.name
WITH parent, t
MATCH (locked:Job {namespace: parent.namespace, name: parent.name}) WHERE t < locked.createdAt
SET locked.createdAt = t, locked.updatedAt = coalesce(locked.lastEventAt, t)
