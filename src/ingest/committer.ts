/**
 * Group commit for ingestion. Events that arrive while a transaction is in flight wait and are then
 * written together in a later transaction (each by its own rows, in arrival order), which amortizes
 * the per-transaction cost (round trips, commit) across concurrent producers. A caller's promise
 * resolves only after the transaction holding its event has committed: a 201 means durable.
 *
 * Two writers by default: while one transaction is in Neo4j the next batch is already being read,
 * planned and sent, so Neo4j and this process work at the same time instead of taking turns. Every
 * ingest statement locks in the same order (runs, then datasets, then jobs, each sorted), and the
 * rare deadlock Neo4j still detects is a transient error that the managed transaction retries.
 *
 * If a shared transaction fails for a reason other than a transient error, its events are retried one
 * transaction each, so one bad event cannot fail its neighbours.
 *
 * The queue is bounded: under more load than Neo4j can absorb, an unbounded queue only turns into
 * memory growth and client timeouts (which the clients then retry, adding load). Past `maxQueue`
 * waiting events, submit refuses at once with IngestOverloaded, which the API answers with 503 and
 * Retry-After, so producers back off and nothing is half-accepted.
 */
import type { Db } from '../store/db.js';
import type { NormalizedEvent } from '../domain/openlineage/types.js';
import { writeEvents } from '../store/ingest.js';
import { RecentPeak, startThreshold } from './batch-size.js';
import type { Logger } from '../logger.js';

interface Pending {
  event: NormalizedEvent;
  receivedAt: string;
  resolve: () => void;
  reject: (err: unknown) => void;
}

export interface CommitterOptions {
  /** Most events in one transaction. */
  maxBatch: number;
  /** Transactions in flight at once. */
  writers: number;
  /** Transaction timeout (ms). */
  timeoutMs: number;
  /**
   * While another writer is busy, a free writer waits up to this long (ms) for `minBatch` events
   * before starting a small batch: many tiny transactions would cost more than they overlap.
   */
  lingerMs: number;
  /**
   * While another writer is busy, a free writer starts at once when this many events wait, or its
   * share of the events recently inside the committer if fewer (batch-size.ts: about the producers
   * over the writers, so the writers stay balanced at low concurrency); below it, it lingers.
   */
  minBatch: number;
  /** Most events waiting for a transaction (not counting those in flight); more are refused. */
  maxQueue: number;
}

export const DEFAULT_COMMITTER_OPTIONS: CommitterOptions = { maxBatch: 32, writers: 2, timeoutMs: 60_000, lingerMs: 10, minBatch: 16, maxQueue: 10_000 };

/** Refusal of an event because the queue is full: retriable, nothing of it was written. */
export class IngestOverloaded extends Error {
  constructor(readonly maxQueue: number) {
    super(`Ingestion is overloaded (${maxQueue} events already waiting); retry later`);
    this.name = 'IngestOverloaded';
  }
}

/** Counters for /metrics and the bench. */
export interface CommitterStats {
  transactions: number;
  events: number;
  /** Transaction attempts beyond the first (transient errors such as deadlocks, retried by the driver). */
  retries: number;
  /** Shared transactions that failed and were split into one transaction per event. */
  splits: number;
  /** Events refused because the queue was full. */
  refused: number;
}

export class IngestCommitter {
  private queue: Pending[] = [];
  private active = 0;
  /** Events in the transactions in flight. */
  private activeEvents = 0;
  /** Most events inside the committer (waiting or in flight) lately: about the number of producers. */
  private readonly peak = new RecentPeak();
  private closed = false;
  private lingerTimer: NodeJS.Timeout | null = null;
  private idleWaiters: (() => void)[] = [];
  private lastOverloadLog = 0;
  private readonly commitListeners: ((events: number, seconds: number) => void)[] = [];
  readonly stats: CommitterStats = { transactions: 0, events: 0, retries: 0, splits: 0, refused: 0 };
  private readonly opts: CommitterOptions;

