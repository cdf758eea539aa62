// One run by its service id (a UUID; non-UUID producer ids are mapped by the service first).
// Params: $id. Returns {run: run projection r {.*, reads: [version ref], wrote: [version ref]}} or no row.
MATCH (r:Run {id: $id})
RETURN r {.*, reads: [(r)-[rd:READ]->(rv) | rv {.id, .namespace, .name, facets: [k IN keys(rd)
  WHERE k STARTS WITH 'facet.' | [k, rd[k]]]}], wrote: [(r)-[:WROTE]->(wv) | wv {.id, .namespace, .name,
  facets: [k IN keys(wv) WHERE k STARTS WITH 'facet.' | [k, wv[k]]]}]} AS run
