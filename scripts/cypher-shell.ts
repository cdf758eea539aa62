/**
 * npm run cypher — a Cypher shell on the service's own Neo4j, found the way the service finds it:
 * NEO4J_URI (+ NEO4J_USER/NEO4J_PASSWORD/NEO4J_DATABASE) when set, otherwise the local server under
 * NEO4J_LOCAL_DATA_DIR (the one `npm start` runs; if it is not running, this starts it, and stops it
 * on exit).
 *
 *   npm run cypher                                   interactive: statements end with `;`
 *   npm run cypher -- --file cypher/examples/impact-blast-radius.cypher --param namespace=warehouse --param name=orders
 *   npm run cypher -- -e 'MATCH (j:Job) RETURN count(j)'
 *
 * Read-only by default: every statement runs in a READ transaction (Neo4j refuses writes in one);
 * `--write` runs them in WRITE transactions. `--format table|json|csv` (default table).
 * Parameter values are JSON when they parse as JSON (numbers, true, null, "quoted", [lists], {maps}),
 * else plain strings: `--param name=2024` passes an integer, `--param 'name="2024"'` the string.
 * Exit code 0, 1 on a Cypher error, 2 on a usage or configuration error.
 */
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import neo4j, { type Driver, type QueryResult } from 'neo4j-driver';
import { loadConfig, ConfigError, type LocalNeo4j } from '../src/config.js';
import { createDriver } from '../src/neo4j/runtime.js';
import { LocalNeo4jServer } from '../src/neo4j/local/server.js';
import { toNative } from '../src/store/db.js';
import { iso } from '../src/store/time.js';
import { csvLine } from '../src/http/csv.js';

export interface ShellOptions {
  file: string | null;
  query: string | null;
  params: Record<string, unknown>;
  write: boolean;
  format: 'table' | 'json' | 'csv';
}

export class UsageError extends Error {}

const USAGE =
  `usage: npm run cypher [-- [--file FILE | -e QUERY] [--param key=value]... [--write] [--format ` + `table|json|csv]]`;

/** A parameter value: JSON when it parses (integers as Cypher integers), otherwise the text itself. */
export function paramValue(text: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return text;
  }
  const ints = (v: unknown): unknown =>
    Number.isInteger(v)
      ? neo4j.int(v as number)
      : Array.isArray(v)
        ? v.map(ints)
        : v && typeof v === 'object'
          ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, ints(x)]))
          : v;
  return ints(value);
}

export function parseArgs(argv: string[]): ShellOptions {
  const opts: ShellOptions = { file: null, query: null, params: {}, write: false, format: 'table' };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new UsageError(`${arg} needs a value\n${USAGE}`);
      return v;
    };
    if (arg === '--file' || arg === '-f') opts.file = value();
    else if (arg === '--query' || arg === '-e') opts.query = value();
    else if (arg === '--write') opts.write = true;
    else if (arg === '--format') {
      const f = value();
      if (f !== 'table' && f !== 'json' && f !== 'csv')
        throw new UsageError(`--format takes table, json or csv, got '${f}'`);
      opts.format = f;
    } else if (arg === '--param' || arg === '-p') {
      const kv = value();
      const eq = kv.indexOf('=');
      if (eq <= 0) throw new UsageError(`--param takes key=value, got '${kv}'`);
      opts.params[kv.slice(0, eq)] = paramValue(kv.slice(eq + 1));
    } else if (arg === '--help' || arg === '-h') throw new UsageError(USAGE);
    else throw new UsageError(`unknown argument '${arg}'\n${USAGE}`);
  }
  if (opts.file && opts.query) throw new UsageError('--file and -e exclude each other');
  return opts;
}

/** Statements of a script: split on `;` at the end of a line, `//` comment lines dropped. */
export function statements(text: string): string[] {
  return text
    .split(/;[ \t]*(?:\r?\n|$)/)
    .map((s) => s.replace(/^[ \t]*\/\/.*$/gm, '').trim())
    .filter(Boolean);
}

