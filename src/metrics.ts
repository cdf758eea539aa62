/** Prometheus metrics served on GET /metrics (Marquez serves them on the app port too). */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { CommitterStats } from './ingest/committer.js';
import { memorySettingsInEffect } from './memory.js';

export interface Metrics {
  registry: Registry;
  httpDuration: Histogram<'method' | 'route' | 'status'>;
  eventsIngested: Counter<'kind' | 'outcome'>;
}

export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  // The memory settings in effect (src/memory.ts), beside prom-client's heap and RSS gauges.
  for (const [name, help, read] of [
    [
      'lineage_heap_growth_percent',
      'HEAP_GROWTH_PERCENT in effect: how far the V8 heap may grow past its live size between full collections ' +
        '(0: V8 default)',
      () => memorySettingsInEffect().applied?.heapGrowthPercent ?? 0,
    ],
    [
      'lineage_heap_size_limit_bytes',
      "V8's heap size limit (--max-old-space-size and the young generation)",
      () => memorySettingsInEffect().heapSizeLimitBytes,
    ],
  ] as const)
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        this.set(read());
      },
    });
  return {
    registry,
    httpDuration: new Histogram({
      name: 'lineage_http_request_duration_seconds',
      help: 'HTTP request duration by route and status',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
      registers: [registry],
    }),
    eventsIngested: new Counter({
      name: 'lineage_events_total',
      help: 'OpenLineage events received, by kind and outcome',
      labelNames: ['kind', 'outcome'],
      registers: [registry],
    }),
  };
}

/**
 * Ingest transaction counters and queue gauges, read from the committer at scrape time, and
 * histograms of each committed transaction's size and duration (how well group commit is working).
 */
export function observeCommitter(
  metrics: Metrics,
  committer: {
    stats: CommitterStats;
    queued: number;
    inFlight: number;
    onCommit(listener: (events: number, seconds: number) => void): void;
  },
): void {
  const counters: [keyof CommitterStats, string, string][] = [
    [
      'transactions',
      'lineage_ingest_transactions_total',
      'Committed ingest transactions (each holds one or more events)',
    ],
    ['events', 'lineage_ingest_committed_events_total', 'Events committed by ingest transactions'],
    [
      'retries',
      'lineage_ingest_retries_total',
      'Ingest transaction attempts retried after a transient error (deadlock, lock timeout)',
    ],
    [
      'splits',
      'lineage_ingest_split_batches_total',
      'Shared ingest transactions that failed and were retried one event per transaction',
    ],
    [
      'refused',
      'lineage_ingest_refused_events_total',
      'Events refused with 503 overloaded: the ingest queue was full (INGEST_MAX_QUEUE) or the wait too long ' +
        '(INGEST_MAX_WAIT_MS)',
    ],
    [
      'refusedForWait',
      'lineage_ingest_refused_slow_events_total',
      'Of the refused events, those refused because they would wait (or had waited) longer than INGEST_MAX_WAIT_MS',
    ],
    [
      'refusedUnavailable',
      'lineage_ingest_refused_unavailable_events_total',
      'Events refused with 503 unavailable at once because Neo4j was known to be down',
    ],
  ];
  for (const [key, name, help] of counters) countFrom(metrics, name, help, () => committer.stats[key]);
  const gauges: [string, string, () => number][] = [
    ['lineage_ingest_queued_events', 'Events waiting for an ingest transaction', () => committer.queued],
    ['lineage_ingest_transactions_in_flight', 'Ingest transactions in flight', () => committer.inFlight],
  ];
  for (const [name, help, read] of gauges) gaugeFrom(metrics, name, help, read);
  const size = new Histogram({
    name: fresh(metrics, 'lineage_ingest_transaction_events'),
    help: 'Events per committed ingest transaction (group commit batch size)',
    buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1000],
    registers: [metrics.registry],
  });
  const duration = new Histogram({
    name: fresh(metrics, 'lineage_ingest_transaction_duration_seconds'),
    help: 'Duration of committed ingest transactions, from start to commit, retries included',
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10, 60],
    registers: [metrics.registry],
  });
  committer.onCommit((events, seconds) => {
    size.observe(events);
    duration.observe(seconds);
  });
}

