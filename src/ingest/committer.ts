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
import { type Db, REHEARSAL_OP } from '../store/db.js';
import type { NormalizedEvent } from '../domain/openlineage/types.js';
import { writeEvents } from '../store/ingest.js';
import { RecentPeak, startThreshold } from './batch-size.js';
import type { Logger } from '../logger.js';
import { Neo4jUnavailable } from '../neo4j/availability.js';

interface Pending {
  event: NormalizedEvent;
  receivedAt: string;
  /** performance.now() when it was queued. */
  queuedAt: number;
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
  /**
   * Longest an event may wait for its transaction to start (ms). An event that would wait longer,
   * by the recent transaction times, is refused at once; one that has waited this long is refused
   * when its turn comes. Either way with 503 + Retry-After and nothing written: a producer is
   * better served by a fast refusal than by an answer after its own timeout.
   */
  maxWaitMs: number;
}

export const DEFAULT_COMMITTER_OPTIONS: CommitterOptions = {
  maxBatch: 32,
  writers: 2,
  timeoutMs: 60_000,
  lingerMs: 10,
  minBatch: 16,
  maxQueue: 10_000,
  maxWaitMs: 1000,
};

/** Refusal of an event under overload (queue full, or too long a wait): retriable, nothing of it was written. */
export class IngestOverloaded extends Error {
  constructor(message: string) {
    super(`Ingestion is overloaded (${message}); retry later`);
    this.name = 'IngestOverloaded';
  }
}

/**
 * Recent transactions whose median time estimates the next ones' (a median: one slow outlier, such as the first
 * transaction after a cold start, does not shut the door).
 */
const TX_TIME_SAMPLES = 9;

/** Counters for /metrics and the bench. */
export interface CommitterStats {
  transactions: number;
  events: number;
  /** Transaction attempts beyond the first (transient errors such as deadlocks, retried by the driver). */
  retries: number;
  /** Shared transactions that failed and were split into one transaction per event. */
  splits: number;
  /** Events refused because the queue was full or they would have waited too long. */
  refused: number;
  /** Of those, the events refused because of the wait (INGEST_MAX_WAIT_MS). */
  refusedForWait: number;
  /** Events refused at once because Neo4j was known to be down. */
  refusedUnavailable: number;
}

export class IngestCommitter {
  private queue: Pending[] = [];
  private active = 0;
  /** Events in the transactions in flight. */
  private activeEvents = 0;
  /** Most events inside the committer (waiting or in flight) lately: about the number of producers. */
  private readonly peak = new RecentPeak();
  private lingerTimer: NodeJS.Timeout | null = null;
  private expiryTimer: NodeJS.Timeout | null = null;
  private lastOverloadLog = 0;
  /** Why new events are refused at once (`hold`), or null. */
  private holdReason: string | null = null;
  private readonly commitListeners: ((events: number, seconds: number) => void)[] = [];
  readonly stats: CommitterStats = {
    transactions: 0,
    events: 0,
    retries: 0,
    splits: 0,
    refused: 0,
    refusedForWait: 0,
    refusedUnavailable: 0,
  };
  /** The latest committed transactions' times (ms), oldest first. */
  private readonly txTimes: number[] = [];
  private readonly opts: CommitterOptions;

  constructor(
    private readonly db: Db,
    private readonly logger: Logger,
    opts: Partial<CommitterOptions> = {},
  ) {
    this.opts = { ...DEFAULT_COMMITTER_OPTIONS, ...opts };
  }

