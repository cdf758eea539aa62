/**
 * Process configuration, read once from environment variables and validated up front so that a
 * typo fails the start with a message naming the variable instead of surfacing later as odd behaviour.
 */
import fs from 'node:fs';
import path from 'node:path';
import { projectRoot } from './paths.js';
import { KeyFileError, parseKeys, type ApiKey } from './auth/keys.js';
import { parseDuration, type Duration } from './domain/duration.js';
import { DEFAULT_HEAP_GROWTH_PERCENT } from './memory.js';
import { DEFAULT_BODY_BYTES_IN_FLIGHT } from './http/body-budget.js';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export interface ExternalNeo4j {
  kind: 'external';
  uri: string;
  user: string;
  password: string;
  database: string;
}

export interface LocalNeo4j {
  kind: 'local';
  /** Where jars are cached (and, by default, the server's home). */
  dir: string;
  /** The server's home: conf, data (the graph), logs. */
  homeDir: string;
  /** 0 = pick a free port. */
  boltPort: number;
  heap: string;
  pageCache: string;
  /** Extra JVM flags for the local server (diagnostics). */
  jvmArgs: string[];
  version: string;
  database: string;
  /** Serve Neo4j Browser on 127.0.0.1:browserPort (NEO4J_LOCAL_BROWSER=true); null: HTTP stays off. */
  browserPort: number | null;
}

export type IngestProfile = 'off' | 'statements' | 'phases';

export interface Config {
  host: string;
  port: number;
  logLevel: LogLevel;
  /** Maximum accepted request body, in bytes (after decompression). */
  bodyLimitBytes: number;
  /** Request-body bytes in flight at once, over all requests (http/body-budget.ts); 0 = no cap. */
  bodyBytesInFlight: number;
  /** Upper bound of any read transaction (ms); lineage traversals answer 504 past it. */
  queryTimeoutMs: number;
  /** Upper bound of one ingest transaction (ms): generous, since aborting a write only makes producers retry. */
  ingestTimeoutMs: number;
  /** Ingest transactions in flight at once (group commit writers). */
  ingestWriters: number;
  /** Most events in one ingest transaction. */
  ingestMaxBatch: number;
  /** Most events waiting for an ingest transaction; past it, events are refused with 503 (backpressure). */
  ingestMaxQueue: number;
  /** Longest an event may wait for its ingest transaction (ms); past it (or expected past it), 503. */
  ingestMaxWaitMs: number;
  /** Query API requests (everything but ingestion) running at once; more wait for a slot. */
  queryMaxConcurrent: number;
  /** Longest a query API request waits for a slot (ms) before a 503. */
  queryMaxWaitMs: number;
  /** Resident memory (bytes) above which one query runs at a time; 0 = off. */
  queryMemorySoftLimitBytes: number;
  /** How far (%) V8's heap may grow past its live size between full collections (src/memory.ts); 0 = V8's own. */
  heapGrowthPercent: number;
  /** Time allowed to receive a whole request, headers and body (ms); slower clients are cut off with 408. */
  requestTimeoutMs: number;
  /** Most facet property keys (`facet.<name>`, `jobFacet.<name>`) in the database; events adding more get 422. */
  facetKeysMax: number;
  /** While another ingest transaction is in flight, how long (ms) a free writer waits for a fuller batch. */
  ingestLingerMs: number;
  /** INGEST_PROFILE: timings of the ingest statements or phases (src/store/ingest.ts), for diagnosis. */
  ingestProfile: IngestProfile;
  /** While another ingest transaction is in flight, the batch a free writer starts without lingering. */
  ingestMinBatch: number;
  /** Time allowed for in-flight requests to finish on SIGTERM before connections are cut. */
  shutdownGraceMs: number;
  /** After ready, rehearsals run while ingestion is idle, this long in all (ms; 0 = none): warm-up.ts. */
  idleWarmUpMs: number;
  /** How far back the lineage graph looks for edges by default (ISO 8601 duration; docs/lineage.md). */
  lineageWindow: Duration;
  neo4j: ExternalNeo4j | LocalNeo4j;
  /** JSON lines, or `pretty` for people (LOG_FORMAT; default: pretty on a terminal, else JSON). */
  logFormat: 'json' | 'pretty';
  /** API keys and scopes (docs/operations.md#authentication). */
  auth: {
    mode: 'off' | 'apikey';
    keys: ApiKey[];
    /** Where the keys came from (API_KEYS_FILE's path, or API_KEYS), for the start-up log. */
    keySource: string | null;
    metricsPublic: boolean;
  };
  /** Browser origins allowed to call the API (CORS_ORIGINS; `*` any); empty: CORS off. */
  corsOrigins: string[];
  /** Trust X-Forwarded-* from a proxy in front (TRUST_PROXY): false, true, or the number of proxies. */
  trustProxy: boolean | number;
}

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    problem: string,
  ) {
    super(`Invalid configuration: ${variable} ${problem}`);
    this.name = 'ConfigError';
  }
}

