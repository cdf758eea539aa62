/**
 * The one gateway to Neo4j: every statement names the database, is tagged with metadata so
 * `SHOW TRANSACTIONS` tells service work from ad hoc queries, is bounded by a timeout and fails at
 * once while Neo4j is known to be down (availability.ts).
 *
 * Two ways in:
 * - `execute` (and `query` / `command` on it): one statement through the driver's supported
 *   `driver.executeQuery`: pipelined BEGIN, the driver's managed retries, the transaction timeout and
 *   metadata, and an AbortSignal that ends the query in Neo4j when the caller gives up (an HTTP
 *   client that disconnected, the client-side deadline, Neo4j marked down). Every single-statement
 *   read and command of the repositories goes this way; `executeMapped` is the same with each record
 *   mapped as it arrives (the lineage graph, whose answer can be thousands of rows).
 * - `read` / `write` / `rehearse`: a unit of work of several statements in one transaction, run by
 *   the hand-made loop below. It stays for what executeQuery cannot do:
 *   * the ingest write (src/ingest/committer.ts, src/store/ingest.ts): several statements in one
 *     transaction, whose later ones depend on the earlier ones' answers;
 *   * migrations (src/store/migrations.ts) and the schema (src/store/schema.ts): multi-statement
 *     batches and procedure calls run once at start;
 *   * the impact walk (src/store/impact.ts), which streams records to the HTTP response as they
 *     arrive, where executeQuery collects them all first;
 *   * the warm-up rehearsal (always rolled back) and planning of the ingest statements.
 *   Here BEGIN, the queries and COMMIT go out back to back as in executeQuery; the retry rules are
 *   the driver's (neo4j.isRetriableError, exponential backoff with jitter, bounded by
 *   MAX_TRANSACTION_RETRY_MS), and a lost connection is retried only if a probe finds Neo4j
 *   answering, so a dead server costs one probe, not the retry budget.
 */
import neo4j, {
  type Driver,
  type Record as NeoRecord,
  type EagerResult,
  type ManagedTransaction,
  type RecordShape,
  type Result,
  type SessionMode,
} from 'neo4j-driver';
import { cypher } from './cypher.js';
import type { ParamsOf, QueryName, RowOf } from './catalogue.js';
import { MAX_TRANSACTION_RETRY_MS } from '../neo4j/runtime.js';
import {
  Neo4jAvailability,
  Neo4jUnavailable,
  isConnectionError,
  type AvailabilityOptions,
} from '../neo4j/availability.js';

/** What a unit of work may do with its transaction: run queries. Commit and rollback belong to Db. */
export type TxRunner = Pick<ManagedTransaction, 'run'>;

/**
 * Returned by a unit of work whose last statement's records are not read: Db waits for its answer
 * (its error, if any, is the transaction's) and commits. (COMMIT used to be sent right behind it,
 * without waiting: re-measured in 22 pairs it did not clear the bench's noise, and was dropped:
 * docs/performance/driver-patches.md.)
 */
export class LastStatement {
  constructor(readonly result: Result) {}
}

const RETRY_INITIAL_DELAY_MS = 200;
const RETRY_MULTIPLIER = 2;
const RETRY_JITTER = 0.2;

export type Params = Record<string, unknown>;

/** The transaction metadata `op` of the ingest warm-ups' rehearsals (Db.rehearse), which other checks skip. */
export const REHEARSAL_OP = 'ingest warm-up';

export interface TxOptions {
  /** What the work is, for transaction metadata (`app: lineage-service`, `op: <op>`). */
  op: string;
  timeoutMs?: number;
}

/**
 * Past its timeout, a transaction gets this much longer for Neo4j's own timeout error to arrive;
 * then the caller is answered without it (a hung or stopped server sends nothing at all).
 */
export const CLIENT_DEADLINE_GRACE_MS = 2000;

/** A statement given up by its caller (an HTTP client that disconnected): Neo4j was told to stop it. */
export class QueryCancelled extends Error {
  readonly code = 'QueryCancelled';
  constructor(readonly op: string) {
    super(`'${op}' was cancelled by its caller`);
    this.name = 'QueryCancelled';
  }
}

export interface ExecuteOptions {
  /** Transaction timeout (ms; default: the Db's). */
  timeoutMs?: number;
  /** Aborting it ends the statement in Neo4j and rejects with QueryCancelled. */
  signal?: AbortSignal;
}

