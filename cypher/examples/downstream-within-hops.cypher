// Impact analysis: everything downstream of a dataset within N job hops, with the hop count.
// A job is 1 hop away when it reads the dataset; its outputs are at the same hop.
// Params: $namespace, $name (the dataset), $maxHops (integer, at most 20 with the bound below)
// Returns: kind ('Job'|'Dataset'), namespace, name, hops (job hops on the shortest path), ordered by hops.
// How: the first MATCH collects the distinct reachable nodes with the pruning BFS (no path
// enumeration); SHORTEST 1 then measures each one. Raise {1,40} for deeper graphs (2 per job hop).
// Edges: those seen in the last 30 days or among their job's latest known I/O (the service's default
// view, docs/lineage.md "Time"); change P30D for another window, or drop the WHERE for all history.
MATCH (d:Dataset {namespace: $namespace, name: $name})
MATCH (d)(()-[e:INPUT_TO|PRODUCES WHERE e.lastSeenAt >= datetime() - duration('P30D') OR e.current]->(x)
  WHERE NOT x:Deleted){1,40}(n)
WITH DISTINCT d, n
MATCH p = SHORTEST 1 (d)(()-[e:INPUT_TO|PRODUCES WHERE e.lastSeenAt >= datetime() - duration('P30D')
  OR e.current]->()){1,40}(n)
WITH n, (length(p) + 1) / 2 AS hops
WHERE hops <= $maxHops
RETURN CASE WHEN n:Job THEN 'Job' ELSE 'Dataset' END AS kind, n.namespace AS namespace, n.name AS name, hops
ORDER BY hops, kind DESC, namespace, name