const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
export const NEO4J_DEFAULT_VERSION = '5.26.30';

type Env = Record<string, string | undefined>;

function str(env: Env, name: string, fallback: string): string {
  const v = env[name];
  if (v === undefined || v === '') return fallback;
  return v;
}

function int(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw.trim())) throw new ConfigError(name, `must be a whole number, got '${raw}'`);
  const n = Number(raw.trim());
  if (n < min || n > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${n}`);
  return n;
}

const SIZE_UNITS: Record<string, number> = {
  '': 1,
  b: 1,
  kb: 1024,
  k: 1024,
  mb: 1024 ** 2,
  m: 1024 ** 2,
  gb: 1024 ** 3,
  g: 1024 ** 3,
};

/** Parses sizes such as `10mb`, `512kb`, `1048576`. */
const MIN_BODY_LIMIT_BYTES = 1024;

export function parseSize(name: string, raw: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([a-zA-Z]*)\s*$/.exec(raw);
  const unit = m ? SIZE_UNITS[m[2].toLowerCase()] : undefined;
  if (!m || unit === undefined) throw new ConfigError(name, `must be a size such as 10mb or 512kb, got '${raw}'`);
  return Math.floor(Number(m[1]) * unit);
}

function duration(env: Env, name: string, fallback: string): Duration {
  const raw = str(env, name, fallback);
  const d = parseDuration(raw);
  if (!d) throw new ConfigError(name, `must be an ISO 8601 duration such as P30D or PT12H, got '${raw}'`);
  return d;
}

function bool(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (/^(true|1|yes)$/i.test(raw.trim())) return true;
  if (/^(false|0|no)$/i.test(raw.trim())) return false;
  throw new ConfigError(name, `must be true or false, got '${raw}'`);
}

function memorySetting(env: Env, name: string, fallback: string): string {
  const v = str(env, name, fallback);
  if (!/^\d+[kmgKMG]$/.test(v)) throw new ConfigError(name, `must look like 512m or 2g, got '${v}'`);
  return v.toLowerCase();
}

export function loadConfig(env: Env = process.env): Config {
  const logLevel = str(env, 'LOG_LEVEL', 'info').toLowerCase() as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError('LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')}, got '${env.LOG_LEVEL}'`);
  }
  const database = str(env, 'NEO4J_DATABASE', 'neo4j');
  if (!/^[A-Za-z][A-Za-z0-9.-]{2,62}$/.test(database)) {
    throw new ConfigError('NEO4J_DATABASE', `is not a valid Neo4j database name: '${database}'`);
  }

  let neo4j: ExternalNeo4j | LocalNeo4j;
  const uri = env.NEO4J_URI;
  if (uri !== undefined && uri !== '') {
    if (!/^(neo4j|bolt)(\+s|\+ssc)?:\/\/[^/\s]+/.test(uri)) {
      throw new ConfigError('NEO4J_URI', `must be a neo4j:// or bolt:// URI (optionally +s or +ssc), got '${uri}'`);
    }
    neo4j = {
      kind: 'external',
      uri,
      user: str(env, 'NEO4J_USER', 'neo4j'),
      password: str(env, 'NEO4J_PASSWORD', ''),
      database,
    };
  } else {
    const version = str(env, 'NEO4J_LOCAL_VERSION', NEO4J_DEFAULT_VERSION);
    if (!/^5\.26\.\d+$/.test(version)) {
      throw new ConfigError('NEO4J_LOCAL_VERSION', `must be a 5.26.x LTS release (Java 17), got '${version}'`);
    }
    const dir = path.resolve(str(env, 'NEO4J_LOCAL_DIR', path.join(projectRoot, '.neo4j')));
    neo4j = {
      kind: 'local',
      dir,
      homeDir: path.resolve(str(env, 'NEO4J_LOCAL_DATA_DIR', path.join(dir, 'server'))),
      boltPort: int(env, 'NEO4J_LOCAL_BOLT_PORT', 7687, 0, 65535),
      heap: memorySetting(env, 'NEO4J_LOCAL_HEAP', '1g'),
      pageCache: memorySetting(env, 'NEO4J_LOCAL_PAGECACHE', '512m'),
      jvmArgs: str(env, 'NEO4J_LOCAL_JVM_ARGS', '').split(/\s+/).filter(Boolean),
      version,
      database,
      browserPort: bool(env, 'NEO4J_LOCAL_BROWSER', false)
        ? int(env, 'NEO4J_LOCAL_BROWSER_PORT', 7474, 0, 65535)
        : null,
    };
  }

  const bodyLimitBytes = parseSize('BODY_LIMIT', str(env, 'BODY_LIMIT', '10mb'));
  // Below this not even a bare event fits: every write would be refused 413.
  if (bodyLimitBytes < MIN_BODY_LIMIT_BYTES)
    throw new ConfigError('BODY_LIMIT', `must be at least 1kb (one small event), got ${bodyLimitBytes} bytes`);
  // Unset: 12 MiB (http/body-budget.ts), or BODY_LIMIT if that is larger, so that raising BODY_LIMIT alone
  // keeps a valid configuration.
  const bodyBytesInFlight = parseSize(
    'BODY_BYTES_IN_FLIGHT',
    str(env, 'BODY_BYTES_IN_FLIGHT', `${Math.max(DEFAULT_BODY_BYTES_IN_FLIGHT, bodyLimitBytes)}b`),
  );
  if (bodyBytesInFlight !== 0 && bodyBytesInFlight < bodyLimitBytes) {
    throw new ConfigError(
      'BODY_BYTES_IN_FLIGHT',
      `must be 0 (no cap) or at least BODY_LIMIT (${bodyLimitBytes} bytes), so that a body BODY_LIMIT allows can ` +
        `be taken; got ${bodyBytesInFlight} bytes`,
    );
  }

  return {
    ...httpSettings(env),
    host: str(env, 'HOST', '0.0.0.0'),
    port: int(env, 'PORT', 5000, 0, 65535),
    logLevel,
    bodyLimitBytes,
    bodyBytesInFlight,
    queryTimeoutMs: int(env, 'QUERY_TIMEOUT_MS', 10_000, 100, 600_000),
    ingestTimeoutMs: int(env, 'INGEST_TIMEOUT_MS', 60_000, 1000, 600_000),
    ingestWriters: int(env, 'INGEST_WRITERS', 2, 1, 16),
    ingestMaxBatch: int(env, 'INGEST_MAX_BATCH', 32, 1, 1000),
    ingestMaxQueue: int(env, 'INGEST_MAX_QUEUE', 10_000, 1, 1_000_000),
    ingestMaxWaitMs: int(env, 'INGEST_MAX_WAIT_MS', 1000, 10, 600_000),
    queryMaxConcurrent: int(env, 'QUERY_MAX_CONCURRENT', 4, 1, 1024),
    queryMaxWaitMs: int(env, 'QUERY_MAX_WAIT_MS', 2000, 0, 600_000),
    queryMemorySoftLimitBytes: parseSize('QUERY_MEMORY_SOFT_LIMIT', str(env, 'QUERY_MEMORY_SOFT_LIMIT', '128mb')),
    heapGrowthPercent: int(env, 'HEAP_GROWTH_PERCENT', DEFAULT_HEAP_GROWTH_PERCENT, 0, 300),
    requestTimeoutMs: int(env, 'REQUEST_TIMEOUT_MS', 30_000, 1000, 3_600_000),
    facetKeysMax: int(env, 'FACET_KEYS_MAX', 5000, 10, 1_000_000),
    ingestLingerMs: int(env, 'INGEST_LINGER_MS', 10, 0, 1000),
    ingestMinBatch: int(env, 'INGEST_MIN_BATCH', 16, 1, 1000),
    shutdownGraceMs: int(env, 'SHUTDOWN_GRACE_MS', 10_000, 0, 600_000),
    idleWarmUpMs: int(env, 'INGEST_IDLE_WARM_UP_MS', 60_000, 0, 3_600_000),
    lineageWindow: duration(env, 'LINEAGE_WINDOW', 'P30D'),
    ingestProfile: ingestProfile(env.INGEST_PROFILE),
    neo4j,
  };
}

