// How does data get from one dataset to another? The shortest lineage path (following the arrows).
// Params: $fromNamespace, $fromName, $toNamespace, $toName
// Returns at most one row: path (["dataset:<ns>:<name>", "job:<ns>:<name>", ...], from first to last),
//   jobHops (jobs on the path). No row: no path within 20 job hops.
// Edges: those seen in the last 30 days or among their job's latest known I/O (the service's default
// view, docs/lineage.md "Time"); change P30D for another window, or drop the WHERE for all history.
MATCH (a:Dataset {namespace: $fromNamespace, name: $fromName})
MATCH (b:Dataset {namespace: $toNamespace, name: $toName})
MATCH p = SHORTEST 1 (a)(()-[e:INPUT_TO|PRODUCES WHERE e.lastSeenAt >= datetime() - duration('P30D')
  OR e.current]->()){1,40}(b)
RETURN [n IN nodes(p) | CASE WHEN n:Job THEN 'job:' ELSE 'dataset:' END + n.namespace + ':' + n.name] AS path,
       length(p) / 2 AS jobHops
