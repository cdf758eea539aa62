// Creates what a fresh instance starts with (no-op for what exists): the `default` namespace, and the
// `default` source, which datasets whose producers named no dataSource facet come from (as in Marquez:
// their sourceName is `default`).
// Params: $now (ISO-8601 string). Returns nothing.
MERGE (n:Namespace {name: 'default'})
  ON CREATE SET n.createdAt = datetime($now), n.updatedAt = datetime($now),
                n.ownerName = 'anonymous', n.description = 'The default global namespace for dataset, job, and run metadata not belonging to a user-specified namespace.',
                n.isHidden = false
MERGE (s:Source {name: 'default'})
  ON CREATE SET s.createdAt = datetime($now), s.updatedAt = datetime($now), s.type = 'default', s.connectionUrl = null,
                s.description = 'The source of datasets that name no dataSource.'
