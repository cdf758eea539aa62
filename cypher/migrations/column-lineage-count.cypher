// Migration `column-lineage-count` (src/store/migrations.ts): gives a batch of datasets written by an
// older version their `columnLineageVersions`, the number of their versions carrying a columnLineage
// facet, which ingestion keeps from then on (ingest/run-outputs.cypher) and column lineage reads
// instead of visiting every version (lineage/column-declarations.cypher). Each dataset gets a number,
// 0 included, so a batch never visits a dataset twice.
// Params: $limit (integer: datasets per batch).
// Returns one row: datasets (the datasets counted in this batch; 0 when none was left).
MATCH (d:Dataset) WHERE d.columnLineageVersions IS NULL
WITH d LIMIT $limit
SET d.columnLineageVersions = COUNT { (v:DatasetVersion)-[:VERSION_OF]->(d) WHERE v.`facet.columnLineage` IS NOT NULL }
RETURN count(*) AS datasets
