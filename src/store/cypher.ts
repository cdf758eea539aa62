/**
 * Loads the parameterized queries kept under cypher/. Query text is read once and never built from
 * user input, so plans stay cached and injection is impossible.
 */
import fs from 'node:fs';
import path from 'node:path';
import { cypherDir } from '../paths.js';

const cache = new Map<string, string>();

/** `cypher('namespaces/list')` → the text of cypher/namespaces/list.cypher. */
export function cypher(name: string): string {
  let text = cache.get(name);
  if (text === undefined) {
    text = fs.readFileSync(path.join(cypherDir, `${name}.cypher`), 'utf8');
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
