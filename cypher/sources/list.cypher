// Data sources ordered by name, one page, with the total. Besides the stored ones, the `default`
// source (as in Marquez) when some dataset names no dataSource: its sourceName reads `default`
// (src/store/mappers.ts), and the source is dated by those datasets, so it is the same whatever the
// order events arrived in. (A stored source named `default`, e.g. from a dataSource facet, wins.)
// Params: $offset, $limit (integers). Returns one row {totalCount, sources: [s {.*}]}.
CALL () {
  MATCH (s:Source)
  RETURN s {.*} AS source
  UNION
  MATCH (d:Dataset) WHERE d.sourceName IS NULL AND coalesce(d.isAlias, false) = false
  WITH min(d.createdAt) AS createdAt, max(d.updatedAt) AS updatedAt
  WHERE createdAt IS NOT NULL AND NOT EXISTS { MATCH (:Source {name: 'default'}) }
  RETURN {name: 'default', type: null, connectionUrl: null, description: 'The source of datasets that name no ' +
    'dataSource.', createdAt: createdAt, updatedAt: updatedAt} AS source
}
WITH source ORDER BY source.name
WITH collect(source) AS found
RETURN size(found) AS totalCount, found[$offset..$offset + $limit] AS sources
