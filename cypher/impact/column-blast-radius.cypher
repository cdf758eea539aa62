// Column-level impact of one column, for GET /api/v1/impact with a datasetField: start node: the
// candidate columns reachable over FEEDS (input column -> output column, every mapping ever declared;
// the service keeps the edges the declarations in force list, as GET /api/v1/column-lineage does,
// and measures distances breadth-first over those). As written it walks downstream; the store swaps
// the relationship marked `/*downstream*/` for `<-[...]-` upstream.
// The walk returns DISTINCT end nodes, planned as VarLengthExpand(Pruning,BFS). The bound marked
// `/*maxRels*/` (20) is replaced by the store with the depth (FEEDS hops, at least 1).
//
// Params: $startId (elementId of the DatasetField), $maxNodes (integer: most candidates)
// Returns one row per column: eid, namespace, dataset, field, deleted (its dataset is soft-deleted),
//   tags ([name] of the column), owner (its dataset's `facet.ownership` JSON text),
//   inputs ([{namespace, dataset, field, jobNamespace, jobName, jobState (the job's latest run state),
//   transformations (JSON text)}]: every FEEDS edge into the column).
MATCH (s:DatasetField) WHERE elementId(s) = $startId
MATCH (s)(()-[:FEEDS]->/*downstream*/(x)){0, 20 /*maxRels*/}(n)
WITH DISTINCT n
LIMIT $maxNodes
OPTIONAL MATCH (d:Dataset {namespace: n.namespace, name: n.dataset})
RETURN elementId(n) AS eid, n.namespace AS namespace, n.dataset AS dataset, n.name AS field,
  coalesce(d.isDeleted, false) AS deleted,
  [(n)-[:TAGGED]->(t) | t.name] AS tags,
  d.`facet.ownership` AS owner,
  [(i:DatasetField)-[f:FEEDS]->(n) | {namespace: i.namespace, dataset: i.dataset, field: i.name,
     jobNamespace: f.jobNamespace, jobName: f.jobName, transformations: f.transformations,
     jobState: COLLECT { MATCH (j:Job {namespace: f.jobNamespace,
       name: f.jobName}) RETURN j.latestRunState }[0]}] AS inputs
