// Column-level lineage around a set of start columns, for GET /api/v1/column-lineage: the candidate
// columns (every mapping ever declared; the service then keeps the edges the declarations in force list,
// see column-declarations.cypher).
// Walks (:DatasetField)-[:FEEDS]->(:DatasetField) (input column -> output column, from the
// columnLineage facets) upstream from every start column and, when $withDownstream, downstream too.
// Each walk is a quantified path pattern returning DISTINCT end nodes, planned as
// VarLengthExpand(Pruning,BFS). Columns of soft-deleted datasets are dropped from the result (the
// service filters them; the walk itself cannot test the owning dataset without losing the pruning plan).
//
// The quantifier bound marked `/*maxRels*/` (20) is replaced by the store with the validated depth
// (FEEDS hops, at least 1), since Cypher does not accept parameters in quantifiers.
//
// Params: $startIds ([elementId] of DatasetField nodes), $withDownstream (boolean), $maxNodes (integer)
// Returns one row per column: {eid (elementId), namespace, dataset, field, fieldType, datasetVersion (the dataset's
//   current version id or null), deleted (its dataset is soft-deleted),
//   inputs ([{namespace, dataset, field, jobNamespace, jobName, transformations (JSON text)}]: every
//   FEEDS edge into the column), outs ([[namespace, dataset, field]]: every column it feeds)}
// One id at a time: `elementId(s) IN $startIds` was planned as a scan of every DatasetField, filtered.
UNWIND $startIds AS startId
MATCH (s:DatasetField) WHERE elementId(s) = startId
CALL (s) {
  MATCH (s)(()<-[:FEEDS]-(x)){0, 20 /*maxRels*/}(n)
  RETURN n
  UNION
  WITH s WHERE $withDownstream
  MATCH (s)(()-[:FEEDS]->(x)){0, 20 /*maxRels*/}(n)
  RETURN n
}
WITH DISTINCT n
LIMIT $maxNodes
OPTIONAL MATCH (d:Dataset {namespace: n.namespace, name: n.dataset})
RETURN elementId(n) AS eid, n.namespace AS namespace, n.dataset AS dataset, n.name AS field, n.type AS fieldType,
       d.currentVersion AS datasetVersion, coalesce(d.isDeleted, false) AS deleted,
       [(i:DatasetField)-[f:FEEDS]->(n) | {namespace: i.namespace, dataset: i.dataset, field: i.name,
          jobNamespace: f.jobNamespace, jobName: f.jobName, transformations: f.transformations}] AS inputs,
       [(n)-[:FEEDS]->(o:DatasetField) | [o.namespace, o.dataset, o.name]] AS outs
