// Creates or updates the datasets an event mentions (and their namespaces, sources, fields and
// symlink aliases). Timestamps only move forward, so replays and out-of-order events converge.
// Params: $datasets: [{
//   namespace, name, firstSeen, lastSeen (ISO: earliest and latest eventTime mentioning it), facetProps (map 'facet.<name>' → JSON string, or null to delete),
//   description, lifecycleState, datasetType, source ({name, uri} or null),
//   fields (JSON string or null), fieldNames ([string]), fieldTypes ([{name, type, description}]),
//   symlinks ([{namespace, name}]), facetDigests ([string] or null: the new digest list when facets changed;
//   facets and fields left out of the row are unchanged, see datasets-state.cypher) }]
// Returns nothing.
// Its plan starts from unique-key seeks, so statistics cannot improve it: keep the cached plan (cypher/README.md).
CYPHER replan=skip
UNWIND $datasets AS ds
WITH ds, datetime(ds.firstSeen) AS t, datetime(ds.lastSeen) AS t1
// A dataset that exists already has its namespace link (made with it): checking it again on a
// namespace of thousands of datasets would cost more than this lookup.
OPTIONAL MATCH (known:Dataset {namespace: ds.namespace, name: ds.name})
WITH ds, t, t1, known IS NOT NULL AS existed
MERGE (ns:Namespace {name: ds.namespace})
  ON CREATE SET ns.createdAt = t, ns.updatedAt = t, ns.ownerName = 'anonymous', ns.description = null, ns.isHidden = false
// Namespaces are shared by many writers: write them only when something changes (un-hiding).
FOREACH (_ IN CASE WHEN ns.isHidden THEN [1] ELSE [] END | SET ns.isHidden = false, ns.updatedAt = t)
MERGE (d:Dataset {namespace: ds.namespace, name: ds.name})
  ON CREATE SET d.createdAt = t, d.updatedAt = t1, d.physicalName = ds.name, d.type = 'DB_TABLE',
                d.searchName = toLower(ds.name), d.isDeleted = false
// Field nodes are rewritten only when the schema changed: most runs report the same schema again.
WITH ds, t, t1, ns, d, existed, ds.fields IS NOT NULL AND ds.fields <> coalesce(d.fields, '') AS schemaChanged
SET d += ds.facetProps,
    d.isDeleted = false,
    d.createdAt = CASE WHEN t < d.createdAt THEN t ELSE d.createdAt END,
    d.updatedAt = CASE WHEN t1 > d.updatedAt THEN t1 ELSE d.updatedAt END,
    d.description = coalesce(ds.description, d.description),
    d.type = coalesce(ds.datasetType, d.type),
    d.fields = coalesce(ds.fields, d.fields),
    d.lastLifecycleState = coalesce(ds.lifecycleState, d.lastLifecycleState),
    d.facetDigests = coalesce(ds.facetDigests, d.facetDigests)
