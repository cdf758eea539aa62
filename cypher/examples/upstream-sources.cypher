// Provenance: the original sources of a dataset, i.e. the datasets upstream of it that no (live) job
// produces, with the job hops to reach them.
// Params: $namespace, $name (the dataset)
// Returns: namespace, name (a source dataset), hops, farthest first.
// Edges: those seen in the last 30 days or among their job's latest known I/O (the service's default
// view, docs/lineage.md "Time"); change P30D for another window, or drop the WHERE for all history.
MATCH (d:Dataset {namespace: $namespace, name: $name})
MATCH (d)(()<-[e:INPUT_TO|PRODUCES WHERE e.lastSeenAt >= datetime() - duration('P30D') OR e.current]-(x)
  WHERE NOT x:Deleted){1,40}(s)
WITH DISTINCT d, s
WHERE s:Dataset AND NOT EXISTS { (s)<-[e:PRODUCES WHERE e.lastSeenAt >= datetime() - duration('P30D')
  OR e.current]-(j:Job) WHERE NOT j:Deleted }
MATCH p = SHORTEST 1 (s)(()-[e:INPUT_TO|PRODUCES WHERE e.lastSeenAt >= datetime() - duration('P30D')
  OR e.current]->()){1,40}(d)
RETURN s.namespace AS namespace, s.name AS name, length(p) / 2 AS hops
ORDER BY hops DESC, namespace, name
