// Migration `nested-fields` (src/store/migrations.ts), write step: gives datasets the column nodes of
// their nested columns, named by their dotted path (`addr.geo.lat`), as ingestion now makes them. The
// columns of the dataset's own schema are typed by it, as ingestion types them; those only in its versions'
// schemas get untyped nodes, as a superseded schema's columns do.
// Params: $datasets: [{namespace, name, typed: [{name, type, description}] (nested columns of the dataset's
//   schema), untyped ([string]: nested columns only in its versions' schemas)}].
// Returns nothing.
UNWIND $datasets AS ds
MATCH (d:Dataset {namespace: ds.namespace, name: ds.name})
CALL (ds, d) {
  UNWIND ds.typed AS f
  MERGE (df:DatasetField {namespace: ds.namespace, dataset: ds.name, name: f.name})
  SET df.type = f.type, df.description = f.description
  MERGE (d)-[:HAS_FIELD]->(df)
}
CALL (ds, d) {
  UNWIND ds.untyped AS n
  MERGE (df:DatasetField {namespace: ds.namespace, dataset: ds.name, name: n})
  MERGE (d)-[:HAS_FIELD]->(df)
}
