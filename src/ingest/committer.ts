/**
 * Group commit for ingestion. Events that arrive while a transaction is in flight wait and are then
 * written together in the next transaction (each by its own statements, in arrival order), which
 * amortizes the commit (fsync) and round-trip cost across concurrent producers. A caller's promise
 * resolves only after the transaction holding its event has committed: a 201 means durable.
 *
 * If a shared transaction fails for a reason other than a transient error (those the driver
 * retries), its events are retried one transaction each, so one bad event cannot fail its neighbours.
 */
import type { Db } from '../store/db.js';
import type { NormalizedEvent } from '../domain/openlineage/types.js';
import { writeEvents } from '../store/ingest.js';
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
}

// One writer: shared datasets make concurrent write transactions deadlock-prone, and on a small machine a
// single group-committing writer already keeps Neo4j busy. More writers help only with many cores.
export const DEFAULT_COMMITTER_OPTIONS: CommitterOptions = { maxBatch: 32, writers: 1, timeoutMs: 60_000 };

export class IngestCommitter {
  private queue: Pending[] = [];
  private active = 0;
  private closed = false;
  private idleWaiters: (() => void)[] = [];

  constructor(
    private readonly db: Db,
    private readonly logger: Logger,
    private readonly opts: CommitterOptions = DEFAULT_COMMITTER_OPTIONS,
  ) {}

  submit(event: NormalizedEvent): Promise<void> {
    if (this.closed) return Promise.reject(new Error('ingestion is shutting down'));
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ event, receivedAt: new Date().toISOString(), resolve, reject });
      this.pump();
    });
  }

  /** Resolves when nothing is queued or in flight (used on shutdown). */
  async drain(): Promise<void> {
    this.closed = true;
    if (this.active === 0 && this.queue.length === 0) return;
    await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
  }

  private pump(): void {
    while (this.active < this.opts.writers && this.queue.length > 0) {
      const batch = this.queue.splice(0, this.opts.maxBatch);
      this.active++;
      void this.flush(batch).finally(() => {
        this.active--;
        if (this.queue.length > 0) this.pump();
        else if (this.active === 0) this.idleWaiters.splice(0).forEach((w) => w());
      });
    }
  }

  private async flush(batch: Pending[]): Promise<void> {
    try {
      await this.db.write({ op: batch.length === 1 ? 'ingest' : `ingest x${batch.length}`, timeoutMs: this.opts.timeoutMs }, (tx) =>
        writeEvents(tx, batch),
      );
      for (const p of batch) p.resolve();
    } catch (err) {
      if (batch.length === 1) {
        batch[0].reject(err);
        return;
      }
      this.logger.debug({ err, size: batch.length }, 'shared ingest transaction failed; retrying events one by one');
      for (const p of batch) {
        try {
          await this.db.write({ op: 'ingest', timeoutMs: this.opts.timeoutMs }, (tx) => writeEvents(tx, [p]));
          p.resolve();
        } catch (single) {
          p.reject(single);
        }
      }
    }
  }
}
