// Blast radius (GET /api/v1/impact): everything downstream of a dataset, how far, and reached from where.
// Params: $namespace, $name (the dataset; a symlink alias name stands for its primary dataset, as in the API)
// Returns: kind ('Job'|'Dataset'), namespace, name, distance (relationships on a shortest path: the
//   readers of the dataset are at 1, what they write at 2, ...), via (name of a node one step nearer
//   that leads to it), nearest first.
// How: min(length(p)) per end node is planned as a pruning breadth-first expand (each node once, no path
// enumeration); {1,42} is 20 job hops. Turn the arrows (<-[...]-) for upstream.
// Edges: those seen in the last 30 days or among their job's latest known I/O; nodes: not soft-deleted,
// every node of the path (the service's default view, docs/lineage.md "Time"). Change P30D for another
// window, or drop the edge WHEREs for all history.
MATCH (named:Dataset {namespace: $namespace, name: $name})
OPTIONAL MATCH (named)-[:ALIAS_OF]->(primary:Dataset)
WITH coalesce(primary, named) AS d
WHERE NOT d:Deleted
MATCH p = (d)(()-[e:INPUT_TO|PRODUCES WHERE e.lastSeenAt >= datetime() - duration('P30D') OR e.current]->(x)
  WHERE NOT x:Deleted){1,42}(n)
WITH d, n, min(length(p)) AS distance
WITH d, collect({n: n, distance: distance}) AS reached
UNWIND reached AS r
WITH r.n AS n, r.distance AS distance,
     CASE WHEN r.distance = 1 THEN [d] ELSE [x IN reached WHERE x.distance = r.distance - 1 | x.n] END AS nearer
RETURN CASE WHEN n:Job THEN 'Job' ELSE 'Dataset' END AS kind, n.namespace AS namespace, n.name AS name, distance,
       [(m)-[e:INPUT_TO|PRODUCES WHERE e.lastSeenAt >= datetime() - duration('P30D') OR e.current]->(n)
         WHERE m IN nearer | m.name][0] AS via
ORDER BY distance, namespace, name
