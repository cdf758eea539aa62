// Root cause (GET /api/v1/impact?direction=upstream&state=FAILED): the jobs upstream of a dataset whose
// latest run is in a state, nearest first, each with one shortest path from the dataset to it.
// Params: $namespace, $name (the dataset; a symlink alias name stands for its primary dataset, as in the
//   API), $state ('FAILED', 'ABORTED', 'RUNNING', ...)
// Returns: job (namespace:name), state, endedAt of its latest run, distance (relationships upstream),
//   path (names from the dataset up to the job).
// Edges: those seen in the last 30 days or among their job's latest known I/O; nodes: not soft-deleted
// (the service's default view, docs/lineage.md "Time"). Both walks apply the node rule to every node of
// the path, so neither the jobs found nor their distances and paths go through a deleted job or dataset.
// Change P30D for another window, or drop the edge WHEREs for all history.
MATCH (named:Dataset {namespace: $namespace, name: $name})
OPTIONAL MATCH (named)-[:ALIAS_OF]->(primary:Dataset)
WITH coalesce(primary, named) AS d
WHERE NOT d:Deleted
MATCH (d)(()<-[e:INPUT_TO|PRODUCES WHERE e.lastSeenAt >= datetime() - duration('P30D') OR e.current]-(x)
  WHERE NOT x:Deleted){1,42}(j:Job)
WITH DISTINCT d, j
MATCH (j)-[:LATEST_RUN]->(r:Run {state: $state})
MATCH p = SHORTEST 1 (d)(()<-[e:INPUT_TO|PRODUCES WHERE e.lastSeenAt >= datetime() - duration('P30D')
  OR e.current]-(x) WHERE NOT x:Deleted){1,42}(j)
RETURN j.namespace + ':' + j.name AS job, r.state AS state, r.endedAt AS endedAt, length(p) AS distance,
       [n IN nodes(p) | n.name] AS path
ORDER BY distance, job
