// Dataset-level lineage graph around one start node (job or dataset), for GET /api/v1/lineage.
// Walks (:Dataset)-[:INPUT_TO]->(:Job)-[:PRODUCES]->(:Dataset) from the start node. As written it
// walks downstream (follows the arrows); the store swaps the marked relationship pattern
// `-[...]->/*downstream*/` for `<-[...]-` (upstream: against the arrows) or `-[...]-` (both: direction
// ignored, the Marquez walk, siblings of a dataset are reached through it). One plan per direction
// and depth, each the simplest possible.
// The walk is a quantified path pattern that returns DISTINCT end nodes (never paths), so Neo4j
// plans it as VarLengthExpand(Pruning,BFS): every node is expanded once, at its shortest distance.
//
// Time (docs/lineage.md): an edge takes part when it existed at $asOf and was observed within the
// window [$windowStart, $asOf], or was still among its job's latest known I/O at $asOf (heldUntil);
// the predicate reads the edge alone (its observation spans, src/domain/edge-history.ts), so the walk
// stays a pruning expand. It is written out wherever edges are read (walk, a job's inputs and
// outputs, a dataset's consumers): keep the copies equal. A node takes part when it existed at
// $asOf (createdAt) and was not soft-deleted by then. Without a point in time the service passes
// $asOf = the end of time (everything stored counts, events dated ahead of the clock included) and
// $windowStart = now - window, and the rule reads what an edge keeps for "now" instead (CASE ... ELSE):
// seen within the window (lastSeenAt, the end of its last span) or still held (current: its last
// heldUntil is FOREVER), and the node not deleted (its `Deleted` label, which is in the node's record:
// reading isDeleted would open its property chain, about a quarter of the walk's time). The same edges
// and nodes for events dated before 9999-12-31T23:59:59.999Z, at a fraction of the walk's cost
// (test/store/impact-plans.test.ts checks both).
// Symlink aliases never carry INPUT_TO/PRODUCES (ingest moves them to the primary).
//
// The quantifier bound marked `/*maxRels*/` (42 = depth 20 from a dataset) is replaced by the store
// with a validated integer, since Cypher does not accept parameters in quantifiers: the largest number
// of relationships from the start node, 2 * depth + 1 from a job and 2 * depth + 2 from a dataset
// (depth counts job hops; the jobs next to the start are hop 0).
//
// Params: $startId (elementId of the resolved start node), $asOf, $windowStart (DateTime),
//   $pointInTime (boolean: an explicit asOf, so runs and dataset versions are answered as of then),
//   $facets (boolean: the nodes' facets and every property, else the fields a graph view needs),
//   $runDetails (boolean: the latest run's facets and dataset versions, else its state and times),
//   $maxNodes (integer: at most this many nodes, the nearest; `truncated` says the walk reached more),
//   $chunk (integer: most nodes per record)
// Returns records of up to $chunk nodes each, the nodes in node id order across the records (every
//   dataset before every job), so that the service writes each node to the client as it arrives:
//   truncated (boolean, the same in every record), at (the record's first node's position) and nodes,
//   a list of nodes, each a list (src/store/lineage/graph.ts, graphNodeProps, reads it back into the
//   projection src/store/mappers.ts reads): [isJob, out, in, values, facetStamps, properties, latestRun, version]
//   - out and in: a dataset's edges in view to and from the answer's jobs ([] for a job: its edges in the
//     answer are its datasets'), each [jobNamespace, jobName, firstSeenAt, lastSeenAt, lastRunId,
//     lastRunState], so each edge of the answer is rendered once;
//   - values: a job's [namespace, name, type, simpleName, parentJobName, createdAt, updatedAt, location,
//     description, currentVersion, integration, jobKind, inputs, outputs, tags], a dataset's [namespace,
//     name, type, createdAt, updatedAt, description, physicalName, sourceName, fields, lastModifiedAt,
//     lastLifecycleState, currentVersion, tags, fieldTags]: inputs and outputs [[namespace, name]] (a job's
//     edges in view, all of them), tags [name], fieldTags [[field, tag]];
//   - facetStamps when $pointInTime or $facets, else null; properties: every property of the node when
//     $facets (its times null: they are in values), else null;
//   - latestRun: the job's latest run at $asOf, or null: [id, state, startedAt, endedAt, createdAt,
//     updatedAt, nominalStartTime, nominalEndTime, jobVersion, jobNamespace, jobName,
//     jobFacet.sourceCodeLocation, properties (every property when $runDetails, times null, else null),
//     reads, wrote (when $runDetails the versions it read, v {.id, .namespace, .name, facets: [[key, value]]
//     of the READ}, and wrote, v {.*} without their fields; else [])];
//   - version: a dataset's current version at $asOf when $pointInTime, v {.id, .fields, .lifecycleState,
//     .placeholder, committedAt}, else null.
//   Times as epoch milliseconds (`.epochMillis`: formatting thousands of them cost Neo4j about a sixth of
//   the answer; decoding driver DateTimes costs the service more than the rest of the rendering), but a
//   version's committedAt (ISO string).
// Kept short (the store strips these comments before sending): the text is sent with every request.
MATCH (s) WHERE elementId(s) = $startId
MATCH (s)(()-[e:INPUT_TO|PRODUCES WHERE CASE WHEN $pointInTime THEN e.firstSeenAt <= $asOf AND any(i IN range(0,
  size(e.seenFrom) - 1) WHERE e.seenFrom[i] <= $asOf AND (e.seenTo[i] >= $windowStart OR e.heldUntil[i] > $asOf))
  ELSE e.lastSeenAt >= $windowStart OR e.current END]->/*downstream*/(x)
    WHERE CASE WHEN $pointInTime THEN x.createdAt <= $asOf AND NOT (coalesce(x.isDeleted, false)
      AND coalesce(x.deletedAt, x.createdAt) <= $asOf) ELSE NOT x:Deleted END){0, 42 /*maxRels*/}(n)
