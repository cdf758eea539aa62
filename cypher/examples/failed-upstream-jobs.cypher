// Root-cause hunting: jobs upstream of a dataset whose latest run failed (or was aborted).
// Params: $namespace, $name (the dataset; a symlink alias name stands for its primary dataset)
// Returns: namespace, name (the job), runId, state, endedAt of its latest run, and hops (job hops
//   upstream: 1 = a direct producer, where the API's depth counts it as 0), nearest and most recent first.
// Edges: those seen in the last 30 days or among their job's latest known I/O; nodes: not soft-deleted,
// every node of the path (the service's default view, docs/lineage.md "Time"), so the walk stops at a
// deleted job or dataset as GET /api/v1/impact?direction=upstream does. Change P30D for another window,
// or drop the edge WHERE for all history.
MATCH (named:Dataset {namespace: $namespace, name: $name})
OPTIONAL MATCH (named)-[:ALIAS_OF]->(primary:Dataset)
WITH coalesce(primary, named) AS d
WHERE NOT d:Deleted
MATCH p = (d)(()<-[e:INPUT_TO|PRODUCES WHERE e.lastSeenAt >= datetime() - duration('P30D') OR e.current]-(x)
  WHERE NOT x:Deleted){1,40}(j)
WITH j, min(length(p)) AS distance
WHERE j:Job
MATCH (j)-[:LATEST_RUN]->(r:Run)
WHERE r.state IN ['FAILED', 'ABORTED']
RETURN j.namespace AS namespace, j.name AS name, r.id AS runId, r.state AS state, r.endedAt AS endedAt,
       (distance + 1) / 2 AS hops
ORDER BY hops, endedAt DESC
