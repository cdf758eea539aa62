// Column-level lineage from outputs' `columnLineage` facets: input field -[:FEEDS]-> output field,
// one edge per (input field, output field, job). The datasets exist already (datasets-upsert).
// Params: $edges: [{jobNamespace, jobName, namespace, name, field, inNamespace, inName, inField, transformations (JSON)}]
// Returns nothing.
// Its plan starts from unique-key seeks, so statistics cannot improve it: keep the cached plan (cypher/README.md).
CYPHER replan=skip
UNWIND $edges AS e
MATCH (od:Dataset {namespace: e.namespace, name: e.name})
MATCH (id:Dataset {namespace: e.inNamespace, name: e.inName})
MERGE (of:DatasetField {namespace: od.namespace, dataset: od.name, name: e.field})
MERGE (od)-[:HAS_FIELD]->(of)
MERGE (inf:DatasetField {namespace: id.namespace, dataset: id.name, name: e.inField})
MERGE (id)-[:HAS_FIELD]->(inf)
MERGE (inf)-[f:FEEDS {jobNamespace: e.jobNamespace, jobName: e.jobName}]->(of)
SET f.transformations = e.transformations
