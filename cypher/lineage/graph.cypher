// Dataset-level lineage graph around one start node (job or dataset), for GET /api/v1/lineage.
// Walks (:Dataset)-[:INPUT_TO]->(:Job)-[:PRODUCES]->(:Dataset) from the start node. As written it
// walks downstream (follows the arrows); the store swaps the marked relationship pattern
// `-[:INPUT_TO|PRODUCES]->/*downstream*/` for `<-[:INPUT_TO|PRODUCES]-` (upstream: against the arrows)
// or `-[:INPUT_TO|PRODUCES]-` (both: direction ignored, the Marquez walk, siblings of a dataset are
// reached through it). One plan per direction and depth, each the simplest possible.
// The walk is a quantified path pattern that returns DISTINCT end nodes (never paths), so Neo4j
// plans it as VarLengthExpand(Pruning,BFS): every node is expanded once, at its shortest distance.
// Soft-deleted jobs and datasets are neither returned nor walked through. Symlink aliases never
// carry INPUT_TO/PRODUCES (ingest moves them to the primary), so the walk never meets one.
//
// The quantifier bound marked `/*maxRels*/` (42 = depth 20 from a dataset) is replaced by the store
// with a validated integer, since Cypher does not accept parameters in quantifiers: the largest number
// of relationships from the start node, 2 * depth + 1 from a job and 2 * depth + 2 from a dataset
// (depth counts job hops; the jobs next to the start are hop 0).
//
// Params: $startId (elementId of the resolved start node),
//   $maxNodes (integer: at most this many nodes; the service asks for one more than its cap to detect truncation)
// Returns one row per node: isJob, consumers ([[namespace, name]]: the jobs a dataset is input to,
//   [] for a job), node: the projection src/store/mappers.ts reads (toJob / toDataset):
//   n {.*, inputs, outputs ([[namespace, name]]: a job's current I/O, [] for a dataset), tags ([name]),
//   fieldTags ([[field, tag]]), latestRun (the job's LATEST_RUN run: r {.*, reads, wrote: the versions
//   it read / wrote, v {.*} without their `fields`}, or null)}; temporal properties as ISO strings
//   (decoding driver DateTimes costs more than the rest of the rendering).
// Edges: a job's outputs and a dataset's consumers whose both ends are in the result (the service
// keeps those); soft-deleted nodes are never in the result, so edges to them drop out too.
// Kept short (the store strips these comments before sending): the text is sent with every request.
MATCH (s) WHERE elementId(s) = $startId
MATCH (s)(()-[:INPUT_TO|PRODUCES]->/*downstream*/(x) WHERE NOT coalesce(x.isDeleted, false)){0, 42 /*maxRels*/}(n)
WITH DISTINCT n LIMIT $maxNodes
RETURN n:Job AS isJob,
  [(n)-[:INPUT_TO]->(j) | [j.namespace, j.name]] AS consumers,
  n {.*, createdAt: toString(n.createdAt), updatedAt: toString(n.updatedAt), lastModifiedAt: toString(n.lastModifiedAt),
    currentVersionAt: toString(n.currentVersionAt),
    inputs: [(d)-[:INPUT_TO]->(n) | [d.namespace, d.name]],
    outputs: [(n)-[:PRODUCES]->(d) | [d.namespace, d.name]],
    tags: [(n)-[:TAGGED]->(t) | t.name],
    fieldTags: [(n)-[:HAS_FIELD]->(f)-[:TAGGED]->(t) | [f.name, t.name]],
    latestRun: [(n)-[:LATEST_RUN]->(r) | r {.*, createdAt: toString(r.createdAt), updatedAt: toString(r.updatedAt),
      startedAt: toString(r.startedAt), endedAt: toString(r.endedAt), sortTime: null,
      nominalStartTime: toString(r.nominalStartTime), nominalEndTime: toString(r.nominalEndTime),
      reads: [(r)-[:READ]->(v) | v {.*, fields: null, createdAt: null, committedAt: null}],
      wrote: [(r)-[:WROTE]->(v) | v {.*, fields: null, createdAt: null, committedAt: null}]}][0]
  } AS node
