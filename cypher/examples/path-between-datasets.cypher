// How does data get from one dataset to another? The shortest lineage path (following the arrows).
// Params: $fromNamespace, $fromName, $toNamespace, $toName
// Returns at most one row: path (["dataset:<ns>:<name>", "job:<ns>:<name>", ...], from first to last),
//   jobHops (jobs on the path). No row: no path within 20 job hops.
MATCH (a:Dataset {namespace: $fromNamespace, name: $fromName})
MATCH (b:Dataset {namespace: $toNamespace, name: $toName})
MATCH p = SHORTEST 1 (a)(()-[:INPUT_TO|PRODUCES]->()){1,40}(b)
RETURN [n IN nodes(p) | CASE WHEN n:Job THEN 'job:' ELSE 'dataset:' END + n.namespace + ':' + n.name] AS path,
       length(p) / 2 AS jobHops
