// One namespace by name (hidden ones too, so PUT/GET after DELETE can show isHidden).
// Params: $name. Returns {namespace: map} or no row.
MATCH (n:Namespace {name: $name})
RETURN n {.*} AS namespace
