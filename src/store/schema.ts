/**
 * Applies cypher/schema/*.cypher (constraints, indexes) in file order. Every statement uses
 * IF NOT EXISTS, so this runs at each start and on databases that already hold data.
 */
import fs from 'node:fs';
import path from 'node:path';
import { cypherDir } from '../paths.js';
import { statements } from './cypher.js';
import type { Db } from './db.js';

export function schemaStatements(): string[] {
  const dir = path.join(cypherDir, 'schema');
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.cypher'))
    .sort()
    .flatMap((f) => statements(fs.readFileSync(path.join(dir, f), 'utf8')));
}

export async function applySchema(db: Db): Promise<number> {
  const all = schemaStatements();
  // Schema commands cannot share a transaction with writes, so each runs in its own.
  for (const stmt of all) {
    await db.write({ op: 'schema' }, (tx) => tx.run(stmt));
  }
  await db.read({ op: 'schema-await' }, (tx) => tx.run('CALL db.awaitIndexes(300)'));
  return all.length;
}
