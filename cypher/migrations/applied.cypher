// Whether a data migration has been applied to this database (a (:Migration {name}) node records it).
// Params: $name. Returns one row: applied (boolean).
OPTIONAL MATCH (m:Migration {name: $name})
RETURN m IS NOT NULL AS applied
