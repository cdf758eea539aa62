// Third read of an ingest transaction (composed after datasets-state): the facet digests of the
// batch's jobs that exist, so unchanged job facets need not be resent (src/domain/facet-digests.ts).
// It takes each job's write lock first (setting a property to its own value locks without writing),
// so the digests stay true until this transaction commits, whatever other writers do.
// Params: $jobs ([{namespace, name}], sorted). Returns one row: jobs, a list of one map per existing
//   job: {namespace, name, digests ([string])}.
// Its plan starts from unique-key seeks, so statistics cannot improve it: keep the cached plan (cypher/README.md).
CYPHER replan=skip
UNWIND $jobs AS ref
MATCH (j:Job {namespace: ref.namespace, name: ref.name})
SET j.name = j.name
RETURN collect({namespace: j.namespace, name: j.name, digests: coalesce(j.facetDigests, [])}) AS jobs
