// Second read of an ingest transaction (composed after runs-prepare): for each dataset the batch mentions,
// whether the name is a symlink alias and of which primary dataset, the primary's facet digests,
// and its current version with that version's facet digests, so unchanged facets need not be
// resent (src/domain/facet-digests.ts) and a run starting to read it knows which version it reads. It takes each primary
// dataset's write lock first (setting a property to its own value locks without writing), so the
// digests and the current version stay true until this transaction commits, whatever other writers
// do (moving a current version, or writing a version's facets, takes its dataset's lock).
// Params: $datasets ([{namespace, name}], sorted). Returns one row: datasets, a list of one map per
//   mentioned dataset that exists: {from: {namespace, name}, to: {namespace, name} (the primary; equal
//   to `from` unless an alias), digests ([string])}.
// Its plan starts from unique-key seeks, so statistics cannot improve it: keep the cached plan (cypher/README.md).
CYPHER replan=skip
UNWIND $datasets AS ref
MATCH (d:Dataset {namespace: ref.namespace, name: ref.name})
// Only aliases (isAlias) have ALIAS_OF; most datasets are dense, and looking costs a walk of their
// relationship groups.
OPTIONAL CALL (d) {
  WITH d WHERE d.isAlias = true
  MATCH (d)-[:ALIAS_OF]->(p:Dataset)
  RETURN p
}
WITH ref, coalesce(p, d) AS primary
SET primary.name = primary.name
WITH ref, primary
OPTIONAL MATCH (primary)-[:CURRENT_VERSION]->(cv:DatasetVersion)
RETURN collect({
  from: {namespace: ref.namespace, name: ref.name},
  to: {namespace: primary.namespace, name: primary.name},
  digests: coalesce(primary.facetDigests, []),
  current: CASE WHEN cv IS NULL THEN null ELSE {id: cv.id, digests: coalesce(cv.facetDigests, [])} END
}) AS datasets
