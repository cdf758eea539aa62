// Creates a tag or replaces its description (PUT /tags/{tag}).
// Params: $name, $description (string or null), $now (ISO-8601 string). Returns {tag: t {.*}}.
MERGE (t:Tag {name: $name})
  ON CREATE SET t.createdAt = datetime($now)
SET t.description = $description
RETURN t {.*} AS tag
