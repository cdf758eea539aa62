/**
 * Builds the real app against the test run's Neo4j and wipes the graph between tests.
 * Requests go through a real HTTP listener on an ephemeral loopback port (in-process).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Driver } from 'neo4j-driver';
import { createApp, type App } from '../src/app.js';
import { answerClientErrors } from '../src/http/client-errors.js';
import type { CommitterOptions } from '../src/ingest/committer.js';
import { createLogger } from '../src/logger.js';
import type { LogLevel } from '../src/config.js';
import { createDriver } from '../src/neo4j/runtime.js';
import { Db } from '../src/store/db.js';
import { applySchema } from '../src/store/schema.js';
import type { AdmissionOptions } from '../src/http/middleware/admission.js';
import type { AuthOptions } from '../src/http/auth.js';
import type { Logger } from '../src/logger.js';
import { ContractChecker } from './support/contract.js';

let sharedDriver: Driver | null = null;
let schemaApplied = false;

export function testDriver(): Driver {
  const uri = process.env.TEST_NEO4J_URI;
  if (!uri) throw new Error('TEST_NEO4J_URI is not set: run tests through mocha (global fixture)');
  sharedDriver ??= createDriver(uri, process.env.TEST_NEO4J_USER ?? 'neo4j', process.env.TEST_NEO4J_PASSWORD ?? '');
  return sharedDriver;
}

export function testDb(timeoutMs = 10_000): Db {
  return new Db(testDriver(), process.env.TEST_NEO4J_DATABASE ?? 'neo4j', timeoutMs);
}

export async function wipe(db: Db = testDb()): Promise<void> {
  const session = db.driver.session({ database: db.database });
  try {
    await session.run('MATCH (n) CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 10000 ROWS');
  } finally {
    await session.close();
  }
}

export interface TestResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  headers?: Record<string, string>;
  /** Sent as-is (string/Buffer) or JSON-encoded. */
  body?: unknown;
  raw?: boolean;
}

export interface TestApp {
  app: App;
  db: Db;
  baseUrl: string;
  request<T = any>(method: string, path: string, opts?: RequestOptions): Promise<TestResponse<T>>;
  get<T = any>(path: string): Promise<TestResponse<T>>;
  post<T = any>(path: string, body: unknown, headers?: Record<string, string>): Promise<TestResponse<T>>;
  close(): Promise<void>;
}

export interface BuildOptions {
  bodyLimitBytes?: number;
  /** BODY_BYTES_IN_FLIGHT (0 off); unset: the service's default. */
  bodyBytesInFlight?: number;
  queryTimeoutMs?: number;
  db?: Db;
  ingest?: Partial<CommitterOptions>;
  /** Serve the built web UI from this folder (test/web/support.ts builds it once per run). */
  webRoot?: string;
  queries?: Partial<AdmissionOptions>;
  facetKeysMax?: number;
  auth?: AuthOptions;
  corsOrigins?: string[];
  trustProxy?: boolean | number;
  logger?: Logger;
  /** Skip checking answers against the OpenAPI document (only for tests of broken answers). */
  unchecked?: boolean;
}

export async function build(opts: BuildOptions = {}): Promise<TestApp> {
  const db = opts.db ?? testDb(opts.queryTimeoutMs);
  if (!schemaApplied && !opts.db) {
    await applySchema(db);
    schemaApplied = true;
  }
  const logger = opts.logger ?? createLogger((process.env.TEST_LOG_LEVEL as LogLevel | undefined) ?? 'silent');
  const app = createApp({
    db,
    logger,
    bodyLimitBytes: opts.bodyLimitBytes ?? 10 * 1024 * 1024,
    bodyBytesInFlight: opts.bodyBytesInFlight,
    // Load shedding is tested where a test asks for it (test/http/load-shedding.test.ts): elsewhere a
    // busy test machine must not turn a slow transaction into a 503. Nor does the test process's own
    // memory say anything about the app's.
    ingest: { maxWaitMs: 120_000, ...opts.ingest },
    queries: { maxWaitMs: 120_000, memorySoftLimitBytes: 0, ...opts.queries },
    facetKeysMax: opts.facetKeysMax,
    webRoot: opts.webRoot,
    auth: opts.auth,
    corsOrigins: opts.corsOrigins,
    trustProxy: opts.trustProxy,
  });
  // Every answer a test receives is checked against the OpenAPI document (test/support/contract.ts).
  let contract: ContractChecker | null = null;
  const server = http.createServer(app.koa.callback());
  answerClientErrors(server, logger);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  async function request<T>(method: string, path: string, ro: RequestOptions = {}): Promise<TestResponse<T>> {
    const headers: Record<string, string> = { ...(ro.headers ?? {}) };
    let body: string | Buffer | undefined;
    if (ro.body !== undefined) {
      if (typeof ro.body === 'string' || Buffer.isBuffer(ro.body)) body = ro.body as string | Buffer;
      else {
        body = JSON.stringify(ro.body);
        headers['content-type'] ??= 'application/json';
      }
    }
    const res = await fetch(baseUrl + path, { method, headers, body });
    const text = await res.text();
    if (!opts.unchecked) {
      contract ??= new ContractChecker(app.openapi());
      const problems = contract.check(method, path, res.status, res.headers.get('content-type'), text);
      if (problems.length)
        throw new Error(`The answer does not match the OpenAPI document:\n  ${problems.join('\n  ')}`);
    }
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      /* not JSON */
    }
    return { status: res.status, headers: res.headers, body: parsed as T, text };
  }

  return {
    app,
    db,
    baseUrl,
    request,
    get: (path) => request('GET', path),
    post: (path, body, headers) => request('POST', path, { body, headers }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Per-file setup: one app for the file, a clean graph (with the `default` namespace) before each test. */
export function useTestApp(opts: BuildOptions = {}): () => TestApp {
  let t: TestApp | null = null;
  before(async () => {
    t = await build(opts);
  });
  beforeEach(async () => {
    await wipe(t!.db);
    await t!.app.services.namespaces.ensureDefault();
  });
  after(async () => {
    await t?.close();
  });
  return () => t!;
}
