// Column-level impact: every column downstream of one column, how far, and through which jobs.
// Params: $namespace, $dataset, $field (the column)
// Returns: namespace, dataset, field (an affected column), hops (column hops on the shortest path),
//   viaJobs (["<job namespace>:<job name>"] along that path), nearest first.
MATCH (f:DatasetField {namespace: $namespace, dataset: $dataset, name: $field})
MATCH (f)(()-[:FEEDS]->()){1,20}(g)
WITH DISTINCT f, g
MATCH p = SHORTEST 1 (f)(()-[:FEEDS]->()){1,20}(g)
RETURN g.namespace AS namespace, g.dataset AS dataset, g.name AS field, length(p) AS hops,
       [r IN relationships(p) | r.jobNamespace + ':' + r.jobName] AS viaJobs
ORDER BY hops, namespace, dataset, field
