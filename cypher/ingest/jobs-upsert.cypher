// Creates or updates the jobs of a batch's RunEvents and JobEvents (and their namespaces), and links
// each to its parent job. Takes each job's write lock for the rest of the transaction (LATEST_RUN and
// CURRENT_VERSION moves read the job's pointers after this). Every value is a fold over the events
// (docs/ingest.md): createdAt the earliest mention, lastEventAt (= updatedAt) the latest event of its
// own, facets and promoted values as the planner kept them (src/domain/facet-stamps.ts), the parent
// from the latest event naming one.
// Params: $jobs: [{namespace, name, firstSeen, lastSeen (ISO: its own events), facetProps (map 'facet.<name>' → JSON
//   or null: facets whose content changed), derived (map: description, type, integration, jobKind that changed),
//   parent ({namespace, name} or null), parentChanged (boolean), simpleName, facetStamps ([string] or null)}],
//   sorted by (namespace, name). A parent exists already (parent-jobs.cypher).
// Returns nothing.
// Its plan starts from unique-key seeks, so statistics cannot improve it: keep the cached plan (cypher/README.md).
CYPHER replan=skip
UNWIND $jobs AS job
WITH job, datetime(job.firstSeen) AS t, datetime(job.lastSeen) AS t1
// A job that exists already has its namespace link (see datasets-upsert). jobs-state.cypher created
// a bare node (no createdAt) for a new job, to lock it in the read statement: that one is new.
OPTIONAL MATCH (known:Job {namespace: job.namespace, name: job.name})
WITH job, t, t1, known.createdAt IS NOT NULL AS existed
// The namespace exists and is dated (namespaces.cypher); it is written only to un-hide it.
MATCH (ns:Namespace {name: job.namespace})
FOREACH (_ IN CASE WHEN ns.isHidden THEN [1] ELSE [] END | SET ns.isHidden = false)
MERGE (j:Job {namespace: job.namespace, name: job.name})
FOREACH (_ IN CASE WHEN existed THEN [] ELSE [1] END |
  SET j.createdAt = t, j.type = 'BATCH', j.searchName = toLower(job.name), j.isDeleted = false, j.context = '{}'
  MERGE (ns)-[:HAS_JOB]->(j))
SET j += job.facetProps,
    j += job.derived,
    j.isDeleted = false,
    j.createdAt = CASE WHEN t < j.createdAt THEN t ELSE j.createdAt END,
    j.lastEventAt = CASE WHEN j.lastEventAt IS NULL OR t1 > j.lastEventAt THEN t1 ELSE j.lastEventAt END,
    j.simpleName = CASE WHEN job.parentChanged OR j.simpleName IS NULL THEN job.simpleName ELSE j.simpleName END,
    j.facetStamps = coalesce(job.facetStamps, j.facetStamps)
SET j.updatedAt = j.lastEventAt
// The label mirrors isDeleted (cypher/README.md): the lineage walks test it without reading a property.
REMOVE j:Deleted
WITH job, j
CALL (job, j) {
  // parentJobNamespace and parentJobName mirror CHILD_OF: the link changes with the parent.
  WITH job, j WHERE job.parentChanged
  OPTIONAL MATCH (j)-[old:CHILD_OF]->(:Job)
  DELETE old
  WITH DISTINCT job, j
  SET j.parentJobName = job.parent.name, j.parentJobNamespace = job.parent.namespace
  WITH job, j WHERE job.parent IS NOT NULL
  MATCH (p:Job {namespace: job.parent.namespace, name: job.parent.name})
  CREATE (j)-[:CHILD_OF]->(p)
}
