// Creates a data source or replaces its type, connection URL and description (PUT /sources/{source},
// Marquez's legacy write API). Sources otherwise come from dataSource facets (ingest/datasets-upsert.cypher).
// Params: $name, $type, $connectionUrl, $description (string or null), $now (ISO-8601 string).
// Returns {source: s {.*}}.
MERGE (s:Source {name: $name})
  ON CREATE SET s.createdAt = datetime($now)
SET s.type = $type, s.connectionUrl = $connectionUrl, s.description = $description, s.updatedAt = datetime($now)
RETURN s {.*} AS source
