/**
 * One structured log line per request: method, path, status, duration, the client's address (behind a
 * proxy, from X-Forwarded-For when TRUST_PROXY says to trust it) and the API key's id (never the key).
 * The request id is added to it, as to every line of the request, by logger.ts. An error answer adds its
 * `error` and `reason` (the answer's message). Also feeds Prometheus.
 */
import type { Middleware } from 'koa';
import type { Logger } from '../../logger.js';
import type { Metrics } from '../../metrics.js';

export function requestLog(logger: Logger, metrics: Metrics): Middleware {
  return async (ctx, next) => {
    const start = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      const route = (ctx as { _matchedRoute?: string })._matchedRoute ?? 'unmatched';
      metrics.httpDuration.labels(ctx.method, String(route), String(ctx.status)).observe(ms / 1000);
      // 503 is an expected state (warming up, shedding load, Neo4j away), not a fault of this
      // service: the cause is logged where it is known; an error per refused request would drown it.
      const level = ctx.status === 503 ? 'warn' : ctx.status >= 500 ? 'error' : 'info';
      const keyId = (ctx.state.principal as { keyId?: string } | undefined)?.keyId;
      // An error answer's kind and message (errors.ts), so that the line says why a request was refused.
      const refusal = ctx.state.refusal as { error: string; reason: string } | undefined;
      logger[level](
        {
          method: ctx.method,
          path: ctx.path,
          status: ctx.status,
          durationMs: Math.round(ms * 100) / 100,
          ip: ctx.ip,
          ...(keyId ? { keyId } : {}),
          ...refusal,
        },
        'request',
      );
    }
  };
}
