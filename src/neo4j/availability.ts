/**
 * What the service knows about Neo4j being reachable, so that work fails fast while it is not.
 *
 * Without this, every request that reaches a dead Neo4j spends the driver's retry budget (15 s of
 * reconnect attempts) before its 503, and a group-commit batch retried event by event multiplies
 * that into minutes. Here the first connection failure triggers one short probe; if the probe fails
 * too, Neo4j is marked down, every transaction started meanwhile fails at once with
 * Neo4jUnavailable (503 + Retry-After), and a background probe marks it up again as soon as it
 * answers. The local server's supervisor marks it down the moment the JVM exits.
 *
 * A heartbeat (started by the process, not by tests) notices an outage with no traffic, so the
 * service re-warms Neo4j's plan cache after a restart it did not see fail a request.
 */
import neo4j from 'neo4j-driver';

/** Refusal of work while Neo4j is known to be unreachable: retriable, nothing was written. */
export class Neo4jUnavailable extends Error {
  readonly code = 'ServiceUnavailable';
  constructor(readonly reason: string) {
    super(`The graph database is unavailable (${reason}); retry later`);
    this.name = 'Neo4jUnavailable';
  }
}

/** Driver errors saying the connection to Neo4j failed or was lost (not a query's own failure). */
export function isConnectionError(err: unknown): boolean {
  if (err instanceof Neo4jUnavailable) return true;
  const e = err as { code?: unknown; message?: unknown } | null;
  if (!e || typeof e !== 'object') return false;
  if (e.code === neo4j.error.SERVICE_UNAVAILABLE || e.code === neo4j.error.SESSION_EXPIRED) return true;
  return (
    typeof e.message === 'string' &&
    /ECONNREFUSED|ECONNRESET|EPIPE|socket hang up|Connection was closed/i.test(e.message)
  );
}

/**
 * Errors no amount of probing cures: wrong credentials (or too many wrong attempts), a database that
 * does not exist, a port that does not speak Bolt. The service stops on them (server.ts) rather than
 * retrying with a bad password until Neo4j locks the user out.
 */
export function isConfigurationError(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown } | null;
  if (!e || typeof e !== 'object') return false;
  if (typeof e.code === 'string') {
    if (e.code.startsWith('Neo.ClientError.Security.')) return true;
    if (e.code === 'Neo.ClientError.Database.DatabaseNotFound') return true;
  }
  return typeof e.message === 'string' && /Server responded HTTP|Unknown Bolt protocol version/i.test(e.message);
}

export interface AvailabilityOptions {
  /** Time between probes while down (ms). */
  probeIntervalMs: number;
  /** How long one probe waits for Neo4j's answer (ms). */
  probeTimeoutMs: number;
  /** Time between heartbeats while up, once started (ms). */
  heartbeatMs: number;
  /** Consecutive unanswered heartbeats (not refused connections) after which Neo4j counts as down. */
  heartbeatMisses: number;
}

export const DEFAULT_AVAILABILITY_OPTIONS: AvailabilityOptions = {
  probeIntervalMs: 500,
  probeTimeoutMs: 1000,
  heartbeatMs: 2000,
  heartbeatMisses: 3,
};

export type AvailabilityListener = (up: boolean, reason: string) => void;

export class Neo4jAvailability {
  private downReason: string | null = null;
  private downSince = 0;
  private probing: Promise<boolean> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private heartbeat = false;
  private misses = 0;
  private closed = false;
  private readonly listeners: AvailabilityListener[] = [];
  private readonly failureListeners: ((err: unknown) => void)[] = [];
  private readonly opts: AvailabilityOptions;
  /** Times Neo4j went down (for /metrics). */
  outages = 0;

  constructor(
    private readonly ping: (timeoutMs: number) => Promise<void>,
    opts: Partial<AvailabilityOptions> = {},
  ) {
    this.opts = { ...DEFAULT_AVAILABILITY_OPTIONS, ...opts };
  }

  get isDown(): boolean {
    return this.downReason !== null;
  }

  /** Why Neo4j is down (null when up). */
  get reason(): string | null {
    return this.downReason;
  }

  /** Milliseconds since Neo4j went down (0 when up). */
  get downForMs(): number {
    return this.isDown ? Date.now() - this.downSince : 0;
  }

  /** Throws Neo4jUnavailable while Neo4j is known to be down. */
  assertUp(): void {
    if (this.downReason !== null) throw new Neo4jUnavailable(this.downReason);
  }

  /** Called on a change of state: up (true) or down (false), with the reason. */
  onChange(listener: AvailabilityListener): void {
    this.listeners.push(listener);
  }

  /** Called with the error of every failed probe (server.ts stops on a configuration error). */
  onProbeFailure(listener: (err: unknown) => void): void {
    this.failureListeners.push(listener);
  }

  /** Marks Neo4j down on outside knowledge (its process exited) and probes until it answers. */
  markDown(reason: string): void {
    if (this.closed) return;
    if (this.downReason === null) {
      this.downReason = reason;
      this.downSince = Date.now();
      this.outages++;
      this.emit(false, reason);
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.schedule(this.opts.probeIntervalMs);
  }

  /**
   * Probes Neo4j now (one probe at a time, shared by concurrent callers): true when it answers. A
   * failed probe marks it down. Transactions call this after a connection error, so a stale pooled
   * connection costs one retry, and a dead server a fast 503 instead of the driver's retry budget.
   */
  check(): Promise<boolean> {
    return this.probeOnce(false);
  }

  /** Starts the heartbeat (the service process; tests drive checks themselves). */
  startHeartbeat(): void {
    this.heartbeat = true;
    if (!this.timer) this.schedule(this.isDown ? this.opts.probeIntervalMs : this.opts.heartbeatMs);
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private probeOnce(heartbeat: boolean): Promise<boolean> {
    this.probing ??= this.probe(heartbeat).finally(() => (this.probing = null));
    return this.probing;
  }

  private async probe(heartbeat: boolean): Promise<boolean> {
    try {
      await this.ping(this.opts.probeTimeoutMs);
      this.misses = 0;
      if (this.downReason !== null) {
        const reason = `answering again after ${Math.round(this.downForMs)} ms`;
        this.downReason = null;
        this.emit(true, reason);
      }
      return true;
    } catch (err) {
      for (const listener of this.failureListeners) {
        try {
          listener(err);
        } catch {
          /* a listener's failure is its own */
        }
      }
      // A refused or lost connection is certain; a heartbeat left unanswered may be a busy server,
      // so only several in a row count as down.
      const certain = !heartbeat || isConnectionError(err) || this.downReason !== null;
      if (certain || ++this.misses >= this.opts.heartbeatMisses) this.markDown((err as Error)?.message ?? String(err));
      return false;
    }
  }

  private schedule(delayMs: number): void {
    if (this.closed || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.probeOnce(!this.isDown).finally(() => {
        if (this.isDown) this.schedule(this.opts.probeIntervalMs);
        else if (this.heartbeat) this.schedule(this.opts.heartbeatMs);
      });
    }, delayMs);
    this.timer.unref();
  }

  private emit(up: boolean, reason: string): void {
    for (const listener of this.listeners) {
      try {
        listener(up, reason);
      } catch {
        /* a listener's failure is its own */
      }
    }
  }
}
