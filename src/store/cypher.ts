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
 * them on every run (the ingest statements run in every ingest transaction).
 */
export function cypher(name: string): string {
  let text = cache.get(name);
  if (text === undefined) {
    text = cypherSource(name).replace(/^[ \t]*\/\/.*(?:\r?\n|$)/gm, '');
    cache.set(name, text);
  }
  return text;
}

/**
 * Several of the files above as one statement: each file's statement, in the given order, in its own
 * unit subquery `CALL () { … }`, with its parameter `$p` renamed `$s<i>_p` (i: its position) so that
 * files may share parameter names. A statement has a fixed cost in Neo4j whatever it does (measured
 * here: about 0.3 ms of CPU each on the 2-core VM, where ten small MERGE statements cost 2-2.5x the
 * CPU of the same ten as subqueries of one), and the driver pays a result per statement. Each file
 * stays a statement of its own too (documentation, per-statement profiling); a file's
 * `CYPHER replan=skip` line is dropped here and applies to the whole composite when the first file
 * has it.
 */
export function composite(names: string[]): string {
  const parts = names.map((name, i) => {
    const body = cypher(name).replace(/^\s*CYPHER replan=skip\s*\n/, '');
    return `CALL () {\n${body.replace(/\$(\w+)/g, (_, p: string) => `$${compositeParam(i, p)}`).trimEnd()}\n}`;
  });
  const options = /^\s*CYPHER replan=skip/.test(cypher(names[0])) ? 'CYPHER replan=skip\n' : '';
  return options + parts.join('\n');
}

/** The parameter name that `composite(names)` gives to parameter `param` of its `index`-th file. */
export function compositeParam(index: number, param: string): string {
  return `s${index}_${param}`;
}

/** Splits a file of several statements (schema files) on `;` at line ends, dropping comments. */
export function statements(text: string): string[] {
  return text
    .split(/;\s*(?:\r?\n|$)/)
    .map((s) => s.replace(/^\s*\/\/.*$/gm, '').trim())
    .filter((s) => s.length > 0);
}
