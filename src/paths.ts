import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The project root (the folder holding package.json), whether running from src/ via tsx or from dist/. */
function findRoot(start: string): string {
  let dir = start;
  for (;;) {
    if (fs.existsSync(path.join(dir, 'package.json')) && fs.existsSync(path.join(dir, 'cypher'))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`cannot find the project root above ${start}`);
    dir = parent;
  }
}

export const projectRoot = findRoot(path.dirname(fileURLToPath(import.meta.url)));
export const cypherDir = path.join(projectRoot, 'cypher');

/** The service's version (package.json), as the OpenAPI document states it. */
export const packageVersion: string = (
  JSON.parse(fs.readFileSync(path.join(projectRoot, 'package.json'), 'utf8')) as { version: string }
).version;