/** Admission of query API requests (QUERY_MAX_CONCURRENT, QUERY_MAX_WAIT_MS), read at scrape time. */
export function observeAdmission(
  metrics: Metrics,
  gate: { stats: { admitted: number; refused: number; heldForMemory: number }; inFlight: number; queued: number },
): void {
  const counters: ['admitted' | 'refused' | 'heldForMemory', string, string][] = [
    ['admitted', 'lineage_query_admitted_requests_total', 'Query API requests admitted to run'],
    [
      'refused',
      'lineage_query_refused_requests_total',
      'Query API requests refused with 503 overloaded (no slot free within QUERY_MAX_WAIT_MS)',
    ],
    [
      'heldForMemory',
      'lineage_query_held_for_memory_total',
      'Times a query slot was left unused because resident memory was above QUERY_MEMORY_SOFT_LIMIT',
    ],
  ];
  for (const [key, name, help] of counters) countFrom(metrics, name, help, () => gate.stats[key]);
  const gauges: [string, string, () => number][] = [
    ['lineage_query_requests_in_flight', 'Query API requests running', () => gate.inFlight],
    ['lineage_query_requests_queued', 'Query API requests waiting for a slot', () => gate.queued],
  ];
  for (const [name, help, read] of gauges) gaugeFrom(metrics, name, help, read);
}

/** The cap on request-body bytes in flight (BODY_BYTES_IN_FLIGHT; http/body-budget.ts), read at scrape time. */
export function observeBodyBudget(
  metrics: Metrics,
  budget: { stats: { refused: number }; inFlight: number; limitBytes: number },
): void {
  gaugeFrom(
    metrics,
    'lineage_request_body_bytes_in_flight',
    'Request-body bytes reserved now: bodies being read or held until their request is answered',
    () => budget.inFlight,
  );
  gaugeFrom(
    metrics,
    'lineage_request_body_bytes_in_flight_limit',
    'BODY_BYTES_IN_FLIGHT in effect (0: no cap)',
    () => budget.limitBytes,
  );
  countFrom(
    metrics,
    'lineage_request_body_refused_requests_total',
    'Requests refused with 503 overloaded before their body was read: BODY_BYTES_IN_FLIGHT was taken',
    () => budget.stats.refused,
  );
}

/**
 * Neo4j as the service sees it: up or down, outages so far, and, for the local server this process
 * supervises, its restarts (`restarts` is undefined for an external Neo4j).
 */
export function observeNeo4j(
  metrics: Metrics,
  neo4j: { isDown: boolean; outages: number },
  restarts?: () => number,
): void {
  gaugeFrom(
    metrics,
    'lineage_neo4j_up',
    '1 while Neo4j answers, 0 while the service knows it is down (requests then get 503 at once)',
    () => (neo4j.isDown ? 0 : 1),
  );
  countFrom(metrics, 'lineage_neo4j_outages_total', 'Times Neo4j became unreachable', () => neo4j.outages);
  if (restarts) {
    countFrom(
      metrics,
      'lineage_neo4j_restarts_total',
      'Restarts of the local Neo4j server by the service after it exited unexpectedly',
      restarts,
    );
  }
}

/** A collector's name, after removing the earlier one of that name: observing again replaces it. */
function fresh(metrics: Metrics, name: string): string {
  if (metrics.registry.getSingleMetric(name)) metrics.registry.removeSingleMetric(name);
  return name;
}

/** A counter following a total that only grows, read at scrape time. */
function countFrom(metrics: Metrics, name: string, help: string, read: () => number): void {
  let reported = 0;
  new Counter({
    name: fresh(metrics, name),
    help,
    registers: [metrics.registry],
    collect() {
      const total = read();
      this.inc(total - reported);
      reported = total;
    },
  });
}

/** A gauge read at scrape time. */
function gaugeFrom(metrics: Metrics, name: string, help: string, read: () => number): void {
  new Gauge({
    name: fresh(metrics, name),
    help,
    registers: [metrics.registry],
    collect() {
      this.set(read());
    },
  });
}
