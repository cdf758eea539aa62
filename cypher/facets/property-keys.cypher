// The property keys facets have created in the database (`facet.<name>`, `jobFacet.<name>`): the
// service caps their number (FACET_KEYS_MAX), since Neo4j never frees a property key.
// Params: $facet ('facet.'), $jobFacet ('jobFacet.'). Returns one row {keys: [string]}.
CALL db.propertyKeys() YIELD propertyKey
WHERE propertyKey STARTS WITH $facet OR propertyKey STARTS WITH $jobFacet
RETURN collect(propertyKey) AS keys