FOREACH (_ IN CASE WHEN existed THEN [] ELSE [1] END | MERGE (ns)-[:HAS_DATASET]->(d))
WITH t, ds, d, schemaChanged
CALL (t, ds, d) {
  WITH t, ds, d WHERE ds.source IS NOT NULL
  MERGE (s:Source {name: ds.source.name})
    ON CREATE SET s.createdAt = t, s.updatedAt = t, s.type = ds.source.type, s.connectionUrl = ds.source.uri, s.description = null
  FOREACH (_ IN CASE WHEN ds.source.uri IS NOT NULL AND s.connectionUrl IS NULL THEN [1] ELSE [] END |
    SET s.connectionUrl = ds.source.uri, s.updatedAt = t)
  // sourceName mirrors FROM_SOURCE, so the link is rewritten only when the source changes.
  WITH d, s WHERE d.sourceName IS NULL OR d.sourceName <> s.name
  SET d.sourceName = s.name
  WITH d, s
  OPTIONAL MATCH (d)-[old:FROM_SOURCE]->(other:Source) WHERE other <> s
  DELETE old
  MERGE (d)-[:FROM_SOURCE]->(s)
}
CALL (ds, d, schemaChanged) {
  WITH ds, d WHERE schemaChanged
  UNWIND ds.fieldTypes AS f
  MERGE (df:DatasetField {namespace: ds.namespace, dataset: ds.name, name: f.name})
  SET df.type = f.type, df.description = f.description
  MERGE (d)-[:HAS_FIELD]->(df)
}
CALL (t, ds, d) {
  UNWIND ds.symlinks AS link
  WITH t, d, link WHERE NOT (link.namespace = d.namespace AND link.name = d.name)
  MERGE (ans:Namespace {name: link.namespace})
    ON CREATE SET ans.createdAt = t, ans.updatedAt = t, ans.ownerName = 'anonymous', ans.description = null, ans.isHidden = false
  MERGE (a:Dataset {namespace: link.namespace, name: link.name})
    ON CREATE SET a.createdAt = t, a.updatedAt = t, a.physicalName = link.name, a.type = 'DB_TABLE',
                  a.searchName = toLower(link.name), a.isDeleted = false
  SET a.isAlias = true
  MERGE (ans)-[:HAS_DATASET]->(a)
  MERGE (a)-[:ALIAS_OF]->(d)
  // The alias's lineage edges now belong to the primary dataset, with their histories: an edge the
  // primary has too gets both (spans appended; the job's next event merges them, see edge-history.ts).
  WITH a, d
  CALL (a, d) {
    MATCH (a)-[e:INPUT_TO]->(j:Job)
    OPTIONAL MATCH (d)-[f:INPUT_TO]->(j)
    CALL (d, j, e, f) { WITH d, j, e WHERE f IS NULL CREATE (d)-[g:INPUT_TO]->(j) SET g = properties(e) }
    CALL (e, f) {
      WITH e, f WHERE f IS NOT NULL
      SET f.lastRunId = CASE WHEN e.lastSeenAt > f.lastSeenAt THEN e.lastRunId ELSE f.lastRunId END,
          f.lastRunState = CASE WHEN e.lastSeenAt > f.lastSeenAt THEN e.lastRunState ELSE f.lastRunState END,
          f.firstSeenAt = CASE WHEN e.firstSeenAt < f.firstSeenAt THEN e.firstSeenAt ELSE f.firstSeenAt END,
          f.lastSeenAt = CASE WHEN e.lastSeenAt > f.lastSeenAt THEN e.lastSeenAt ELSE f.lastSeenAt END,
          f.seenFrom = f.seenFrom + e.seenFrom, f.seenTo = f.seenTo + e.seenTo, f.heldUntil = f.heldUntil + e.heldUntil,
          f.current = f.current OR e.current
    }
    DELETE e
  }
  CALL (a, d) {
    MATCH (j:Job)-[e:PRODUCES]->(a)
    OPTIONAL MATCH (j)-[f:PRODUCES]->(d)
    CALL (d, j, e, f) { WITH d, j, e WHERE f IS NULL CREATE (j)-[g:PRODUCES]->(d) SET g = properties(e) }
    CALL (e, f) {
      WITH e, f WHERE f IS NOT NULL
      SET f.lastRunId = CASE WHEN e.lastSeenAt > f.lastSeenAt THEN e.lastRunId ELSE f.lastRunId END,
          f.lastRunState = CASE WHEN e.lastSeenAt > f.lastSeenAt THEN e.lastRunState ELSE f.lastRunState END,
          f.firstSeenAt = CASE WHEN e.firstSeenAt < f.firstSeenAt THEN e.firstSeenAt ELSE f.firstSeenAt END,
          f.lastSeenAt = CASE WHEN e.lastSeenAt > f.lastSeenAt THEN e.lastSeenAt ELSE f.lastSeenAt END,
          f.seenFrom = f.seenFrom + e.seenFrom, f.seenTo = f.seenTo + e.seenTo, f.heldUntil = f.heldUntil + e.heldUntil,
          f.current = f.current OR e.current
    }
    DELETE e
  }
  CALL (a, d) {
    MATCH (v:JobVersion)-[e:HAS_INPUT]->(a) MERGE (v)-[:HAS_INPUT]->(d) DELETE e
  }
  CALL (a, d) {
    MATCH (v:JobVersion)-[e:HAS_OUTPUT]->(a) MERGE (v)-[:HAS_OUTPUT]->(d) DELETE e
  }
}
