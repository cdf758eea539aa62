/**
 * npm run openapi [-- --routes]: prints the OpenAPI document the service serves at
 * /api/v1/openapi.json (for client generators, offline), or with --routes a Markdown table of every
 * route and the scope it needs. Builds the app without connecting to Neo4j.
 */
import neo4j from 'neo4j-driver';
import { createApp } from '../src/app.js';
import { createLogger } from '../src/logger.js';
import { Db } from '../src/store/db.js';

const driver = neo4j.driver('bolt://127.0.0.1:1');
const app = createApp({ db: new Db(driver, 'neo4j', 1000), logger: createLogger('silent'), bodyLimitBytes: 1 });
const doc = app.openapi();
if (process.argv.includes('--routes')) {
  console.log('| Method | Path | Scope | Summary |\n|---|---|---|---|');
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      console.log(
        `| ${method.toUpperCase()} | \`${path}\` | ${op['x-scope']} | ` +
          `${op.summary}${op.deprecated ? ' (deprecated)' : ''} |`,
      );
    }
  }
} else {
  console.log(JSON.stringify(doc, null, 2));
}
await driver.close();
