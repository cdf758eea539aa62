/**
 * Loads the parameterized queries kept under cypher/. Query text is read once and never built from
 * user input, so plans stay cached and injection is impossible.
 */
import fs from 'node:fs';
import path from 'node:path';
import { cypherDir } from '../paths.js';

const cache = new Map<string, string>();

/** The file cypher/<name>.cypher as written, documentation included. */
export function cypherSource(name: string): string {
  return fs.readFileSync(path.join(cypherDir, `${name}.cypher`), 'utf8');
}

/**
 * `cypher('namespaces/list')` → the statement in cypher/namespaces/list.cypher, without its
 * whole-line comments: they document the file, and Neo4j need not receive, decode and pre-parse
 * them on every run (the ingest statements run a dozen times per transaction).
 */
export function cypher(name: string): string {
  let text = cache.get(name);
  if (text === undefined) {
    text = cypherSource(name).replace(/^[ \t]*\/\/.*(?:\r?\n|$)/gm, '');
    cache.set(name, text);
  }
  return text;
}

/** Splits a file of several statements (schema files) on `;` at line ends, dropping comments. */
export function statements(text: string): string[] {
  return text
    .split(/;\s*(?:\r?\n|$)/)
    .map((s) => s.replace(/^\s*\/\/.*$/gm, '').trim())
    .filter((s) => s.length > 0);
}
