// Provenance: the original sources of a dataset, i.e. the datasets upstream of it that no (live) job
// produces, with the job hops to reach them.
// Params: $namespace, $name (the dataset; a symlink alias name stands for its primary dataset)
// Returns: namespace, name (a source dataset), hops (job hops on the shortest path), farthest first.
// Edges: those seen in the last 30 days or among their job's latest known I/O; nodes: not soft-deleted,
// every node of the path (the service's default view, docs/lineage.md "Time", as
// GET /api/v1/impact?direction=upstream walks). Change P30D for another window, or drop the edge
// WHEREs for all history.
MATCH (named:Dataset {namespace: $namespace, name: $name})
OPTIONAL MATCH (named)-[:ALIAS_OF]->(primary:Dataset)
WITH coalesce(primary, named) AS d
WHERE NOT d:Deleted
MATCH p = (d)(()<-[e:INPUT_TO|PRODUCES WHERE e.lastSeenAt >= datetime() - duration('P30D') OR e.current]-(x)
  WHERE NOT x:Deleted){1,40}(s)
WITH s, min(length(p)) AS distance
WHERE s:Dataset AND NOT EXISTS { (s)<-[e:PRODUCES WHERE e.lastSeenAt >= datetime() - duration('P30D')
  OR e.current]-(j:Job) WHERE NOT j:Deleted }
RETURN s.namespace AS namespace, s.name AS name, distance / 2 AS hops
ORDER BY hops DESC, namespace, name