  constructor(
    private readonly db: Db,
    private readonly logger: Logger,
    opts: Partial<CommitterOptions> = {},
  ) {
    this.opts = { ...DEFAULT_COMMITTER_OPTIONS, ...opts };
  }

  submit(event: NormalizedEvent): Promise<void> {
    if (this.closed) return Promise.reject(new Error('ingestion is shutting down'));
    if (this.queue.length >= this.opts.maxQueue) {
      this.stats.refused++;
      const now = Date.now();
      if (now - this.lastOverloadLog >= 10_000) {
        this.lastOverloadLog = now;
        this.logger.warn({ maxQueue: this.opts.maxQueue, refusedSoFar: this.stats.refused }, 'ingest queue full: refusing events with 503 (INGEST_MAX_QUEUE)');
      }
      return Promise.reject(new IngestOverloaded(this.opts.maxQueue));
    }
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ event, receivedAt: new Date().toISOString(), resolve, reject });
      this.peak.record(this.queue.length + this.activeEvents);
      this.pump();
    });
  }

  /** Calls `listener` after each committed transaction with its event count and duration (retries included). */
  onCommit(listener: (events: number, seconds: number) => void): void {
    this.commitListeners.push(listener);
  }

  /** Events waiting for a transaction. */
  get queued(): number {
    return this.queue.length;
  }

  /** Transactions in flight. */
  get inFlight(): number {
    return this.active;
  }

  /** Resolves when nothing is queued or in flight (used on shutdown). */
  async drain(): Promise<void> {
    this.closed = true;
    if (this.active === 0 && this.queue.length === 0) return;
    await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
  }

  private pump(): void {
    while (this.active < this.opts.writers && this.queue.length > 0) {
      const othersBusy = this.active > 0;
      if (othersBusy && this.queue.length < this.startThreshold() && !this.closed) {
        this.lingerTimer ??= setTimeout(() => {
          this.lingerTimer = null;
          this.startBatch();
          this.pump();
        }, this.opts.lingerMs);
        return;
      }
      this.startBatch();
    }
  }

  /** See batch-size.ts: the writers' share of the events recently inside the committer. */
  private startThreshold(): number {
    return startThreshold({ recentPeak: this.peak.value, writers: this.opts.writers, minBatch: this.opts.minBatch, maxBatch: this.opts.maxBatch });
  }

  private startBatch(): void {
    if (this.queue.length === 0 || this.active >= this.opts.writers) return;
    if (this.lingerTimer) {
      clearTimeout(this.lingerTimer);
      this.lingerTimer = null;
    }
    const batch = this.queue.splice(0, this.opts.maxBatch);
    this.active++;
    this.activeEvents += batch.length;
    void this.flush(batch).finally(() => {
      this.active--;
      this.activeEvents -= batch.length;
      if (this.queue.length > 0) this.pump();
      else if (this.active === 0) this.idleWaiters.splice(0).forEach((w) => w());
    });
  }

  private async write(batch: Pending[]): Promise<void> {
    const start = performance.now();
    let attempts = 0;
    await this.db.write({ op: batch.length === 1 ? 'ingest' : `ingest x${batch.length}`, timeoutMs: this.opts.timeoutMs }, (tx) => {
      if (attempts++ > 0) this.stats.retries++;
      return writeEvents(tx, batch);
    });
    this.stats.transactions++;
    this.stats.events += batch.length;
    const seconds = (performance.now() - start) / 1000;
    for (const listener of this.commitListeners) listener(batch.length, seconds);
  }

  private async flush(batch: Pending[]): Promise<void> {
    try {
      await this.write(batch);
      for (const p of batch) p.resolve();
    } catch (err) {
      if (batch.length === 1) {
        batch[0].reject(err);
        return;
      }
      this.stats.splits++;
      this.logger.debug({ err, size: batch.length }, 'shared ingest transaction failed; retrying events one by one');
      for (const p of batch) {
        try {
          await this.write([p]);
          p.resolve();
        } catch (single) {
          p.reject(single);
        }
      }
    }
  }
}
