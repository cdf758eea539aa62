/** Prometheus metrics served on GET /metrics (Marquez serves them on the app port too). */
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export interface Metrics {
  registry: Registry;
  httpDuration: Histogram<'method' | 'route' | 'status'>;
  eventsIngested: Counter<'kind' | 'outcome'>;
}

export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
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
