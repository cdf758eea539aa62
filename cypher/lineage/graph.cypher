// Dataset-level lineage graph around one start node (job or dataset), for GET /api/v1/lineage.
// Walks (:Dataset)-[:INPUT_TO]->(:Job)-[:PRODUCES]->(:Dataset) from the start node:
//   $direction = 'downstream' follows the arrows, 'upstream' walks against them, 'both' ignores
//   their direction (the Marquez walk: siblings of a dataset are reached through it).
// The walk is a quantified path pattern that returns DISTINCT end nodes (never paths), so Neo4j
// plans it as VarLengthExpand(Pruning,BFS): every node is expanded once, at its shortest distance.
// Soft-deleted jobs and datasets, and symlink aliases, are neither returned nor walked through.
//
// The quantifier bound marked `/*maxRels*/` (42 = depth 20 from a dataset) is replaced by the store
// with a validated integer, since Cypher does not accept parameters in quantifiers: the largest number
// of relationships from the start node, 2 * depth + 1 from a job and 2 * depth + 2 from a dataset
// (depth counts job hops; the jobs next to the start are hop 0). Only the branch matching
// $direction runs; the other two see no rows.
//
// Params: $startId (elementId of the resolved start node), $direction ('both'|'upstream'|'downstream'),
//         $maxNodes (integer: at most this many nodes are returned; the service asks for one more
//         than its cap to detect truncation)
// Returns one row per node: {kind ('JOB'|'DATASET'), node (all properties), outs ([[namespace, name]]:
//   the not-deleted datasets a job produces, or jobs a dataset is input to; the caller keeps those
//   in the result), inputs / outputs (a job's current I/O as [{namespace, name}], null for datasets),
//   latestRun (the job's LATEST_RUN run node, with readVersions / wroteVersions, or null),
//   tags ([name]), fieldTags ([{field, tag}])}
MATCH (s) WHERE elementId(s) = $startId
CALL (s) {
  WITH s WHERE $direction = 'downstream'
  MATCH (s)(()-[:INPUT_TO|PRODUCES]->(x) WHERE NOT coalesce(x.isDeleted, false) AND NOT coalesce(x.isAlias, false)){0, 42 /*maxRels*/}(n)
  RETURN n
  UNION
  WITH s WHERE $direction = 'upstream'
  MATCH (s)(()<-[:INPUT_TO|PRODUCES]-(x) WHERE NOT coalesce(x.isDeleted, false) AND NOT coalesce(x.isAlias, false)){0, 42 /*maxRels*/}(n)
  RETURN n
  UNION
  WITH s WHERE $direction = 'both'
  MATCH (s)(()-[:INPUT_TO|PRODUCES]-(x) WHERE NOT coalesce(x.isDeleted, false) AND NOT coalesce(x.isAlias, false)){0, 42 /*maxRels*/}(n)
  RETURN n
}
WITH n
LIMIT $maxNodes
WITH n, n:Job AS isJob
RETURN
  CASE WHEN isJob THEN 'JOB' ELSE 'DATASET' END AS kind,
  n AS node,
  CASE WHEN isJob
    THEN [(n)-[:PRODUCES]->(d:Dataset) WHERE NOT coalesce(d.isDeleted, false) | [d.namespace, d.name]]
    ELSE [(n)-[:INPUT_TO]->(j:Job) WHERE NOT coalesce(j.isDeleted, false) | [j.namespace, j.name]]
  END AS outs,
  CASE WHEN isJob THEN [(d:Dataset)-[:INPUT_TO]->(n) | {namespace: d.namespace, name: d.name}] END AS inputs,
  CASE WHEN isJob THEN [(n)-[:PRODUCES]->(d:Dataset) | {namespace: d.namespace, name: d.name}] END AS outputs,
  CASE WHEN isJob THEN [(n)-[:LATEST_RUN]->(r:Run) | r {
      .*,
      readVersions: [(r)-[:READ]->(v:DatasetVersion) | {namespace: v.namespace, name: v.name, version: v.id}],
      wroteVersions: [(r)-[:WROTE]->(v:DatasetVersion) | {namespace: v.namespace, name: v.name, version: v.id}]
    }][0] END AS latestRun,
  [(n)-[:TAGGED]->(t:Tag) | t.name] AS tags,
  CASE WHEN isJob THEN [] ELSE [(n)-[:HAS_FIELD]->(f:DatasetField)-[:TAGGED]->(t:Tag) | {field: f.name, tag: t.name}] END AS fieldTags
