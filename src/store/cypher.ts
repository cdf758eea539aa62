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
 * subquery `CALL () { … }`, followed by `RETURN <returns>` when the files return values (each then
 * returns one row, and its columns must differ from the other files'). Why: a statement has a fixed
 * cost in Neo4j whatever it does (measured here: about 0.3 ms of CPU each on the 2-core VM, where ten
 * small MERGE statements cost 2-2.5x the CPU of the same ten as subqueries of one), and the driver
 * pays a result per statement.
 *
 * The composite takes one map parameter, `$batch` (see compositeParams), in which file i's parameter
 * `$p` is the key `s<i>_p`. One map, not a parameter per file, because Neo4j keys its plan cache on
 * the parameters' types and, for each list parameter, its size rounded up to 0, 1, 10, 100, …: with
 * ten list parameters nearly every batch shape was a new cache entry, planned anew (1.5 s of CPU per
 * plan of the write composite on the 2-core VM), where a map parameter has no size and gets one plan.
 *
 * Each file stays a statement of its own too (documentation, per-statement profiling); a file's
 * `CYPHER replan=skip` line is dropped here and applies to the whole composite when the first file
 * has it.
 */
export function composite(names: string[], returns: string[] = []): string {
  const parts = names.map((name, i) => {
    const body = cypher(name).replace(/^\s*CYPHER replan=skip\s*\n/, '');
    return `CALL () {\n${body.replace(/\$(\w+)/g, (_, p: string) => `$${COMPOSITE_PARAM}.${compositeKey(i, p)}`).trimEnd()}\n}`;
  });
  const options = /^\s*CYPHER replan=skip/.test(cypher(names[0])) ? 'CYPHER replan=skip\n' : '';
  const tail = returns.length > 0 ? `\nRETURN ${returns.join(', ')}` : '';
  return options + parts.join('\n') + tail;
}

/** The one parameter of a composite statement. */
const COMPOSITE_PARAM = 'batch';

function compositeKey(index: number, param: string): string {
  return `s${index}_${param}`;
}

/** The parameters of `composite(names)` from each file's own parameters, in the same order as `names`. */
export function compositeParams(perFile: Record<string, unknown>[]): Record<string, unknown> {
  const batch: Record<string, unknown> = {};
  perFile.forEach((params, i) => {
    for (const [p, value] of Object.entries(params)) batch[compositeKey(i, p)] = value;
  });
  return { [COMPOSITE_PARAM]: batch };
}

/** Splits a file of several statements (schema files) on `;` at line ends, dropping comments. */
export function statements(text: string): string[] {
  return text
    .split(/;\s*(?:\r?\n|$)/)
    .map((s) => s.replace(/^\s*\/\/.*$/gm, '').trim())
    .filter((s) => s.length > 0);
}