/**
 * INGEST_PROFILE (diagnosis and benches): unset or empty → off; `phases` → the time of each planning
 * and writing phase of a batch; anything else → the time of each ingest statement, sent one by one.
 */
export function ingestProfile(value: string | undefined): IngestProfile {
  if (!value) return 'off';
  return value === 'phases' ? 'phases' : 'statements';
}

/** AUTH_MODE, API_KEYS_FILE / API_KEYS, METRICS_PUBLIC, LOG_FORMAT, CORS_ORIGINS, TRUST_PROXY. */
function httpSettings(env: Env): Pick<Config, 'logFormat' | 'auth' | 'corsOrigins' | 'trustProxy'> {
  const logFormat = str(env, 'LOG_FORMAT', process.stdout.isTTY ? 'pretty' : 'json').toLowerCase();
  if (logFormat !== 'json' && logFormat !== 'pretty')
    throw new ConfigError('LOG_FORMAT', `must be json or pretty, got '${env.LOG_FORMAT}'`);

  const mode = str(env, 'AUTH_MODE', 'off').toLowerCase();
  if (mode !== 'off' && mode !== 'apikey')
    throw new ConfigError('AUTH_MODE', `must be off or apikey, got '${env.AUTH_MODE}'`);
  let keys: ApiKey[] = [];
  let keySource: string | null = null;
  const file = env.API_KEYS_FILE;
  const inline = env.API_KEYS;
  if (file && inline) throw new ConfigError('API_KEYS', 'and API_KEYS_FILE are both set: use one');
  try {
    if (file) {
      let text: string;
      try {
        text = fs.readFileSync(path.resolve(file), 'utf8');
      } catch (err) {
        throw new ConfigError('API_KEYS_FILE', `cannot be read: ${(err as Error).message}`);
      }
      keys = parseKeys(text, path.resolve(file));
      keySource = path.resolve(file);
    } else if (inline) {
      keys = parseKeys(inline, 'API_KEYS');
      keySource = 'API_KEYS';
    }
  } catch (err) {
    if (err instanceof KeyFileError)
      throw new ConfigError(file ? 'API_KEYS_FILE' : 'API_KEYS', `is invalid: ${err.message}`);
    throw err;
  }
  if (mode === 'apikey' && keys.length === 0) {
    throw new ConfigError(
      'AUTH_MODE',
      'is apikey but no key is configured: set API_KEYS_FILE (or API_KEYS); npm run apikey -- create makes one',
    );
  }

  const corsOrigins = str(env, 'CORS_ORIGINS', '')
    .split(',')
    // A browser sends its origin's scheme and host in lower case (RFC 6454 serialization).
    .map((o) => o.trim().replace(/\/+$/, '').toLowerCase())
    .filter(Boolean);
  for (const origin of corsOrigins) {
    if (origin !== '*' && !/^https?:\/\/[^/\s]+$/.test(origin))
      throw new ConfigError('CORS_ORIGINS', `must list origins such as https://ui.example.com (or *), got '${origin}'`);
  }

  const trustRaw = str(env, 'TRUST_PROXY', 'false').trim().toLowerCase();
  let trustProxy: boolean | number;
  if (/^\d+$/.test(trustRaw)) trustProxy = Number(trustRaw) === 0 ? false : Number(trustRaw);
  else trustProxy = bool(env, 'TRUST_PROXY', false);

  return {
    logFormat,
    auth: { mode, keys, keySource, metricsPublic: bool(env, 'METRICS_PUBLIC', false) },
    corsOrigins,
    trustProxy,
  };
}
