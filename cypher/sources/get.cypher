// One data source by name.
// Params: $name. Returns {source: s {.*}} or no row.
MATCH (s:Source {name: $name})
RETURN s {.*} AS source
