// One data source by name; `default` (when not stored) is the source of the datasets that name no
// dataSource, dated by them (see list.cypher).
// Params: $name. Returns {source: s {.*}} or no row.
OPTIONAL MATCH (s:Source {name: $name})
OPTIONAL CALL (s) {
  WITH s WHERE s IS NULL AND $name = 'default'
  MATCH (d:Dataset) WHERE d.sourceName IS NULL AND coalesce(d.isAlias, false) = false
  WITH min(d.createdAt) AS createdAt, max(d.updatedAt) AS updatedAt
  WHERE createdAt IS NOT NULL
  RETURN {name: 'default', type: null, connectionUrl: null, description: 'The source of datasets that name no ' +
    'dataSource.', createdAt: createdAt, updatedAt: updatedAt} AS implied
}
WITH coalesce(s {.*}, implied) AS source WHERE source IS NOT NULL
RETURN source
