// Root-cause hunting: jobs upstream of a dataset whose latest run failed (or was aborted).
// Params: $namespace, $name (the dataset)
// Returns: namespace, name (the job), runId, state, endedAt of its latest run, and hops (job hops
//   upstream: 1 = a direct producer), nearest and most recent first.
// Edges: those seen in the last 30 days or among their job's latest known I/O (the service's default
// view, docs/lineage.md "Time"); change P30D for another window, or drop the WHERE for all history.
MATCH (d:Dataset {namespace: $namespace, name: $name})
MATCH (d)(()<-[e:INPUT_TO|PRODUCES WHERE e.lastSeenAt >= datetime() - duration('P30D') OR e.current]-(x)
  WHERE NOT x:Deleted){1,40}(j)
WITH DISTINCT d, j
WHERE j:Job
MATCH (j)-[:LATEST_RUN]->(r:Run)
WHERE r.state IN ['FAILED', 'ABORTED']
MATCH p = SHORTEST 1 (j)(()-[e:INPUT_TO|PRODUCES WHERE e.lastSeenAt >= datetime() - duration('P30D')
  OR e.current]->()){1,40}(d)
RETURN j.namespace AS namespace, j.name AS name, r.id AS runId, r.state AS state, r.endedAt AS endedAt,
       (length(p) + 1) / 2 AS hops
ORDER BY hops, endedAt DESC
