/**
 * npm run neo4j:fetch — downloads the local Neo4j server's jars ahead of the first start (for an
 * image build, or a machine that will later run without Maven). Honours NEO4J_LOCAL_VERSION and
 * NEO4J_LOCAL_DIR like the service; a no-op when the jars are already cached.
 */
import { loadConfig } from '../../config.js';
import { createLogger } from '../../logger.js';
import { ensureServerJars } from './server.js';

const config = loadConfig({ ...process.env, NEO4J_URI: '' });
if (config.neo4j.kind !== 'local') throw new Error('unreachable: NEO4J_URI was cleared');
const libDir = ensureServerJars(config.neo4j.dir, config.neo4j.version, createLogger(config.logLevel));
console.log(`Neo4j ${config.neo4j.version} server jars: ${libDir}`);
