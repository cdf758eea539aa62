// Root cause (GET /api/v1/impact?direction=upstream&state=FAILED): the jobs upstream of a dataset whose
// latest run is in a state, nearest first, each with one shortest path from the dataset to it.
// Params: $namespace, $name (the dataset), $state ('FAILED', 'ABORTED', 'RUNNING', ...)
// Returns: job (namespace:name), state, endedAt of its latest run, distance (relationships upstream),
//   path (names from the dataset up to the job).
// Edges: those seen in the last 30 days or among their job's latest known I/O (the service's default
// view, docs/lineage.md "Time"); change P30D for another window, or drop the WHERE for all history.
MATCH (d:Dataset {namespace: $namespace, name: $name})
MATCH (d)(()<-[e:INPUT_TO|PRODUCES WHERE e.lastSeenAt >= datetime() - duration('P30D') OR e.current]-(x)
  WHERE NOT x:Deleted){1,42}(j:Job)
WITH DISTINCT d, j
MATCH (j)-[:LATEST_RUN]->(r:Run {state: $state})
MATCH p = SHORTEST 1 (d)(()<-[e:INPUT_TO|PRODUCES WHERE e.lastSeenAt >= datetime() - duration('P30D')
  OR e.current]-()){1,42}(j)
RETURN j.namespace + ':' + j.name AS job, r.state AS state, r.endedAt AS endedAt, length(p) AS distance,
       [n IN nodes(p) | n.name] AS path
ORDER BY distance, job
