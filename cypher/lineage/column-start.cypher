// The start columns of a column-lineage query whose node id names a dataset or a job.
//   $kind = 'dataset': every column of the dataset; with $version, only the columns in that dataset
//     version's schema (`fields` JSON; nested ones by dotted path) that exist as DatasetField nodes.
//   $kind = 'job': every column of every dataset among the job's latest known outputs (PRODUCES
//     edges with `current`, see cypher/README.md); with $version, the
//     outputs of that job version instead.
// Params: $eid (elementId of the resolved Dataset or Job), $kind ('dataset'|'job'), $version (id or null)
// Returns {found (false when $version names no version of this dataset/job), fieldIds ([elementId]),
//   fieldsJson (for a dataset version, the `fields` JSON of its schema, else null),
//   at (ISO time the version was created: the point in time of a `#version` answer; null without $version)}
MATCH (n) WHERE elementId(n) = $eid
CALL (n) {
  WITH n WHERE $kind = 'dataset' AND $version IS NULL
  RETURN true AS found, [(n)-[:HAS_FIELD]->(f:DatasetField) | elementId(f)] AS fieldIds, null AS fieldsJson, null AS at
  UNION
  WITH n WHERE $kind = 'dataset' AND $version IS NOT NULL
  OPTIONAL MATCH (v:DatasetVersion {id: $version})-[:VERSION_OF]->(n)
  RETURN v IS NOT NULL AS found, [(n)-[:HAS_FIELD]->(f:DatasetField) | elementId(f)] AS fieldIds,
    v.fields AS fieldsJson, toString(v.createdAt) AS at
  UNION
  WITH n WHERE $kind = 'job' AND $version IS NULL
  RETURN true AS found,
         [(n)-[p:PRODUCES WHERE p.current]->(d:Dataset)-[:HAS_FIELD]->(f:DatasetField) WHERE NOT coalesce(d.isDeleted,
           false) | elementId(f)] AS fieldIds,
         null AS fieldsJson, null AS at
  UNION
  WITH n WHERE $kind = 'job' AND $version IS NOT NULL
  OPTIONAL MATCH (v:JobVersion {id: $version})-[:VERSION_OF]->(n)
  RETURN v IS NOT NULL AS found,
         [(v)-[:HAS_OUTPUT]->(d:Dataset)-[:HAS_FIELD]->(f:DatasetField) WHERE NOT coalesce(d.isDeleted,
           false) | elementId(f)] AS fieldIds,
         null AS fieldsJson, toString(v.createdAt) AS at
}
RETURN found, fieldIds, fieldsJson, at
