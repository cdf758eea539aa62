// Finds which of the given dataset names are symlink aliases, and of which primary dataset.
// Params: $datasets ([{namespace, name}]). Returns rows {from: {namespace, name}, to: {namespace, name}}.
UNWIND $datasets AS ref
MATCH (:Dataset {namespace: ref.namespace, name: ref.name})-[:ALIAS_OF]->(p:Dataset)
RETURN {namespace: ref.namespace, name: ref.name} AS from, {namespace: p.namespace, name: p.name} AS to
