// The primary dataset of each symlink alias name among the given names, for column lineage: a
// columnLineage facet may name an input by an alias (a table name another producer declared as a
// symlink of a path), while its FEEDS edge starts at the primary's column (ingest resolves aliases).
// Params: $datasets ([{namespace, name}])
// Returns one row per name that is an alias: {namespace, name (the alias), primaryNamespace, primaryName}.
UNWIND $datasets AS ref
MATCH (a:Dataset {namespace: ref.namespace, name: ref.name})-[:ALIAS_OF]->(p:Dataset)
RETURN a.namespace AS namespace, a.name AS name, p.namespace AS primaryNamespace, p.name AS primaryName
