// Column-level impact: every column downstream of one column, how far, and through which jobs, over the
// column lineage in force (GET /api/v1/impact?nodeId=datasetField:..., cypher/impact/column-blast-radius).
// Params: $namespace, $dataset, $field (the column; a symlink alias name of the dataset stands for its
//   primary dataset, as in the API)
// Returns: namespace, dataset, field (an affected column), hops (column hops on the shortest path),
//   viaJobs (["<job namespace>:<job name>"] along that path), nearest first.
// Which mappings count, as in the API (docs/lineage.md "Which mappings count"): FEEDS keeps every mapping
// ever declared, but a dataset's column lineage is the `columnLineage` facet of its newest version that
// carries one; a mapping into the dataset that facet no longer lists is skipped (all of them count for a
// dataset no version of which declares any). Columns of soft-deleted datasets are left out and not walked
// through. No time window applies: a declaration stays in force until a newer one replaces it.
// Cypher has no JSON parser without APOC, so the facet's text is searched: each output column's object
// must start with `inputFields` and names must hold no quote or backslash, as the OpenLineage clients
// write them; a facet written otherwise loses its mappings here, where the API still follows them.
MATCH (named:Dataset {namespace: $namespace, name: $dataset})
OPTIONAL MATCH (named)-[:ALIAS_OF]->(primary:Dataset)
WITH coalesce(primary, named) AS d
WHERE NOT d:Deleted
MATCH (f:DatasetField {namespace: d.namespace, dataset: d.name, name: $field})
// Candidates over every mapping ever declared, a superset of the answer; the ones that count come next.
MATCH (f)(()-[:FEEDS]->()){1,20}(g)
WITH DISTINCT f, g
MATCH (gd:Dataset {namespace: g.namespace, name: g.dataset})
WHERE NOT gd:Deleted
WITH f, g, COLLECT { MATCH (gd)<-[:VERSION_OF]-(v:DatasetVersion) WHERE v.`facet.columnLineage` IS NOT NULL
  RETURN [v.`facet.columnLineage`, v.fields] ORDER BY v.createdAt DESC, v.id DESC LIMIT 1 }[0] AS declared
WITH f, g, declared[0] AS declaration, declared[1] AS schema
// The declared inputs of g: the part of the facet after `"<g>":{"inputFields":[` up to the next column's,
// and the dataset-wide `dataset` list, which applies to every column the facet names and to every top-level
// column of the declaring version's schema (its `fields` JSON, `{"name":…` first; a nested column of the same
// name as g, where g is not a top-level column, passes this text test too).
WITH f, g, declaration, schema, split(declaration, '"' + g.name + '":{"inputFields":[') AS cut,
  coalesce(split(split(declaration, '"dataset":[')[1], '"fields":{')[0], '') AS datasetWide
WITH f, g, declaration, CASE WHEN size(cut) > 1 THEN split(cut[1], '"inputFields":[')[0] + datasetWide
  WHEN coalesce(schema, '') CONTAINS ('{"name":"' + g.name + '"') THEN datasetWide ELSE '' END AS listed
MATCH (i:DatasetField)-[r:FEEDS]->(g)
// The facet may name the input's dataset by its primary name or by a symlink alias of it (FEEDS starts at
// the primary's column). One object per `{"`: an input's namespace, name and field are keys of the same object.
WITH f, g, declaration, listed, i, r, [[i.namespace, i.dataset]] + COLLECT { MATCH (a:Dataset)-[:ALIAS_OF]->
  (:Dataset {namespace: i.namespace, name: i.dataset}) RETURN [a.namespace, a.name] } AS names
WHERE declaration IS NULL OR any(n IN names WHERE any(o IN split(listed, '{"') WHERE ('"' + o) CONTAINS
  ('"namespace":"' + n[0] + '"') AND ('"' + o) CONTAINS ('"name":"' + n[1] + '"')
  AND ('"' + o) CONTAINS ('"field":"' + i.name + '"')))
WITH f, collect(r) AS inForce
MATCH (f)(()-[r:FEEDS WHERE r IN inForce]->()){1,20}(g)
WITH DISTINCT f, g, inForce
MATCH p = SHORTEST 1 (f)(()-[r:FEEDS WHERE r IN inForce]->()){1,20}(g)
RETURN g.namespace AS namespace, g.dataset AS dataset, g.name AS field, length(p) AS hops,
       [r IN relationships(p) | r.jobNamespace + ':' + r.jobName] AS viaJobs
ORDER BY hops, namespace, dataset, field
