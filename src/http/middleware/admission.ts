/**
 * Admission control for the query API (everything under /api but event ingestion, which the group
 * committer admits by its own queue and wait budget). At most `maxConcurrent` requests run at once;
 * the next ones wait in arrival order, and one that has waited `maxWaitMs` is answered
 * 503 `overloaded` with Retry-After instead of running.
 *
 * On two cores Neo4j runs only a couple of queries at a time anyway: more concurrent queries only
 * share the CPU more thinly (every one gets slower, none finishes sooner) and each holds its result
 * in memory meanwhile, so 256 concurrent deep-lineage reads meant p50 23 s and 555 MiB. Bounded,
 * the service answers the admitted ones at full speed, refuses the rest fast, and its memory is
 * bounded by `maxConcurrent` results.
 */
import type { Middleware } from 'koa';
import { HttpError } from '../errors.js';

export interface AdmissionOptions {
  /** Requests running at once. */
  maxConcurrent: number;
  /** Longest a request waits for its turn (ms) before a 503. */
  maxWaitMs: number;
  /** Most requests waiting at once; more are refused at once. */
  maxQueue: number;
  /**
   * Above this resident memory (bytes), one query runs at a time: a page of 1,000 jobs is 14 MB
   * of JSON and several times that while it is built, so concurrency alone does not bound memory.
   * 0 turns it off. 128 MB: about the idle service's resident memory (120-130 MB with the heap
   * growth capped, src/memory.ts), so once the service is loaded heavy queries run one at a time; with a
   * higher limit they ran four at once, each slower, and starved ingestion of Neo4j's two cores.
   */
  memorySoftLimitBytes: number;
  /** The process's resident memory now (bytes); injectable for tests. */
  memoryUsage: () => number;
}

export const DEFAULT_ADMISSION_OPTIONS: AdmissionOptions = {
  maxConcurrent: 4,
  maxWaitMs: 2000,
  maxQueue: 1000,
  memorySoftLimitBytes: 128 * 1024 * 1024,
  memoryUsage: () => process.memoryUsage.rss(),
};

/** Recent requests whose median time estimates the wait of a new one. */
const DURATION_SAMPLES = 16;

export interface AdmissionStats {
  /** Requests admitted so far. */
  admitted: number;
  /** Requests refused (waited too long, or the queue was full). */
  refused: number;
  /** Times a free slot was left unused because memory was above the soft limit. */
  heldForMemory: number;
}

interface Waiter {
  admit: () => void;
  timer: NodeJS.Timeout;
}

export class Admission {
  private running = 0;
  private readonly waiting: Waiter[] = [];
  readonly stats: AdmissionStats = { admitted: 0, refused: 0, heldForMemory: 0 };
  readonly opts: AdmissionOptions;

  constructor(opts: Partial<AdmissionOptions> = {}) {
    this.opts = { ...DEFAULT_ADMISSION_OPTIONS, ...opts };
  }

  /** Requests running. */
  get inFlight(): number {
    return this.running;
  }

  /** Requests waiting for their turn. */
  get queued(): number {
    return this.waiting.length;
  }

  /** Resolves when the request may run (call the returned release when it is done); rejects with a 503 otherwise. */
  /** Whether another request may start now: a free slot, and memory below the soft limit unless nothing runs. */
  private mayStart(): boolean {
    if (this.running >= this.opts.maxConcurrent) return false;
    if (this.running === 0 || this.opts.memorySoftLimitBytes === 0) return true;
    const high = this.opts.memoryUsage() > this.opts.memorySoftLimitBytes;
    if (high) this.stats.heldForMemory++;
    return !high;
  }

  acquire(): Promise<() => void> {
    if (this.waiting.length === 0 && this.mayStart()) return Promise.resolve(this.grant());
    if (this.waiting.length >= this.opts.maxQueue)
      return Promise.reject(this.refusal(`${this.opts.maxQueue} requests already waiting`));
    // Refused at once when the requests ahead would, at their recent pace, take longer than the wait
    // allowed: a fast 503 rather than one after the whole wait.
    const expected = this.expectedWaitMs();
    if (expected > this.opts.maxWaitMs)
      return Promise.reject(
        this.refusal(
          `a query would wait about ${Math.round(expected)} ms for a slot, more than ${this.opts.maxWaitMs} ms`,
        ),
      );
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        admit: () => {
          clearTimeout(waiter.timer);
          resolve(this.grant());
        },
        timer: setTimeout(() => {
          const i = this.waiting.indexOf(waiter);
          if (i >= 0) this.waiting.splice(i, 1);
          reject(
            this.refusal(
              `no query slot free within ${this.opts.maxWaitMs} ms; ${this.opts.maxConcurrent} queries running`,
            ),
          );
        }, this.opts.maxWaitMs),
      };
      this.waiting.push(waiter);
    });
  }

  /**
   * The waiting requests ahead, in rounds of `maxConcurrent`, times the recent median request time (0 without history).
   */
  expectedWaitMs(): number {
    if (this.durations.length === 0) return 0;
    const sorted = [...this.durations].sort((a, b) => a - b);
    return Math.ceil((this.waiting.length + 1) / this.opts.maxConcurrent) * sorted[sorted.length >> 1];
  }

  private readonly durations: number[] = [];

  private grant(): () => void {
    this.running++;
    this.stats.admitted++;
    const start = performance.now();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.running--;
      this.durations.push(performance.now() - start);
      if (this.durations.length > DURATION_SAMPLES) this.durations.shift();
      while (this.waiting.length > 0 && this.mayStart()) this.waiting.shift()!.admit();
    };
  }

  private refusal(reason: string): HttpError {
    this.stats.refused++;
    return new HttpError(503, 'overloaded', `The service is overloaded (${reason}); retry later`);
  }
}

/** Requests under /api that event ingestion admits itself. */
const INGEST_PATHS = new Set(['/api/v1/lineage', '/api/v1/lineage/batch']);

export function admission(gate: Admission): Middleware {
  return async (ctx, next) => {
    if (!ctx.path.startsWith('/api/') || (ctx.method === 'POST' && INGEST_PATHS.has(ctx.path))) return next();
    const release = await gate.acquire();
    // The slot is held until the answer has been sent, not only built: Koa serializes (and
    // koa-compress compresses) the body after the middleware returns, and a slow client keeps it in
    // the socket's buffers meanwhile. Released on return, 256 readers had dozens of 14 MB pages
    // being serialized and sent at once although only 4 queries ran.
    ctx.res.once('finish', release);
    ctx.res.once('close', release);
    try {
      await next();
    } catch (err) {
      // Answered by the error handler (small bodies): free the slot now.
      release();
      throw err;
    }
  };
}
