// Column-level lineage from outputs' `columnLineage` facets: input field -[:FEEDS]-> output field,
// one edge per (input field, output field, job), with the transformations of the latest report (by
// event time; `declaredAt`). The datasets exist already (datasets-upsert).
// Params: $edges: [{jobNamespace, jobName, namespace, name, field, inNamespace, inName, inField, transformations
// (JSON), at (ISO)}]
// Returns nothing.
// Its plan starts from unique-key seeks, so statistics cannot improve it: keep the cached plan (cypher/README.md).
CYPHER replan=skip
UNWIND $edges AS e
MATCH (od:Dataset {namespace: e.namespace, name: e.name})
MATCH (id:Dataset {namespace: e.inNamespace, name: e.inName})
WITH e, od, id, datetime(e.at) AS at
MERGE (of:DatasetField {namespace: od.namespace, dataset: od.name, name: e.field})
MERGE (od)-[:HAS_FIELD]->(of)
MERGE (inf:DatasetField {namespace: id.namespace, dataset: id.name, name: e.inField})
MERGE (id)-[:HAS_FIELD]->(inf)
MERGE (inf)-[f:FEEDS {jobNamespace: e.jobNamespace, jobName: e.jobName}]->(of)
WITH f, e, at, f.declaredAt IS NULL OR at > f.declaredAt OR (at = f.declaredAt
  AND e.transformations > f.transformations) AS newer
SET f.transformations = CASE WHEN newer THEN e.transformations ELSE f.transformations END,
    f.declaredAt = CASE WHEN newer THEN at ELSE f.declaredAt END
