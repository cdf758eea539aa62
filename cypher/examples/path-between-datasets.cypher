// How does data get from one dataset to another? The shortest lineage path (following the arrows).
// Params: $fromNamespace, $fromName, $toNamespace, $toName (a symlink alias name stands for its primary
//   dataset, as in GET /api/v1/impact/paths)
// Returns at most one row: path (["dataset:<ns>:<name>", "job:<ns>:<name>", ...], from first to last),
//   jobHops (jobs on the path). No row: no path within 20 job hops, or either dataset is soft-deleted.
// Edges: those seen in the last 30 days or among their job's latest known I/O; nodes: not soft-deleted,
// every node of the path (the service's default view, docs/lineage.md "Time"): a path through a deleted
// job or dataset is no path. Change P30D for another window, or drop the edge WHERE for all history.
MATCH (fromNamed:Dataset {namespace: $fromNamespace, name: $fromName})
OPTIONAL MATCH (fromNamed)-[:ALIAS_OF]->(fromPrimary:Dataset)
WITH coalesce(fromPrimary, fromNamed) AS a
WHERE NOT a:Deleted
MATCH (toNamed:Dataset {namespace: $toNamespace, name: $toName})
OPTIONAL MATCH (toNamed)-[:ALIAS_OF]->(toPrimary:Dataset)
WITH a, coalesce(toPrimary, toNamed) AS b
MATCH p = SHORTEST 1 (a)(()-[e:INPUT_TO|PRODUCES WHERE e.lastSeenAt >= datetime() - duration('P30D')
  OR e.current]->(x) WHERE NOT x:Deleted){1,40}(b)
RETURN [n IN nodes(p) | CASE WHEN n:Job THEN 'job:' ELSE 'dataset:' END + n.namespace + ':' + n.name] AS path,
       length(p) / 2 AS jobHops
