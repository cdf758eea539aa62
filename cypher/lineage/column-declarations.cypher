// The column-lineage declaration in force for each dataset at a point in time, for GET
// /api/v1/column-lineage. A dataset's column lineage is what its newest `columnLineage` facet says:
// the facet of its newest version (by createdAt) that carries one, among the versions created at or
// before $at (all versions when $at is null). FEEDS edges accumulate every mapping ever declared;
// the service keeps only those the declaration in force still lists.
// Params: $datasets ([{namespace, name}]), $at (ISO datetime string, or null for "now"), $endOfTime (DateTime: the
//   bound of "now", later than any event)
// Returns one row per existing dataset: {namespace, name, declaration (the facet's JSON text, or null when the
//   dataset never declared column lineage by then), declarationFields (the `fields` JSON of the version carrying
//   that facet: the columns its dataset-wide inputs feed besides those it names; null without a schema),
//   hasAny (it declared column lineage in some version), versionAt (id of its newest version created at or
//   before $at; null when $at is null or none)}
UNWIND $datasets AS ref
MATCH (d:Dataset {namespace: ref.namespace, name: ref.name})
// The count ingestion keeps (ingest/run-outputs.cypher): a dataset none of whose versions declares column
// lineage (most source tables) is answered without visiting its versions, however many it has.
WITH d, CASE WHEN $at IS NULL THEN null ELSE datetime($at) END AS at, coalesce(d.columnLineageVersions, 0) > 0 AS hasAny
// Both lookups read the index dataset_version_create_order in its order, naming all four of its
// properties: the newest entry first, so one entry when that version declares (the usual case).
OPTIONAL CALL (d, at, hasAny) {
  WITH d, at WHERE hasAny
  // Its own subquery, so that hasAny gates the lookup (cypher/README.md).
  CALL (d, at) {
    MATCH (v:DatasetVersion) USING INDEX SEEK v:DatasetVersion(namespace, name, createdAt, id)
      WHERE v.namespace = d.namespace AND v.name = d.name AND v.createdAt <= coalesce(at, $endOfTime)
      AND v.id IS NOT NULL AND v.`facet.columnLineage` IS NOT NULL
    RETURN v ORDER BY v.namespace DESC, v.name DESC, v.createdAt DESC, v.id DESC LIMIT 1
  }
  RETURN v.`facet.columnLineage` AS declaration, v.fields AS declarationFields
}
OPTIONAL CALL (d, at) {
  WITH d, at WHERE at IS NOT NULL
  CALL (d, at) {
    MATCH (v:DatasetVersion) USING INDEX SEEK v:DatasetVersion(namespace, name, createdAt, id)
      WHERE v.namespace = d.namespace AND v.name = d.name AND v.createdAt <= at AND v.id IS NOT NULL
    RETURN v ORDER BY v.namespace DESC, v.name DESC, v.createdAt DESC, v.id DESC LIMIT 1
  }
  RETURN v.id AS versionAt
}
RETURN d.namespace AS namespace, d.name AS name, declaration, declarationFields, hasAny, versionAt
