// Creates the `default` namespace of a fresh instance (no-op when it exists).
// Params: $now (ISO-8601 string). Returns nothing.
MERGE (n:Namespace {name: 'default'})
  ON CREATE SET n.createdAt = datetime($now), n.updatedAt = datetime($now),
                n.ownerName = 'anonymous', n.description = 'The default global namespace for dataset, job, and run ' +
                  'metadata not belonging to a user-specified namespace.',
                n.isHidden = false