  submit(event: NormalizedEvent): Promise<void> {
    const unavailable = this.db.availability.isDown ? (this.db.availability.reason ?? 'down') : this.holdReason;
    if (unavailable !== null) {
      this.stats.refusedUnavailable++;
      return Promise.reject(new Neo4jUnavailable(unavailable));
    }
    if (this.queue.length >= this.opts.maxQueue) {
      return Promise.reject(
        this.refuse(
          `${this.opts.maxQueue} events already waiting`,
          'ingest queue full: refusing events with 503 (INGEST_MAX_QUEUE)',
          false,
        ),
      );
    }
    const wait = this.expectedWaitMs();
    if (wait > this.opts.maxWaitMs) {
      return Promise.reject(
        this.refuse(
          `an event would wait about ${Math.round(wait)} ms for a transaction, more than ${this.opts.maxWaitMs} ms`,
          'ingest too slow for the load: refusing events with 503 (INGEST_MAX_WAIT_MS)',
          true,
        ),
      );
    }
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ event, receivedAt: new Date().toISOString(), queuedAt: performance.now(), resolve, reject });
      this.peak.record(this.queue.length + this.activeEvents);
      this.pump();
      this.scheduleExpiry();
    });
  }

  /**
   * Refuses new events at once (503 + Retry-After, as while Neo4j is down) until `resume`: for the
   * re-warming after Neo4j comes back. A real event sent then would be the restarted Neo4j's first
   * ingest transaction and wait for the statements to be planned (17-23 s on the 2-core VM), past
   * every producer's timeout, where a refusal tells it to retry in a second.
   */
  hold(reason: string): void {
    this.holdReason = reason;
  }

  /** Accepts events again (see `hold`). */
  resume(): void {
    this.holdReason = null;
  }

  /**
   * Forgets the recent transaction times: they describe a server that is gone (Neo4j went down) or
   * a cold one (the write path has just been warmed up), and would refuse events for waits that
   * will not happen.
   */
  resetTiming(): void {
    this.txTimes.length = 0;
  }

  /**
   * How long a new event would wait for its transaction to start: the transactions ahead of it
   * (full batches shared by the writers) times the recent transaction time. 0 while a writer is
   * free, and before any transaction has been timed.
   */
  expectedWaitMs(): number {
    if (this.txTimes.length === 0 || this.active < this.opts.writers) return 0;
    const ahead = Math.ceil((this.queue.length + 1) / (this.opts.maxBatch * this.opts.writers));
    const sorted = [...this.txTimes].sort((a, b) => a - b);
    return ahead * sorted[sorted.length >> 1];
  }

  /**
   * Events that waited past their budget are refused, not written late: their producers have been
   * told nothing yet and retry; one that gets its 201 got it within the budget. Checked when a
   * writer takes a batch and by a timer, so a refusal comes on time even while every writer is
   * stuck in a slow transaction (the first ones on a restarted, cold Neo4j take seconds).
   */
  private refuseExpired(): void {
    const now = performance.now();
    while (this.queue.length > 0 && now - this.queue[0].queuedAt > this.opts.maxWaitMs) {
      const late = this.queue.shift()!;
      late.reject(
        this.refuse(
          `waited ${Math.round(now - late.queuedAt)} ms for a transaction, more than ${this.opts.maxWaitMs} ms`,
          'ingest too slow for the load: refusing events with 503 (INGEST_MAX_WAIT_MS)',
          true,
        ),
      );
    }
  }

  /** Wakes up when the oldest waiting event's budget runs out (one timer for the whole queue, FIFO). */
  private scheduleExpiry(): void {
    if (this.expiryTimer || this.queue.length === 0) return;
    const dueIn = Math.max(0, this.queue[0].queuedAt + this.opts.maxWaitMs - performance.now()) + 1;
    this.expiryTimer = setTimeout(() => {
      this.expiryTimer = null;
      this.refuseExpired();
      this.scheduleExpiry();
    }, dueIn);
    this.expiryTimer.unref();
  }

  private refuse(reason: string, log: string, forWait: boolean): IngestOverloaded {
    this.stats.refused++;
    if (forWait) this.stats.refusedForWait++;
    const now = Date.now();
    if (now - this.lastOverloadLog >= 10_000) {
      this.lastOverloadLog = now;
      this.logger.warn(
        {
          maxQueue: this.opts.maxQueue,
          maxWaitMs: this.opts.maxWaitMs,
          queued: this.queue.length,
          refusedSoFar: this.stats.refused,
        },
        log,
      );
    }
    return new IngestOverloaded(reason);
  }

  /**
   * Writes `events` as one ingest transaction and rolls it back (warm-up: the statements are
   * planned and their code run in Neo4j and here, and nothing is stored).
   */
  async rehearse(events: NormalizedEvent[]): Promise<void> {
    const receivedAt = new Date().toISOString();
    await this.db.rehearse({ op: REHEARSAL_OP, timeoutMs: this.opts.timeoutMs }, (tx) =>
      writeEvents(
        tx,
        events.map((event) => ({ event, receivedAt, queuedAt: 0, resolve: () => undefined, reject: () => undefined })),
      ),
    );
  }

  /** Calls `listener` after each committed transaction with its event count and duration (retries included). */
  onCommit(listener: (events: number, seconds: number) => void): void {
    this.commitListeners.push(listener);
  }

  /** Stops calling a listener given to onCommit. */
  offCommit(listener: (events: number, seconds: number) => void): void {
    const i = this.commitListeners.indexOf(listener);
    if (i >= 0) this.commitListeners.splice(i, 1);
  }

  /** Events waiting for a transaction. */
  get queued(): number {
    return this.queue.length;
  }

  /** Transactions in flight. */
  get inFlight(): number {
    return this.active;
  }

  private pump(): void {
    while (this.active < this.opts.writers && this.queue.length > 0) {
      const othersBusy = this.active > 0;
      if (othersBusy && this.queue.length < this.startThreshold()) {
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
    return startThreshold({
      recentPeak: this.peak.value,
      writers: this.opts.writers,
      minBatch: this.opts.minBatch,
      maxBatch: this.opts.maxBatch,
    });
  }

  private startBatch(): void {
    if (this.queue.length === 0 || this.active >= this.opts.writers) return;
    if (this.lingerTimer) {
      clearTimeout(this.lingerTimer);
      this.lingerTimer = null;
    }
    this.refuseExpired();
    if (this.queue.length === 0) return;
    const batch = this.queue.splice(0, this.opts.maxBatch);
    this.active++;
    this.activeEvents += batch.length;
    void this.flush(batch).finally(() => {
      this.active--;
      this.activeEvents -= batch.length;
      if (this.queue.length > 0) this.pump();
    });
  }

  private async write(batch: Pending[]): Promise<void> {
    const start = performance.now();
    let attempts = 0;
    await this.db.write(
      { op: batch.length === 1 ? 'ingest' : `ingest x${batch.length}`, timeoutMs: this.opts.timeoutMs },
      (tx) => {
        if (attempts++ > 0) this.stats.retries++;
        return writeEvents(tx, batch);
      },
    );
    this.stats.transactions++;
    this.stats.events += batch.length;
    const seconds = (performance.now() - start) / 1000;
    this.txTimes.push(seconds * 1000);
    if (this.txTimes.length > TX_TIME_SAMPLES) this.txTimes.shift();
    for (const listener of this.commitListeners) listener(batch.length, seconds);
  }

  private async flush(batch: Pending[]): Promise<void> {
    try {
      await this.write(batch);
      for (const p of batch) p.resolve();
    } catch (err) {
      // Neo4j is away: every event would fail the same way, so none is retried alone.
      if (batch.length === 1 || err instanceof Neo4jUnavailable) {
        for (const p of batch) p.reject(err);
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
