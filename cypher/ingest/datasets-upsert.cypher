// Creates or updates the datasets a batch mentions (and their namespaces, sources, fields and
// symlink aliases). Every value is a fold over the events (docs/ingest.md): times are the earliest and
// latest mention, facets and the values promoted from them come from the planner, which kept per
// facet the report latest by event time (src/domain/facet-stamps.ts) and sends only what changed.
// Params: $datasets: [{
//   namespace, name, firstSeen, lastSeen (ISO: earliest and latest eventTime mentioning it),
//   facetProps (map 'facet.<name>' → JSON, or null to remove: only facets whose content changed),
// derived (map of the promoted values that changed: fields (JSON), description, type, lastLifecycleState; null
// removes),
//   fieldTypes ([{name, type, description}]: the columns of a schema that changed, nested ones named by their dotted
//     path (`addr.geo.lat`), each name once, or null),
//   otherFieldNames ([string]: columns of other schemas reported with new content, nested ones dotted),
// source ({name, uri, type} or null), sourceChanged (boolean: the dataSource facet changed; source null removes the
// link),
//   sources ([{name, uri, type, at (ISO)}]: every source reported, with its earliest report),
// symlinks ([{namespace, name, at (ISO: its earliest declaration)}]), facetStamps ([string], or null when unchanged) }]
//   The namespaces exist (namespaces.cypher).
// Returns nothing.
// Its plan starts from unique-key seeks, so statistics cannot improve it: keep the cached plan (cypher/README.md).
CYPHER replan=skip
UNWIND $datasets AS ds
WITH ds, datetime(ds.firstSeen) AS t, datetime(ds.lastSeen) AS t1
// A dataset that exists already has its namespace link (made with it): checking it again on a
// namespace of thousands of datasets would cost more than this lookup.
OPTIONAL MATCH (known:Dataset {namespace: ds.namespace, name: ds.name})
WITH ds, t, t1, known IS NOT NULL AS existed
// The namespace exists and is dated (namespaces.cypher); it is written only to un-hide it.
MATCH (ns:Namespace {name: ds.namespace})
FOREACH (_ IN CASE WHEN ns.isHidden THEN [1] ELSE [] END | SET ns.isHidden = false)
MERGE (d:Dataset {namespace: ds.namespace, name: ds.name})
  ON CREATE SET d.createdAt = t, d.updatedAt = t1, d.physicalName = ds.name, d.type = 'DB_TABLE',
                d.searchName = toLower(ds.name), d.isDeleted = false
SET d += ds.facetProps,
    d += ds.derived,
    d.isDeleted = false,
    d.createdAt = CASE WHEN t < d.createdAt THEN t ELSE d.createdAt END,
    d.updatedAt = CASE WHEN t1 > d.updatedAt THEN t1 ELSE d.updatedAt END,
    d.facetStamps = coalesce(ds.facetStamps, d.facetStamps),
    // Bookkeeping of an earlier version (digests without times): replaced by facetStamps.
    d.facetDigests = null
