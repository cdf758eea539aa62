// One run by its service id (a UUID; non-UUID producer ids are mapped by the service first).
// Params: $id. Returns {run: run projection r {.*, reads: [v {.*}], wrote: [v {.*}]}} or no row.
MATCH (r:Run {id: $id})
RETURN r {.*, reads: [(r)-[:READ]->(rv) | rv {.*}], wrote: [(r)-[:WROTE]->(wv) | wv {.*}]} AS run