/** A result value as text: temporal values as ISO, nodes and relationships as their properties. */
function plain(value: unknown): unknown {
  if (neo4j.isDateTime(value) || neo4j.isDate(value) || neo4j.isLocalDateTime(value)) return iso(value);
  if (value instanceof neo4j.types.Node) return { labels: value.labels, ...(plain(value.properties) as object) };
  if (value instanceof neo4j.types.Relationship) return { type: value.type, ...(plain(value.properties) as object) };
  if (value instanceof neo4j.types.Path)
    return value.segments.map((s) => [plain(s.start), plain(s.relationship), plain(s.end)]);
  if (Array.isArray(value)) return value.map(plain);
  if (value && typeof value === 'object' && !neo4j.isInt(value))
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]));
  return toNative(value);
}

function render(result: QueryResult, format: ShellOptions['format'], out: (s: string) => void): void {
  const keys = result.records[0]?.keys.map(String) ?? [];
  const rows = result.records.map((r) => keys.map((k) => plain(r.get(k))));
  if (format === 'json') {
    out(
      `${JSON.stringify(
        rows.map((row) => Object.fromEntries(keys.map((k, i) => [k, row[i]]))),
        null,
        2,
      )}\n`,
    );
    return;
  }
  if (format === 'csv') {
    if (keys.length) out(csvLine(keys));
    for (const row of rows) out(csvLine(row));
    return;
  }
  if (keys.length) {
    const cells = rows.map((row) => row.map((v) => (typeof v === 'string' ? v : (JSON.stringify(v) ?? 'null'))));
    const widths = keys.map((k, i) => Math.min(60, Math.max(k.length, ...cells.map((c) => c[i].length))));
    const line = (vals: string[]) =>
      '| ' +
      vals.map((v, i) => (v.length > widths[i] ? `${v.slice(0, widths[i] - 1)}…` : v.padEnd(widths[i]))).join(' | ') +
      ' |\n';
    const rule = `+${widths.map((w) => '-'.repeat(w + 2)).join('+')}+\n`;
    out(rule + line(keys) + rule + cells.map(line).join('') + rule);
  }
  const counters = result.summary.counters;
  const changes = counters.containsUpdates()
    ? ` (${Object.entries(counters.updates())
        .filter(([, n]) => n > 0)
        .map(([k, n]) => `${k}: ${n}`)
        .join(', ')})`
    : '';
  out(`${rows.length} row${rows.length === 1 ? '' : 's'}${changes}\n`);
}

export interface Connection {
  driver: Driver;
  database: string;
  uri: string;
  browserUrl: string | null;
  close(): Promise<void>;
}

function runningLocalServer(cfg: LocalNeo4j): { uri: string; browserUrl: string | null } | null {
  try {
    const pid = Number(fs.readFileSync(path.join(cfg.homeDir, 'run', 'neo4j.pid'), 'utf8').trim());
    process.kill(pid, 0);
    if (
      fs.existsSync(`/proc/${pid}/cmdline`) &&
      !fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('CommunityEntryPoint')
    )
      return null;
    const conf = fs.readFileSync(path.join(cfg.homeDir, 'conf', 'neo4j.conf'), 'utf8');
    const bolt = /^server\.bolt\.listen_address=(.+)$/m.exec(conf)?.[1]?.trim();
    const http = /^server\.http\.enabled=true$/m.test(conf)
      ? /^server\.http\.listen_address=(.+)$/m.exec(conf)?.[1]?.trim()
      : undefined;
    return bolt ? { uri: `bolt://${bolt}`, browserUrl: http ? `http://${http}/browser/` : null } : null;
  } catch {
    return null;
  }
}

/** The service's Neo4j: NEO4J_URI, or the running local server, or a local server started for this shell. */
export async function connect(
  env: NodeJS.ProcessEnv = process.env,
  log: (s: string) => void = () => undefined,
): Promise<Connection> {
  const config = loadConfig(env).neo4j;
  if (config.kind === 'external') {
    const driver = createDriver(config.uri, config.user, config.password);
    return { driver, database: config.database, uri: config.uri, browserUrl: null, close: () => driver.close() };
  }
  const running = runningLocalServer(config);
  if (running) {
    const driver = createDriver(running.uri, '', '');
    try {
      await driver.verifyConnectivity();
      return {
        driver,
        database: config.database,
        uri: running.uri,
        browserUrl: running.browserUrl,
        close: () => driver.close(),
      };
    } catch {
      await driver.close();
    }
  }
  log(`starting the local Neo4j (${config.homeDir}); it stops when this shell exits\n`);
  const server = new LocalNeo4jServer(config);
  await server.start();
  const driver = createDriver(server.uri, '', '');
  return {
    driver,
    database: config.database,
    uri: server.uri,
    browserUrl: server.browserUrl,
    async close() {
      await driver.close();
      await server.stop();
    },
  };
}