// The label mirrors isDeleted (cypher/README.md): the lineage walks test it without reading a property.
REMOVE d:Deleted
FOREACH (_ IN CASE WHEN existed THEN [] ELSE [1] END | MERGE (ns)-[:HAS_DATASET]->(d))
WITH ds, d
CALL (ds) {
  // A source is dated, and its URL taken, from its earliest report; written only when that moves.
  // Sources are shared: an earlier report locks the source and reads it again (see namespaces.cypher).
  UNWIND ds.sources AS src
  WITH src, datetime(src.at) AS at
  MERGE (s:Source {name: src.name})
    ON CREATE SET s.createdAt = at, s.updatedAt = at, s.type = src.type, s.connectionUrl = src.uri, s.description = null
  WITH src, at, s WHERE at < s.createdAt
  SET s.name = s.name
  WITH src, at
  MATCH (locked:Source {name: src.name}) WHERE at < locked.createdAt
  SET locked.createdAt = at, locked.updatedAt = at, locked.type = src.type, locked.connectionUrl = coalesce(src.uri,
    locked.connectionUrl)
}
CALL (ds, d) {
  // sourceName mirrors FROM_SOURCE: the link changes with the dataSource facet.
  WITH ds, d WHERE ds.sourceChanged
  OPTIONAL MATCH (d)-[old:FROM_SOURCE]->(other:Source) WHERE ds.source IS NULL OR other.name <> ds.source.name
  DELETE old
  WITH DISTINCT ds, d
  SET d.sourceName = ds.source.name
  WITH ds, d WHERE ds.source IS NOT NULL
  MATCH (s:Source {name: ds.source.name})
  MERGE (d)-[:FROM_SOURCE]->(s)
}
CALL (ds, d) {
  // The dataset's schema types its columns; a column it no longer has keeps its node (tags, column
  // lineage) without a type. Field nodes are written only when a schema with new content arrives.
  WITH ds, d WHERE ds.fieldTypes IS NOT NULL
  // A dataset without columns yet (a new one, nearly always) gets them created outright, without a
  // lookup per column: one seek of the field key's (namespace, dataset) prefix says none exists (a
  // field node written by hand without its HAS_FIELD included), and d is locked by the SET above, so
  // the service adds none meanwhile. The planner sends each name once. Measured on new-entity traffic,
  // where most of this statement's time was these columns (docs/performance/ingest-journal.md).
  WITH ds, d, EXISTS {
    MATCH (known:DatasetField) WHERE known.namespace = ds.namespace AND known.dataset = ds.name
      AND known.name IS NOT NULL
  } AS hasFields
  CALL (ds, d, hasFields) {
    WITH ds, d WHERE NOT hasFields
    UNWIND ds.fieldTypes AS f
    CREATE (d)-[:HAS_FIELD]->(:DatasetField {namespace: ds.namespace, dataset: ds.name, name: f.name, type: f.type,
      description: f.description})
  }
  CALL (ds, d, hasFields) {
    WITH ds, d WHERE hasFields
    UNWIND ds.fieldTypes AS f
    MERGE (df:DatasetField {namespace: ds.namespace, dataset: ds.name, name: f.name})
    SET df.type = f.type, df.description = f.description
    MERGE (d)-[:HAS_FIELD]->(df)
  }
  WITH ds, d, hasFields, [f IN ds.fieldTypes | f.name] AS names
  WHERE hasFields
  MATCH (d)-[:HAS_FIELD]->(df:DatasetField) WHERE NOT df.name IN names AND (df.type IS NOT NULL
    OR df.description IS NOT NULL)
  SET df.type = null, df.description = null
}
CALL (ds, d) {
  UNWIND ds.otherFieldNames AS n
  MERGE (df:DatasetField {namespace: ds.namespace, dataset: ds.name, name: n})
  MERGE (d)-[:HAS_FIELD]->(df)
}
CALL (ds, d) {
  UNWIND ds.symlinks AS link
  WITH d, link, datetime(link.at) AS t WHERE NOT (link.namespace = d.namespace AND link.name = d.name)
  MATCH (ans:Namespace {name: link.namespace})
  MERGE (a:Dataset {namespace: link.namespace, name: link.name})
    ON CREATE SET a.createdAt = t, a.updatedAt = t, a.physicalName = link.name, a.type = 'DB_TABLE',
                  a.searchName = toLower(link.name), a.isDeleted = false
  SET a.isAlias = true,
      a.createdAt = CASE WHEN t < a.createdAt THEN t ELSE a.createdAt END,
      a.updatedAt = CASE WHEN t > a.updatedAt THEN t ELSE a.updatedAt END
  MERGE (ans)-[:HAS_DATASET]->(a)
  MERGE (a)-[:ALIAS_OF]->(d)
  // The alias's lineage edges now belong to the primary dataset, with their histories: an edge the
  // primary has too gets both (spans appended; the job's next event merges them, see edge-history.ts).
  // The rest of what was recorded under the name (versions, reads, job versions, facets) is rebuilt
  // under the primary from the stored events after this statement (src/store/alias-repair.ts).
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
}
