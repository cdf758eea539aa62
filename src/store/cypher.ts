/**
 * Loads the parameterized queries kept under cypher/. Query text is read once and never built from
 * user input, so plans stay cached and injection is impossible.
 */
import fs from 'node:fs';
import path from 'node:path';
import { cypherDir } from '../paths.js';
import type { ParamsOf, QueryName, RowOf } from './catalogue.js';
import type { Result } from 'neo4j-driver';
import type { TxRunner } from './db.js';

/** A file the loader reads: a query of the catalogue (catalogue.ts), or an ad hoc example (tested on its own). */
export type CypherFile = QueryName | `examples/${string}`;

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
export function cypher(name: CypherFile): string {
  let text = cache.get(name);
  if (text === undefined) {
    text = cypherSource(name).replace(/^[ \t]*\/\/.*(?:\r?\n|$)/gm, '');
    cache.set(name, text);
  }
  return text;
}

/**
 * Runs cypher/<name>.cypher in `tx` with its declared parameters (src/store/catalogue.ts); its records
 * are typed by the catalogue. For statements inside a unit of work; a single statement is `Db.query`
 * or `Db.command`.
 */
export function runQuery<K extends QueryName>(tx: TxRunner, name: K, params: ParamsOf<K>): Result<RowOf<K>> {
  return tx.run<RowOf<K>>(cypher(name), params);
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
export function composite(names: readonly QueryName[], returns: string[] = []): string {
  const parts = names.map((name, i) => {
    const body = cypher(name).replace(/^\s*CYPHER replan=skip\s*\n/, '');
    const renamed = body.replace(/\$(\w+)/g, (_, p: string) => `$${COMPOSITE_PARAM}.${compositeKey(i, p)}`);
    return `CALL () {\n${renamed.trimEnd()}\n}`;
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

// ---- text of the traversal queries: compacted, bounded, directed ----

const compacted = new Map<string, string>();

/**
 * The query text as sent, for queries run on every read request: whole-line `//` comments dropped and
 * whitespace collapsed, so every request carries less text.
 */
export function compactCypher(name: QueryName): string {
  let text = compacted.get(name);
  if (text === undefined) {
    text = cypher(name).replace(/\s+/g, ' ').trim();
    compacted.set(name, text);
  }
  return text;
}

const MAX_RELS_MARK = /\b\d+\s*\/\*maxRels\*\//g;

/**
 * The text of cypher/<name>.cypher (compacted) with the quantifier bound marked `/*maxRels*\/` set to
 * `maxRels` (a validated integer: Cypher has no parameters there). Texts differ only in that number
 * (and the walk's direction), so there is one cached plan per direction and depth.
 */
export function withMaxRels(name: QueryName, maxRels: number): string {
  if (!Number.isSafeInteger(maxRels) || maxRels < 0 || maxRels > 1000)
    throw new Error(`invalid traversal bound ${maxRels}`);
  const text = compactCypher(name);
  if (!text.includes('/*maxRels*/')) throw new Error(`cypher/${name}.cypher has no /*maxRels*/ bound`);
  return text.replace(MAX_RELS_MARK, `${maxRels} /*maxRels*/`);
}

export type WalkDirection = 'downstream' | 'upstream' | 'both';
const DOWNSTREAM_MARK = '/*downstream*/';

/**
 * The text with every relationship marked `/*downstream*\/` (written as it is walked downstream, along
 * or against its arrow) walked `direction`: turned against its arrow for upstream (`-[…]->` ⇄
 * `<-[…]-`), its arrow dropped for both (the direction ignored). Brackets inside the relationship
 * (list indexing) are matched, so any predicate may sit in it. One place does this for every query.
 */
export function directed(text: string, direction: WalkDirection): string {
  if (direction === 'downstream') return text;
  let out = '';
  let rest = text;
  for (let at = rest.indexOf(DOWNSTREAM_MARK); at !== -1; at = rest.indexOf(DOWNSTREAM_MARK)) {
    let head = rest.slice(0, at).trimEnd();
    const tail = rest.slice(at + DOWNSTREAM_MARK.length);
    const outgoing = head.endsWith(']->');
    if (!outgoing && !head.endsWith(']-')) throw new Error('a /*downstream*/ mark must follow a relationship pattern');
    head = head.slice(0, head.length - (outgoing ? 3 : 2));
    // head ends just before the relationship's closing ']': find its opening '['.
    let depth = 1;
    let i = head.length - 1;
    for (; i >= 0 && depth > 0; i--) {
      if (head[i] === ']') depth++;
      else if (head[i] === '[') depth--;
    }
    const open = i + 1;
    const body = head.slice(open + 1);
    let before = head.slice(0, open);
    if (outgoing) {
      if (!before.endsWith('-')) throw new Error('malformed relationship before /*downstream*/');
      before = before.slice(0, -1);
    } else {
      if (!before.endsWith('<-')) throw new Error('malformed relationship before /*downstream*/');
      before = before.slice(0, -2);
    }
    if (direction === 'both') out += `${before}-[${body}]-/*both*/`;
    else out += outgoing ? `${before}<-[${body}]-/*upstream*/` : `${before}-[${body}]->/*upstream*/`;
    rest = tail;
  }
  return out + rest;
}
