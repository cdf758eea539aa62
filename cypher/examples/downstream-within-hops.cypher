// Impact analysis: everything downstream of a dataset within N job hops, with the hop count.
// A job is 1 hop away when it reads the dataset; its outputs are at the same hop. The API's `depth`
// (GET /api/v1/impact, /api/v1/lineage) counts those first jobs as hop 0, so $maxHops N here answers
// what depth N - 1 answers there.
// Params: $namespace, $name (the dataset; a symlink alias name stands for its primary dataset, as in the
//   API), $maxHops (integer, at most 20 with the bound below)
// Returns: kind ('Job'|'Dataset'), namespace, name, hops (job hops on the shortest path), ordered by hops.
// How: min(length(p)) per end node is planned as a pruning breadth-first expand (each node once, at its
// shortest distance, no path enumeration). Raise {1,40} for deeper graphs (2 per job hop).
// Edges: those seen in the last 30 days or among their job's latest known I/O; nodes: not soft-deleted
// (the service's default view, docs/lineage.md "Time"). The node rule holds for every node of the path,
// so a deleted job on a shortcut does not make what lies behind it nearer. Change P30D for another
// window, or drop the edge WHERE for all history.
MATCH (named:Dataset {namespace: $namespace, name: $name})
OPTIONAL MATCH (named)-[:ALIAS_OF]->(primary:Dataset)
WITH coalesce(primary, named) AS d
WHERE NOT d:Deleted
MATCH p = (d)(()-[e:INPUT_TO|PRODUCES WHERE e.lastSeenAt >= datetime() - duration('P30D') OR e.current]->(x)
  WHERE NOT x:Deleted){1,40}(n)
WITH n, (min(length(p)) + 1) / 2 AS hops
WHERE hops <= $maxHops
RETURN CASE WHEN n:Job THEN 'Job' ELSE 'Dataset' END AS kind, n.namespace AS namespace, n.name AS name, hops
ORDER BY hops, kind DESC, namespace, name
