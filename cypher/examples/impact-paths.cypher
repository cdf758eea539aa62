// Paths (GET /api/v1/impact/paths): how does one dataset reach another? Up to 5 shortest directed paths,
// with when each edge was last seen and by which run's state.
// Params: $fromNamespace, $fromName, $toNamespace, $toName (two datasets; a symlink alias name stands for its
//   primary dataset, as in the API)
// Returns one row per path, shortest first: hops (relationships), path (["dataset:<ns>:<name>",
//   "job:<ns>:<name>", ...]), lastSeen (each edge's lastSeenAt), lastRunStates (each edge's last run state).
// Change 5 for more paths (SHORTEST k takes a literal), {1,42} (20 job hops) for longer ones.
// Edges: those seen in the last 30 days or among their job's latest known I/O; nodes: not soft-deleted,
// every node of the path (the service's default view, docs/lineage.md "Time"). Change P30D for another
// window, or drop the edge WHERE for all history.
MATCH (fromNamed:Dataset {namespace: $fromNamespace, name: $fromName})
OPTIONAL MATCH (fromNamed)-[:ALIAS_OF]->(fromPrimary:Dataset)
WITH coalesce(fromPrimary, fromNamed) AS a
WHERE NOT a:Deleted
MATCH (toNamed:Dataset {namespace: $toNamespace, name: $toName})
OPTIONAL MATCH (toNamed)-[:ALIAS_OF]->(toPrimary:Dataset)
WITH a, coalesce(toPrimary, toNamed) AS b
MATCH p = SHORTEST 5 (a)(()-[e:INPUT_TO|PRODUCES WHERE e.lastSeenAt >= datetime() - duration('P30D') OR e.current]->(x)
  WHERE NOT x:Deleted){1,42}(b)
RETURN length(p) AS hops,
       [n IN nodes(p) | CASE WHEN n:Job THEN 'job:' ELSE 'dataset:' END + n.namespace + ':' + n.name] AS path,
       [r IN relationships(p) | r.lastSeenAt] AS lastSeen,
       [r IN relationships(p) | r.lastRunState] AS lastRunStates
ORDER BY hops, path
