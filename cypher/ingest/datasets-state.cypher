// Second read of an ingest transaction (composed after runs-prepare): for each dataset the batch mentions,
// whether the name is a symlink alias and of which primary dataset, and the primary's facet stamps
// (src/domain/facet-stamps.ts: when and with what content each facet was last reported). It takes
// each primary dataset's write lock first (setting a property to its own value locks without
// writing), so the stamps stay true until this transaction commits, whatever other writers do.
// Params: $datasets ([{namespace, name}], sorted). Returns one row: datasets, a list of one map per
//   mentioned dataset that exists: {from: {namespace, name}, to: {namespace, name} (the primary; equal
//   to `from` unless an alias), stamps ([string])}.
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
RETURN collect({
  from: {namespace: ref.namespace, name: ref.name},
  to: {namespace: primary.namespace, name: primary.name},
  stamps: coalesce(primary.facetStamps, [])
}) AS datasets
