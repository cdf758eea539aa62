// Creates or updates the jobs of a batch's RunEvents and JobEvents (and their namespaces and
// parent jobs). Takes each job's write lock for the rest of the transaction (LATEST_RUN and
// CURRENT_VERSION moves read the job's pointers after this).
// Params: $jobs: [{namespace, name, firstSeen, lastSeen (ISO), simpleName, facetProps (map 'facet.<name>' → JSON or null),
//   description, type, integration, jobKind, parent ({namespace, name} or null)}], sorted by (namespace, name)
// Returns nothing.
// Its plan starts from unique-key seeks, so statistics cannot improve it: keep the cached plan (cypher/README.md).
CYPHER replan=skip
UNWIND $jobs AS job
WITH job, datetime(job.firstSeen) AS t, datetime(job.lastSeen) AS t1
// A job that exists already has its namespace link (see datasets-upsert). jobs-state.cypher created
// a bare node (no createdAt) for a new job, to lock it in the read statement: that one is new.
OPTIONAL MATCH (known:Job {namespace: job.namespace, name: job.name})
WITH job, t, t1, known.createdAt IS NOT NULL AS existed
MERGE (ns:Namespace {name: job.namespace})
  ON CREATE SET ns.createdAt = t, ns.updatedAt = t, ns.ownerName = 'anonymous', ns.description = null, ns.isHidden = false
FOREACH (_ IN CASE WHEN ns.isHidden THEN [1] ELSE [] END | SET ns.isHidden = false, ns.updatedAt = t1)
MERGE (j:Job {namespace: job.namespace, name: job.name})
FOREACH (_ IN CASE WHEN existed THEN [] ELSE [1] END |
  SET j.createdAt = t, j.updatedAt = t1, j.simpleName = job.simpleName, j.type = 'BATCH',
      j.searchName = toLower(job.name), j.isDeleted = false, j.context = '{}')
SET j += job.facetProps,
    j.isDeleted = false,
    j.createdAt = CASE WHEN t < j.createdAt THEN t ELSE j.createdAt END,
    j.updatedAt = CASE WHEN t1 > j.updatedAt THEN t1 ELSE j.updatedAt END,
    j.description = coalesce(job.description, j.description),
    j.type = coalesce(job.type, j.type),
    j.integration = coalesce(job.integration, j.integration),
    j.jobKind = coalesce(job.jobKind, j.jobKind)
FOREACH (_ IN CASE WHEN existed THEN [] ELSE [1] END | MERGE (ns)-[:HAS_JOB]->(j))
WITH t, job, j
CALL (t, job, j) {
  // parentJobNamespace and parentJobName mirror CHILD_OF: a job already linked to this parent is done.
  WITH t, job, j WHERE job.parent IS NOT NULL
    AND (j.parentJobName IS NULL OR j.parentJobName <> job.parent.name OR j.parentJobNamespace <> job.parent.namespace)
  MERGE (pns:Namespace {name: job.parent.namespace})
    ON CREATE SET pns.createdAt = t, pns.updatedAt = t, pns.ownerName = 'anonymous', pns.description = null, pns.isHidden = false
  MERGE (p:Job {namespace: job.parent.namespace, name: job.parent.name})
    ON CREATE SET p.createdAt = t, p.updatedAt = t, p.simpleName = job.parent.name, p.type = 'BATCH',
                  p.searchName = toLower(job.parent.name), p.isDeleted = false, p.context = '{}'
  MERGE (pns)-[:HAS_JOB]->(p)
  MERGE (j)-[:CHILD_OF]->(p)
  SET j.parentJobName = p.name, j.parentJobNamespace = p.namespace
}