/** A transaction that got no answer from Neo4j within its timeout and the grace period. */
export class TransactionDeadlineExceeded extends Error {
  readonly code = 'Neo.ClientError.Transaction.TransactionTimedOutClientConfiguration';
  constructor(
    readonly op: string,
    timeoutMs: number,
  ) {
    super(`'${op}' got no answer from Neo4j within ${timeoutMs + CLIENT_DEADLINE_GRACE_MS} ms`);
    this.name = 'TransactionDeadlineExceeded';
  }
}

/** A ping that got no answer within its timeout (a server that is hung, starting or far away). */
export class PingTimeout extends Error {
  constructor(timeoutMs: number) {
    super(`no answer within ${timeoutMs} ms`);
    this.name = 'PingTimeout';
  }
}

export class Db {
  /** Whether Neo4j is reachable; while it is known not to be, transactions fail at once (availability.ts). */
  readonly availability: Neo4jAvailability;

  /** Statements in flight through executeQuery: aborted the moment Neo4j is marked down. */
  private readonly inFlight = new Set<AbortController>();

  /** Why the graph is not ready for service work yet (hold), or null. */
  private held: string | null = null;

  /** `availability`: its options, or the one to share with another Db on the same driver (startupView). */
  constructor(
    readonly driver: Driver,
    readonly database: string,
    readonly defaultTimeoutMs = 10_000,
    availability: Partial<AvailabilityOptions> | Neo4jAvailability = {},
  ) {
    this.availability =
      availability instanceof Neo4jAvailability
        ? availability
        : new Neo4jAvailability((timeoutMs) => this.ping(timeoutMs), availability);
    this.availability.onChange((up, reason) => {
      if (up) return;
      for (const controller of this.inFlight) controller.abort(new Neo4jUnavailable(reason));
    });
  }

  /**
   * Until release(), every transaction on this Db fails at once with Neo4jUnavailable(`reason`) (503
   * + Retry-After), also while Neo4j answers: the service started before it could reach Neo4j, and
   * the graph schema and migrations have not run yet (server.ts runs them on startupView()).
   */
  hold(reason: string): void {
    this.held = reason;
  }

  release(): void {
    this.held = null;
  }

  /** Why this Db refuses work although Neo4j may answer (hold), or null. */
  get heldReason(): string | null {
    return this.held;
  }

  /** A Db on the same driver and availability, not subject to this one's hold: the start-up work runs on it. */
  startupView(): Db {
    return new Db(this.driver, this.database, this.defaultTimeoutMs, this.availability);
  }

  /** Neo4j known down, or the graph held: fail at once with Neo4jUnavailable. */
  private assertServing(): void {
    this.availability.assertUp();
    if (this.held !== null) throw new Neo4jUnavailable(this.held);
  }

  private config(opts: TxOptions) {
    return {
      timeout: opts.timeoutMs ?? this.defaultTimeoutMs,
      metadata: { app: 'lineage-service', op: opts.op },
    };
  }

  read<T>(opts: TxOptions, work: (tx: TxRunner) => Promise<T>): Promise<T> {
    return this.transaction(neo4j.session.READ, opts, work);
  }

  write<T>(opts: TxOptions, work: (tx: TxRunner) => Promise<T>): Promise<T> {
    return this.transaction(neo4j.session.WRITE, opts, work);
  }

  /**
   * Runs `work` in one transaction, committed if it resolves; retried whole on transient errors
   * while the retries fit in the transaction's timeout (and at most MAX_TRANSACTION_RETRY_MS).
   * While Neo4j is known to be down it fails at once with Neo4jUnavailable; a lost connection is
   * retried only if a probe finds Neo4j answering.
   */
  private async transaction<T>(mode: SessionMode, opts: TxOptions, work: (tx: TxRunner) => Promise<T>): Promise<T> {
    const started = Date.now();
    const timeoutMs = opts.timeoutMs ?? this.defaultTimeoutMs;
    const retryBudgetMs = Math.min(MAX_TRANSACTION_RETRY_MS, timeoutMs);
    let delay = RETRY_INITIAL_DELAY_MS;
    for (;;) {
      this.assertServing();
      try {
        return await this.attempt(mode, opts, timeoutMs, work);
      } catch (err) {
        if (isConnectionError(err) && !(err instanceof Neo4jUnavailable) && !(await this.availability.check())) {
          throw new Neo4jUnavailable(this.availability.reason ?? (err as Error).message);
        }
        const jitter = 1 + RETRY_JITTER * (2 * Math.random() - 1);
        if (!neo4j.isRetriableError(err) || Date.now() - started + delay * jitter >= retryBudgetMs) throw err;
        await new Promise((resolve) => setTimeout(resolve, delay * jitter));
        delay *= RETRY_MULTIPLIER;
      }
    }
  }

