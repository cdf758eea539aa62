/**
 * npm run neo4j:fetch — downloads the local Neo4j server's jars ahead of the first start (for an
 * image build, or a machine that will later run without Maven), and builds the service's procedures
 * jar (src/neo4j/procedures/) against them: the one to copy into the plugins folder of a Neo4j of
 * your own. Honours NEO4J_LOCAL_VERSION and NEO4J_LOCAL_DIR like the service; a no-op when both are
 * already cached.
 */
import { loadConfig } from '../../config.js';
import { createLogger } from '../../logger.js';
import { ensureServerJars } from './server.js';
import { ensureProceduresJar } from './procedures.js';

const config = loadConfig({ ...process.env, NEO4J_URI: '' });
if (config.neo4j.kind !== 'local') throw new Error('unreachable: NEO4J_URI was cleared');
const logger = createLogger(config.logLevel);
const libDir = ensureServerJars(config.neo4j.dir, config.neo4j.version, logger);
console.log(`Neo4j ${config.neo4j.version} server jars: ${libDir}`);
const procedures = ensureProceduresJar(config.neo4j.dir, libDir, config.neo4j.version, logger);
console.log(`lineage procedures: ${procedures ?? 'not built (see the warning above)'}`);
