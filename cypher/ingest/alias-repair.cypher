// A name became a symlink alias (ALIAS_OF its primary) after the graph had recorded things under it as
// a dataset of its own. This takes that record apart and returns the stored events that made it, so
// the service replays them (src/store/alias-repair.ts): every event is then resolved to the primary,
// and the graph is what it would be had the symlink been known from the start. Its lineage edges were
// moved to the primary already (datasets-upsert.cypher); its versions (and the reads and writes of
// them), the job versions JobEvents declared with it, its facets, promoted values, source and column
// fields (their column lineage moves to the primary's fields) go.
// Params: $names: [{namespace, name}] (names that became aliases in this transaction)
// Returns one row: events ([string]: the stored events to replay, as canonical JSON, distinct).
// Its plan starts from unique-key and index seeks, so statistics cannot improve it: keep the cached plan
// (cypher/README.md).
CYPHER replan=skip
UNWIND $names AS ref
MATCH (a:Dataset {namespace: ref.namespace, name: ref.name})-[:ALIAS_OF]->(p:Dataset)
CALL (a) {
  OPTIONAL MATCH (a)<-[:VERSION_OF]-(:DatasetVersion)<-[:READ|WROTE]-(r:Run)
  WITH DISTINCT r
  OPTIONAL MATCH (e:LineageEvent {runId: r.id}) USING INDEX SEEK e:LineageEvent(runId)
  RETURN collect(e.payload) AS runEvents
}
CALL (a) {
  OPTIONAL MATCH (a)<-[:HAS_INPUT|HAS_OUTPUT]-(v:JobVersion) WHERE v.declaredFrom IS NOT NULL
  WITH DISTINCT v.namespace AS jobNamespace, v.name AS jobName
  OPTIONAL MATCH (e:LineageEvent {jobNamespace: jobNamespace, jobName: jobName})
    USING INDEX SEEK e:LineageEvent(jobNamespace, jobName) WHERE e.kind = 'job'
  RETURN collect(e.payload) AS jobEvents
}
CALL (a) {
  OPTIONAL MATCH (e:LineageEvent) USING INDEX SEEK e:LineageEvent(datasetNamespace, datasetName)
    WHERE e.datasetNamespace = a.namespace AND e.datasetName = a.name
  RETURN collect(e.payload) AS datasetEvents
}
CALL (a) {
  MATCH (a)<-[:VERSION_OF]-(v:DatasetVersion)
  DETACH DELETE v
}
CALL (a) {
  MATCH (a)<-[:HAS_INPUT|HAS_OUTPUT]-(v:JobVersion) WHERE v.declaredFrom IS NOT NULL
  WITH DISTINCT v
  DETACH DELETE v
}
CALL (a, p) {
  MATCH (a)-[:HAS_FIELD]->(f:DatasetField)
  CALL (f, p) {
    MATCH (f)-[feed:FEEDS]->(o:DatasetField)
    MERGE (pf:DatasetField {namespace: p.namespace, dataset: p.name, name: f.name})
    MERGE (p)-[:HAS_FIELD]->(pf)
    MERGE (pf)-[moved:FEEDS {jobNamespace: feed.jobNamespace, jobName: feed.jobName}]->(o)
    SET moved.transformations = coalesce(moved.transformations, feed.transformations),
      moved.declaredAt = coalesce(moved.declaredAt, feed.declaredAt)
  }
  CALL (f, p) {
    MATCH (i:DatasetField)-[feed:FEEDS]->(f)
    MERGE (pf:DatasetField {namespace: p.namespace, dataset: p.name, name: f.name})
    MERGE (p)-[:HAS_FIELD]->(pf)
    MERGE (i)-[moved:FEEDS {jobNamespace: feed.jobNamespace, jobName: feed.jobName}]->(pf)
    SET moved.transformations = coalesce(moved.transformations, feed.transformations),
      moved.declaredAt = coalesce(moved.declaredAt, feed.declaredAt)
  }
  DETACH DELETE f
}
CALL (a) {
  OPTIONAL MATCH (a)-[s:FROM_SOURCE]->()
  DELETE s
}
FOREACH (k IN [k IN keys(a) WHERE k STARTS WITH 'facet.'] | SET a[k] = null)
SET a.facetStamps = null, a.facetDigests = null, a.fields = null, a.description = null, a.lastLifecycleState = null,
    a.currentVersion = null, a.lastModifiedAt = null, a.sourceName = null, a.type = 'DB_TABLE',
    a.columnLineageVersions = null
WITH runEvents + jobEvents + datasetEvents AS events
UNWIND events AS payload
RETURN collect(DISTINCT payload) AS events
