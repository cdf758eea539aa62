// Provenance: the original sources of a dataset, i.e. the datasets upstream of it that no (live) job
// produces, with the job hops to reach them.
// Params: $namespace, $name (the dataset)
// Returns: namespace, name (a source dataset), hops, farthest first.
MATCH (d:Dataset {namespace: $namespace, name: $name})
MATCH (d)(()<-[:INPUT_TO|PRODUCES]-(x) WHERE NOT coalesce(x.isDeleted, false)){1,40}(s)
WITH DISTINCT d, s
WHERE s:Dataset AND NOT EXISTS { (s)<-[:PRODUCES]-(j:Job) WHERE NOT coalesce(j.isDeleted, false) }
MATCH p = SHORTEST 1 (s)(()-[:INPUT_TO|PRODUCES]->()){1,40}(d)
RETURN s.namespace AS namespace, s.name AS name, length(p) / 2 AS hops
ORDER BY hops DESC, namespace, name
