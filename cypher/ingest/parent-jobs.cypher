// Creates the jobs a batch names as parents of its runs (the `parent` run facet) and dates each by
// its earliest mention: a job known only as a parent has createdAt = updatedAt = that time; one with
// events of its own gets its times from them (jobs-upsert). Runs before jobs-upsert, which links
// children to these parents.
// Params: $parents: [{namespace, name, at (ISO: the earliest event naming it as a parent)}], sorted by (namespace, name)
// Returns nothing.
// Its plan starts from unique-key seeks, so statistics cannot improve it: keep the cached plan (cypher/README.md).
CYPHER replan=skip
UNWIND $parents AS parent
WITH parent, datetime(parent.at) AS t
MERGE (ns:Namespace {name: parent.namespace})
  ON CREATE SET ns.createdAt = t, ns.updatedAt = t, ns.ownerName = 'anonymous', ns.description = null, ns.isHidden = false
FOREACH (_ IN CASE WHEN t < ns.createdAt THEN [1] ELSE [] END |
  SET ns.updatedAt = CASE WHEN ns.updatedAt = ns.createdAt THEN t ELSE ns.updatedAt END, ns.createdAt = t)
// jobs-state.cypher leaves a bare node (no createdAt) for a job of the batch: it is new here too.
MERGE (p:Job {namespace: parent.namespace, name: parent.name})
WITH ns, p, t, p.createdAt IS NULL AS fresh
FOREACH (_ IN CASE WHEN fresh THEN [1] ELSE [] END |
  SET p.createdAt = t, p.updatedAt = t, p.simpleName = p.name, p.type = 'BATCH',
      p.searchName = toLower(p.name), p.isDeleted = false, p.context = '{}'
  MERGE (ns)-[:HAS_JOB]->(p))
FOREACH (_ IN CASE WHEN NOT fresh AND t < p.createdAt THEN [1] ELSE [] END |
  SET p.createdAt = t, p.updatedAt = coalesce(p.lastEventAt, t))
