// Schema changes and what they put at risk, for GET /api/v1/impact/schema-changes: every dataset
// version committed since $since whose schema (`fields`) differs from the dataset's previous committed
// version that has one (by committedAt, then id: the order in which versions become current, so the last
// change is the current version's, even when overlapping runs commit out of the order they started in),
// with the run that wrote it; per changed dataset, how many jobs
// and datasets are downstream of it, and the columns that read its columns (FEEDS). The service diffs
// the two schemas (added, removed, retyped; a change of description alone is no change) and keeps the
// readers of removed or retyped columns that the declarations in force still list.
//
// Downstream counts use the lineage graph's rules (cypher/lineage/graph.cypher, written out the same
// way: edges in view at $asOf looking back to $windowStart, nodes that existed and were not deleted),
// counted over a pruning breadth-first walk bounded by the `/*maxRels*/` mark (42 = 20 job hops), which
// the store replaces with a validated integer.
//
// Params: $since (DateTime), $namespace (a dataset namespace, or null for all), $asOf, $windowStart (DateTime),
//   $limit (integer: most changes, newest first; a change of descriptions only takes a place before the
//   service drops it)
// Returns one row per change, newest first: namespace, name (the dataset), version, previousVersion (ids),
//   changedAt (ISO: the new version's committedAt), runId (the run that wrote it, or null), fields,
//   previousFields (JSON text), downstreamJobs, downstreamDatasets (integers), readers ([{field (of this
//   dataset), namespace, dataset, name (the reading column), jobNamespace, jobName, transformations}]).
MATCH (v:DatasetVersion)
WHERE v.committedAt >= $since AND v.fields IS NOT NULL AND ($namespace IS NULL OR v.namespace = $namespace)
MATCH (v)-[:VERSION_OF]->(d:Dataset)
WHERE NOT coalesce(d.isDeleted, false)
CALL (d, v) {
  MATCH (o:DatasetVersion) USING INDEX SEEK o:DatasetVersion(namespace, name, committedAt, id)
  WHERE o.namespace = d.namespace AND o.name = d.name AND o.committedAt <= v.committedAt AND o.id IS NOT NULL
    AND o.fields IS NOT NULL AND (o.committedAt < v.committedAt OR o.id < v.id)
  RETURN o ORDER BY o.namespace DESC, o.name DESC, o.committedAt DESC, o.id DESC LIMIT 1
}
WITH d, v, o WHERE o.fields <> v.fields
ORDER BY v.committedAt DESC, v.id
LIMIT $limit
WITH d, collect([v, o]) AS changes
CALL (d) {
  MATCH (d)(()-[e:INPUT_TO|PRODUCES WHERE e.firstSeenAt <= $asOf AND any(i IN range(0, size(e.seenFrom) - 1)
    WHERE e.seenFrom[i] <= $asOf AND (e.seenTo[i] >= $windowStart OR e.heldUntil[i] > $asOf))]->(x)
      WHERE x.createdAt <= $asOf AND NOT (coalesce(x.isDeleted, false) AND coalesce(x.deletedAt,
        x.createdAt) <= $asOf)){1, 42 /*maxRels*/}(n)
  WITH DISTINCT n
  RETURN count(CASE WHEN n:Job THEN 1 END) AS downstreamJobs, count(CASE
    WHEN n:Dataset THEN 1 END) AS downstreamDatasets
}
WITH d, changes, downstreamJobs, downstreamDatasets,
  [(d)-[:HAS_FIELD]->(f:DatasetField)-[r:FEEDS]->(g:DatasetField) | {field: f.name, namespace: g.namespace,
    dataset: g.dataset, name: g.name,
     jobNamespace: r.jobNamespace, jobName: r.jobName, transformations: r.transformations}] AS readers
UNWIND changes AS change
WITH d, change[0] AS v, change[1] AS o, downstreamJobs, downstreamDatasets, readers
RETURN d.namespace AS namespace, d.name AS name, v.id AS version, o.id AS previousVersion,
  toString(v.committedAt) AS changedAt,
  v.runId AS runId, v.fields AS fields, o.fields AS previousFields, downstreamJobs, downstreamDatasets, readers
ORDER BY v.committedAt DESC, version