  /** One try of a transaction, answered within its timeout plus CLIENT_DEADLINE_GRACE_MS whatever Neo4j does. */
  private async attempt<T>(
    mode: SessionMode,
    opts: TxOptions,
    timeoutMs: number,
    work: (tx: TxRunner) => Promise<T>,
  ): Promise<T> {
    const session = this.driver.session({ database: this.database, defaultAccessMode: mode });
    let timer: NodeJS.Timeout | undefined;
    let expired = false;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        expired = true;
        reject(new TransactionDeadlineExceeded(opts.op, timeoutMs));
      }, timeoutMs + CLIENT_DEADLINE_GRACE_MS);
    });
    const run = (async () => {
      // Not awaited: queries run on it are queued behind BEGIN on the same connection.
      const tx = session.beginTransaction(this.config(opts));
      let result: T;
      try {
        result = await work(tx);
        if (result instanceof LastStatement) await result.result;
      } catch (err) {
        await tx.rollback().catch(() => undefined);
        throw err;
      }
      await tx.commit();
      return result;
    })();
    try {
      return await Promise.race([run, deadline]);
    } finally {
      clearTimeout(timer);
      // Past the deadline the session may never answer: close it in the background.
      if (expired) {
        run.catch(() => undefined);
        void session.close().catch(() => undefined);
      } else await session.close();
    }
  }

  /**
   * Runs `work` in a write transaction that is always rolled back: a rehearsal of real work (plans
   * made, code paths run in Neo4j and here) that leaves nothing behind. Not retried.
   */
  async rehearse(opts: TxOptions, work: (tx: TxRunner) => Promise<unknown>): Promise<void> {
    this.assertServing();
    const session = this.driver.session({ database: this.database, defaultAccessMode: neo4j.session.WRITE });
    try {
      const tx = session.beginTransaction(this.config(opts));
      try {
        const result = await work(tx);
        if (result instanceof LastStatement) await result.result;
      } finally {
        await tx.rollback().catch(() => undefined);
      }
    } finally {
      await session.close();
    }
  }

  /** One unretried round trip, bounded by `timeoutMs`: readiness must answer fast, not retry for seconds. */
  async ping(timeoutMs: number): Promise<void> {
    const session = this.driver.session({ database: this.database, defaultAccessMode: neo4j.session.READ });
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        session.run('RETURN 1', {}, { timeout: timeoutMs }).then(() => undefined),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new PingTimeout(timeoutMs)), timeoutMs);
        }),
      ]);
    } finally {
      clearTimeout(timer);
      void session.close().catch(() => undefined);
    }
  }

  /**
   * Runs one statement with the driver's executeQuery (READ routing for reads), answered within its
   * timeout plus CLIENT_DEADLINE_GRACE_MS whatever Neo4j does. Errors are those of read/write: fails
   * at once with Neo4jUnavailable while Neo4j is known to be down (and when it is marked down while
   * the statement runs), TransactionDeadlineExceeded past the deadline, QueryCancelled when
   * `opts.signal` aborts; a connection error turns into Neo4jUnavailable when a probe confirms it.
   * Each abort closes the driver session, which resets the connection: Neo4j stops the query
   * (QueryConfig.signal; the pinned neo4j-driver 5.28.3 has it).
   *
   * One difference from read/write: the driver retries a lost connection inside executeQuery
   * (within MAX_TRANSACTION_RETRY_MS) without telling us, so the first statements of an outage
   * nobody has noticed yet end when Neo4j is marked down (the service's heartbeat, every 2 s; the
   * local server's supervisor, at once; any read/write's probe), or at their deadline: a 503 either way.
   */
  async execute<R extends RecordShape = RecordShape>(
    routing: 'READ' | 'WRITE',
    op: string,
    text: string,
    params: Params = {},
    opts: ExecuteOptions = {},
  ): Promise<EagerResult<R>> {
    return this.executeWith(routing, op, text, params, opts, undefined);
  }

  /**
   * `execute`, with each record turned into a `T` by `map` the moment it arrives, so a large answer is
   * mapped while Neo4j is still producing it (on a second core) instead of after its last record.
   * `map` must be pure: a retried attempt maps its records again, into a fresh list.
   */
  async executeMapped<R extends RecordShape, T>(
    routing: 'READ' | 'WRITE',
    op: string,
    text: string,
    params: Params,
    map: (record: NeoRecord<R>) => T,
    opts: ExecuteOptions = {},
  ): Promise<T[]> {
    const transformer = neo4j.resultTransformers.mappedResultTransformer({
      map,
      collect: (mapped: T[]) => mapped,
    });
    return this.executeWith(routing, op, text, params, opts, transformer);
  }

  private async executeWith<T>(
    routing: 'READ' | 'WRITE',
    op: string,
    text: string,
    params: Params,
    opts: ExecuteOptions,
    resultTransformer: ((result: Result) => Promise<T>) | undefined,
  ): Promise<T> {
    this.assertServing();
    if (opts.signal?.aborted) throw new QueryCancelled(op);
    const timeoutMs = opts.timeoutMs ?? this.defaultTimeoutMs;
    const controller = new AbortController();
    const cancel = () => controller.abort(new QueryCancelled(op));
    opts.signal?.addEventListener('abort', cancel, { once: true });
    const timer = setTimeout(
      () => controller.abort(new TransactionDeadlineExceeded(op, timeoutMs)),
      timeoutMs + CLIENT_DEADLINE_GRACE_MS,
    );
    this.inFlight.add(controller);
    const run = this.driver.executeQuery<T>(text, params, {
      ...(resultTransformer ? { resultTransformer } : {}),
      routing,
      database: this.database,
      // As read/write: no causal chaining between statements (a single server; the ingest path has none either).
      bookmarkManager: null,
      transactionConfig: this.config({ op, timeoutMs }),
      signal: controller.signal,
    });
    // Aborted, the driver closes the session, but against a hung server its promise may never settle.
    const aborted = new Promise<never>((_, reject) =>
      controller.signal.addEventListener('abort', () => reject(controller.signal.reason), { once: true }),
    );
    try {
      return await Promise.race([run, aborted]);
    } catch (err) {
      if (
        err instanceof QueryCancelled ||
        err instanceof TransactionDeadlineExceeded ||
        err instanceof Neo4jUnavailable
      )
        throw err;
      if (isConnectionError(err) && !(await this.availability.check()))
        throw new Neo4jUnavailable(this.availability.reason ?? (err as Error).message);
      throw err;
    } finally {
      run.catch(() => undefined);
      aborted.catch(() => undefined);
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', cancel);
      this.inFlight.delete(controller);
    }
  }

  /** Runs one named query from cypher/ as a read (executeQuery, READ routing). */
  async query<K extends QueryName>(name: K, params: ParamsOf<K>, timeoutMs?: number): Promise<EagerResult<RowOf<K>>> {
    return this.execute<RowOf<K>>('READ', name, cypher(name), params, { timeoutMs });
  }

  /** Runs one named query from cypher/ as a write (executeQuery, WRITE routing). */
  async command<K extends QueryName>(name: K, params: ParamsOf<K>): Promise<EagerResult<RowOf<K>>> {
    return this.execute<RowOf<K>>('WRITE', name, cypher(name), params);
  }
}

/**
 * Turns driver Integers (and nested values) into plain JSON-friendly numbers. Copy on write: a list or
 * map without an Integer inside is returned as it is (a lineage answer's nodes have almost none, and
 * copying each of them was a fifth of rendering it); one with an Integer is a new list or map.
 */
export function toNative(value: unknown): unknown {
  // Primitives first (most values): mapping a large answer calls this for every property.
  if (value === null || typeof value !== 'object') return value;
  if (neo4j.isInt(value)) return (value as neo4j.Integer).toNumber();
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const native = toNative(value[i]);
      if (native === value[i]) continue;
      const out = value.slice(0, i);
      out.push(native);
      for (let j = i + 1; j < value.length; j++) out.push(toNative(value[j]));
      return out;
    }
    return value;
  }
  if (value.constructor === Object) {
    const map = value as Record<string, unknown>;
    for (const k in map) {
      const native = toNative(map[k]);
      if (native === map[k]) continue;
      const out: Record<string, unknown> = {};
      for (const key in map) out[key] = key === k ? native : toNative(map[key]);
      return out;
    }
    return value;
  }
  return value;
}

export const int = (n: number) => neo4j.int(n);
