/**
 * How many waiting events make a free writer start a transaction while another one is busy.
 *
 * The committer cannot see how many producers there are, only how many of their events are inside
 * it (waiting or in a transaction) at a time. Under steady load the peak of that count over the last
 * second or so is about the number of producers: at concurrency 32 about 30 (the others are on their
 * way in or out over HTTP), at 8 about 8. Sharing that peak between the writers keeps transactions as
 * large as the load allows, and balanced.
 *
 * The rule before (2026-11-24) capped the threshold at the events the busy writer held, which settled
 * wherever a disturbance left it: after both writers happened to start small (5 and 5), each went on
 * waiting for only as many as the other held, and transactions of 12-14 events at concurrency 32 were
 * the steady state instead of 15-16.
 */

/** The largest count seen over the last one to two windows: a sliding maximum in O(1). */
export class RecentPeak {
  private current = 0;
  private previous = 0;
  private windowStart: number;

  constructor(
    private readonly windowMs = 1000,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.windowStart = now();
  }

  record(value: number): void {
    this.roll();
    if (value > this.current) this.current = value;
  }

  get value(): number {
    this.roll();
    return Math.max(this.current, this.previous);
  }

  private roll(): void {
    const now = this.now();
    const elapsed = now - this.windowStart;
    if (elapsed < this.windowMs) return;
    // A window with no record at all (idle for two windows) forgets everything.
    this.previous = elapsed < 2 * this.windowMs ? this.current : 0;
    this.current = 0;
    this.windowStart = now;
  }
}

export interface ThresholdInput {
  /** The recent peak of events inside the committer (waiting plus in transactions). */
  recentPeak: number;
  writers: number;
  minBatch: number;
  maxBatch: number;
}

/**
 * Events a free writer waits for (up to the linger time) while another writer is busy: the writers'
 * fair share of the recent peak, at most `minBatch` and `maxBatch`, at least 1.
 */
export function startThreshold({ recentPeak, writers, minBatch, maxBatch }: ThresholdInput): number {
  return Math.max(1, Math.min(minBatch, maxBatch, Math.ceil(recentPeak / Math.max(1, writers))));
}