WITH DISTINCT n LIMIT $maxNodes + 1
// The answer's nodes: the nearest $maxNodes (one more tells that the walk went further), in node id order
// (`dataset:<namespace>:<name>`, then `job:...`; Cypher orders strings by code unit, as the service does).
// A dataset's edges are read only to them (a hub read by thousands of jobs answers a handful of them in an
// upstream graph).
WITH collect(n) AS found
UNWIND found[0..$maxNodes] AS m
WITH size(found) > $maxNodes AS truncated, m
  // The same order as `dataset:` / `job:` + namespace:name, without building those strings.
  ORDER BY m:Job, m.namespace + ':' + m.name
WITH truncated, collect(m) AS members
// A record per $chunk nodes, not per node: a record costs Neo4j and the service more than much of
// the node it carries (2,427 nodes: Neo4j's CPU 230-270 against 290-300 ms per answer). Only the nodes
// are collected above, so a record's rendered nodes are all Neo4j holds at once. Each node is rendered
// in the list comprehension below, its values named by one-element comprehensions (`[x IN [...] | ...]`)
// where a query part would bind them with WITH.
UNWIND range(0, size(members) - 1, $chunk) AS at
RETURN truncated, at, [n IN members[at..at + $chunk] |
  // A job's latest run as of $asOf (without a point in time, its LATEST_RUN); none for a dataset.
  [run IN [CASE WHEN NOT n:Job THEN null WHEN NOT $pointInTime THEN [(n)-[:LATEST_RUN]->(l:Run) | l][0] ELSE COLLECT {
    OPTIONAL MATCH (n)-[:LATEST_RUN]->(l:Run)
    OPTIONAL CALL (n, l) {
      WITH n, l WHERE l.sortTime > $asOf
      // A subquery of its own so that the condition gates the lookup: planned in one query part, the
      // condition was tested on every run the seek read (test/store/history-cost.test.ts).
      CALL (n) {
        MATCH (r:Run) USING INDEX SEEK r:Run(jobNamespace, jobName, sortTime, id) WHERE r.jobNamespace = n.namespace
          AND r.jobName = n.name AND r.sortTime <= $asOf AND r.id IS NOT NULL
        RETURN r ORDER BY r.jobNamespace DESC, r.jobName DESC, r.sortTime DESC, r.id DESC LIMIT 1
      }
      RETURN r
    }
    RETURN CASE WHEN l.sortTime <= $asOf THEN l ELSE r END AS run
  }[0] END] |
  // A dataset's current version as of $asOf, only asked with a point in time.
  [version IN [CASE WHEN n:Job OR NOT $pointInTime THEN null ELSE COLLECT {
    OPTIONAL MATCH (n)-[:CURRENT_VERSION]->(c:DatasetVersion)
    OPTIONAL CALL (n, c) {
      WITH n, c WHERE coalesce(c.committedAt, c.createdAt) > $asOf
      OPTIONAL CALL (n) {
        MATCH (v:DatasetVersion) USING INDEX SEEK v:DatasetVersion(namespace, name, committedAt, id)
          WHERE v.namespace = n.namespace AND v.name = n.name AND v.committedAt <= $asOf AND v.id IS NOT NULL
          AND v.placeholder IS NULL
        RETURN v ORDER BY v.namespace DESC, v.name DESC, v.committedAt DESC, v.id DESC LIMIT 1
      }
      // Nothing committed by then: the placeholder its readers saw, if it was read by then.
      OPTIONAL CALL (n, v) {
        WITH n, v WHERE v IS NULL
        // Its own subquery, so that `v IS NULL` gates the lookup (as the run's above).
        CALL (n) {
          MATCH (p:DatasetVersion) USING INDEX SEEK p:DatasetVersion(namespace, name, committedAt, id)
            WHERE p.namespace = n.namespace AND p.name = n.name AND p.committedAt <= $asOf AND p.id IS NOT NULL
            AND p.placeholder
          RETURN p LIMIT 1
        }
        RETURN p
      }
      RETURN coalesce(v, p) AS past
    }
    RETURN CASE WHEN coalesce(c.committedAt, c.createdAt) <= $asOf THEN c ELSE past END AS version
  }[0] END] |
  // The node as lists, not maps (see Returns above): a map costs Neo4j a hash map to build, then a walk of
  // its keys to size it and another to write it, and the service the keys to read, on every node and edge
  // (2,427 nodes: 150-155 against 215-225 ms at the driver). A type reads only its own keys: a key a node
  // lacks costs a walk of its whole property chain. An edge is in the answer when both its ends are.
  [n:Job,
    CASE WHEN n:Job THEN [] ELSE [(n)-[e:INPUT_TO]->(m) WHERE m IN members AND CASE WHEN $pointInTime THEN
      e.firstSeenAt <= $asOf AND any(i IN range(0, size(e.seenFrom) - 1) WHERE e.seenFrom[i] <= $asOf
      AND (e.seenTo[i] >= $windowStart OR e.heldUntil[i] > $asOf)) ELSE e.lastSeenAt >= $windowStart OR e.current END
      | [m.namespace, m.name, e.firstSeenAt.epochMillis, e.lastSeenAt.epochMillis, e.lastRunId, e.lastRunState]] END,
    CASE WHEN n:Job THEN [] ELSE [(m)-[e:PRODUCES]->(n) WHERE m IN members AND CASE WHEN $pointInTime THEN
      e.firstSeenAt <= $asOf AND any(i IN range(0, size(e.seenFrom) - 1) WHERE e.seenFrom[i] <= $asOf
      AND (e.seenTo[i] >= $windowStart OR e.heldUntil[i] > $asOf)) ELSE e.lastSeenAt >= $windowStart OR e.current END
      | [m.namespace, m.name, e.firstSeenAt.epochMillis, e.lastSeenAt.epochMillis, e.lastRunId, e.lastRunState]] END,
    CASE WHEN n:Job THEN [n.namespace, n.name, n.type, n.simpleName, n.parentJobName, n.createdAt.epochMillis,
      n.updatedAt.epochMillis, n.location, n.description, n.currentVersion, n.integration, n.jobKind,
      [(d)-[e:INPUT_TO]->(n) WHERE CASE WHEN $pointInTime THEN e.firstSeenAt <= $asOf
        AND any(i IN range(0, size(e.seenFrom) - 1) WHERE e.seenFrom[i] <= $asOf AND (e.seenTo[i] >= $windowStart
        OR e.heldUntil[i] > $asOf)) ELSE e.lastSeenAt >= $windowStart OR e.current END | [d.namespace, d.name]],
      [(n)-[e:PRODUCES]->(d) WHERE CASE WHEN $pointInTime THEN e.firstSeenAt <= $asOf
        AND any(i IN range(0, size(e.seenFrom) - 1) WHERE e.seenFrom[i] <= $asOf AND (e.seenTo[i] >= $windowStart
        OR e.heldUntil[i] > $asOf)) ELSE e.lastSeenAt >= $windowStart OR e.current END | [d.namespace, d.name]],
      [(n)-[:TAGGED]->(t) | t.name]]
    ELSE [n.namespace, n.name, n.type, n.createdAt.epochMillis, n.updatedAt.epochMillis, n.description, n.physicalName,
      n.sourceName, n.fields, n.lastModifiedAt.epochMillis, n.lastLifecycleState, n.currentVersion,
      [(n)-[:TAGGED]->(t) | t.name], [(n)-[:HAS_FIELD]->(f)-[:TAGGED]->(t) | [f.name, t.name]]] END,
    CASE WHEN $pointInTime OR $facets THEN n.facetStamps END,
    // With $facets every property (its times are the list's), with $runDetails every property of the run.
    CASE WHEN $facets THEN [p IN [properties(n)] | p {.*, createdAt: null, updatedAt: null, lastModifiedAt: null,
      currentVersionAt: null, deletedAt: null, lastEventAt: null, latestRunEndedAt: null}][0] END,
    CASE WHEN run IS NULL THEN null ELSE [run.id, run.state, run.startedAt.epochMillis, run.endedAt.epochMillis,
      run.createdAt.epochMillis, run.updatedAt.epochMillis, run.nominalStartTime.epochMillis,
      run.nominalEndTime.epochMillis, run.jobVersion, run.jobNamespace, run.jobName, run.`jobFacet.sourceCodeLocation`,
      CASE WHEN $runDetails THEN [p IN [properties(run)] | p {.*, createdAt: null, updatedAt: null, startedAt: null,
        endedAt: null, nominalStartTime: null, nominalEndTime: null, sortTime: null, lastEventAt: null}][0] END,
      CASE WHEN $runDetails THEN [(run)-[rd:READ]->(v) | v {.id, .namespace, .name, facets: [k IN keys(rd)
        WHERE k STARTS WITH 'facet.' | [k, rd[k]]]}] ELSE [] END,
      CASE WHEN $runDetails THEN [(run)-[:WROTE]->(v) | v {.*, fields: null, createdAt: null,
        committedAt: null}] ELSE [] END] END,
    CASE WHEN version IS NULL THEN null ELSE version {.id, .fields, .lifecycleState, .placeholder,
      committedAt: toString(coalesce(version.committedAt, version.createdAt))} END
  ]][0]][0]] AS nodes