/** Runs one statement in a READ (or, with --write, WRITE) transaction. */
export async function runStatement(
  conn: Connection,
  text: string,
  params: Record<string, unknown>,
  write: boolean,
): Promise<QueryResult> {
  const session = conn.driver.session({
    database: conn.database,
    defaultAccessMode: write ? neo4j.session.WRITE : neo4j.session.READ,
  });
  try {
    const config = { metadata: { app: 'lineage-cypher-shell' } };
    return write
      ? await session.executeWrite((tx) => tx.run(text, params), config)
      : await session.executeRead((tx) => tx.run(text, params), config);
  } finally {
    await session.close();
  }
}

function errorText(err: unknown): string {
  const e = err as { code?: string; message?: string };
  const readOnly = /access mode|read only|not allowed/i.test(e.message ?? '') && /write/i.test(e.message ?? '');
  const hint = readOnly ? '\n(the shell is read-only; run it with --write to allow writes)' : '';
  return `${e.code ? `${e.code}: ` : ''}${e.message ?? String(err)}${hint}\n`;
}

async function interactive(conn: Connection, opts: ShellOptions): Promise<number> {
  const params = { ...opts.params };
  const rl = readline.createInterface({ input: process.stdin, output: process.stdout, terminal: process.stdin.isTTY });
  const out = (s: string) => process.stdout.write(s);
  out(
    `Connected to ${conn.uri} (database ${conn.database}), ` +
      `${opts.write ? 'READ/WRITE' : 'read-only (--write to allow writes)'}.\n`,
  );
  if (conn.browserUrl) out(`Neo4j Browser: ${conn.browserUrl}\n`);
  out(`End statements with ';'. :param key=value, :params, :help, :exit. Examples: cypher/examples/.\n`);
  let buffer = '';
  const prompt = () => rl.setPrompt(buffer ? '     > ' : 'cypher> ');
  prompt();
  rl.prompt();
  for await (const line of rl) {
    const trimmed = line.trim();
    if (!buffer && trimmed.startsWith(':')) {
      const [cmd, ...rest] = trimmed.split(/\s+/);
      if (cmd === ':exit' || cmd === ':quit') break;
      if (cmd === ':params') out(`${JSON.stringify(plain(params), null, 2)}\n`);
      else if (cmd === ':param') {
        const kv = rest.join(' ');
        const eq = kv.indexOf('=');
        if (eq <= 0) out('usage: :param key=value\n');
        else params[kv.slice(0, eq).trim()] = paramValue(kv.slice(eq + 1).trim());
      } else out(':param key=value   set a parameter ($key)\n:params            show them\n:exit              leave\n');
    } else {
      buffer += `${line}\n`;
      if (/;\s*$/.test(buffer)) {
        for (const text of statements(buffer)) {
          const t0 = performance.now();
          try {
            render(await runStatement(conn, text, params, opts.write), opts.format, out);
            out(`(${Math.round(performance.now() - t0)} ms)\n`);
          } catch (err) {
            out(errorText(err));
          }
        }
        buffer = '';
      }
    }
    prompt();
    rl.prompt();
  }
  rl.close();
  return 0;
}

export async function main(argv: string[]): Promise<number> {
  let opts: ShellOptions;
  try {
    opts = parseArgs(argv);
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n`);
    return 2;
  }
  let conn: Connection;
  try {
    conn = await connect(process.env, (s) => process.stderr.write(s));
  } catch (err) {
    process.stderr.write(
      `${err instanceof ConfigError ? err.message : `could not reach Neo4j: ${(err as Error).message}`}\n`,
    );
    return 2;
  }
  try {
    if (!opts.file && !opts.query) return await interactive(conn, opts);
    const text = opts.file ? fs.readFileSync(opts.file, 'utf8') : opts.query!;
    for (const statement of statements(text)) {
      try {
        render(await runStatement(conn, statement, opts.params, opts.write), opts.format, (s) =>
          process.stdout.write(s),
        );
      } catch (err) {
        process.stderr.write(errorText(err));
        return 1;
      }
    }
    return 0;
  } finally {
    await conn.close();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err) => {
      process.stderr.write(`${(err as Error).stack ?? err}\n`);
      process.exit(1);
    },
  );
}
