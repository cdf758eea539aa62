// Records that a data migration has been applied.
// Params: $name, $now (ISO). Returns nothing.
MERGE (m:Migration {name: $name})
  ON CREATE SET m.appliedAt = datetime($now)
