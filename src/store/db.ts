/**
 * The one gateway to Neo4j: managed transactions (retried on transient errors), always naming the
 * database, tagged with metadata so `SHOW TRANSACTIONS` tells service work from ad hoc queries, and
 * bounded by a timeout.
 */
import neo4j, { type Driver, type ManagedTransaction, type QueryResult, type RecordShape } from 'neo4j-driver';
import { cypher } from './cypher.js';

export type Params = Record<string, unknown>;

export interface TxOptions {
  /** What the work is, for transaction metadata (`app: lineage-service`, `op: <op>`). */
  op: string;
  timeoutMs?: number;
}

export class Db {
  constructor(
    readonly driver: Driver,
    readonly database: string,
    readonly defaultTimeoutMs = 10_000,
  ) {}

  private config(opts: TxOptions) {
    return {
      timeout: opts.timeoutMs ?? this.defaultTimeoutMs,
      metadata: { app: 'lineage-service', op: opts.op },
    };
  }

  async read<T>(opts: TxOptions, work: (tx: ManagedTransaction) => Promise<T>): Promise<T> {
    const session = this.driver.session({ database: this.database, defaultAccessMode: neo4j.session.READ });
    try {
      return await session.executeRead(work, this.config(opts));
    } finally {
      await session.close();
    }
  }

  async write<T>(opts: TxOptions, work: (tx: ManagedTransaction) => Promise<T>): Promise<T> {
    const session = this.driver.session({ database: this.database, defaultAccessMode: neo4j.session.WRITE });
    try {
      return await session.executeWrite(work, this.config(opts));
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
          timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
        }),
      ]);
    } finally {
      clearTimeout(timer);
      void session.close().catch(() => undefined);
    }
  }

  /** Runs one named query from cypher/ in a read transaction. */
  async query<R extends RecordShape = RecordShape>(name: string, params: Params = {}, timeoutMs?: number): Promise<QueryResult<R>> {
    return this.read({ op: name, timeoutMs }, (tx) => tx.run<R>(cypher(name), params));
  }

  /** Runs one named query from cypher/ in a write transaction. */
  async command<R extends RecordShape = RecordShape>(name: string, params: Params = {}): Promise<QueryResult<R>> {
    return this.write({ op: name }, (tx) => tx.run<R>(cypher(name), params));
  }
}

/** Turns driver Integers (and nested values) into plain JSON-friendly numbers. */
export function toNative(value: unknown): unknown {
  if (neo4j.isInt(value)) return (value as neo4j.Integer).toNumber();
  if (Array.isArray(value)) return value.map(toNative);
  if (value && typeof value === 'object' && value.constructor === Object) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = toNative(v);
    return out;
  }
  return value;
}

export const int = (n: number) => neo4j.int(n);
