// Creates or replaces a namespace's metadata (PUT /namespaces/{namespace}); a hidden namespace is un-hidden.
// Params: $name, $ownerName (string), $description (string or null), $now (ISO-8601 string).
// Returns one row {namespace: n {.*}}.
MERGE (n:Namespace {name: $name})
  ON CREATE SET n.createdAt = datetime($now)
SET n.ownerName = $ownerName, n.description = $description, n.isHidden = false, n.updatedAt = datetime($now)
RETURN n {.*} AS namespace
