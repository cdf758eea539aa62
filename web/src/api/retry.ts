/** When the UI asks the service again (pure: unit-tested in Node, test/web/retry.test.ts). */

/** Reads retried on a 503 (Neo4j restarting, the service shedding load) before the page shows the error. */
export const READ_RETRIES = 2;

/**
 * How long to wait before asking again after an answer of `status`, or null not to: a 503 is retried
 * after its Retry-After (seconds; 1 when absent or unreadable, at most 5, so a page never hangs long)
 * for the first READ_RETRIES attempts (0-based `attempt`).
 */
export function retryDelayMs(status: number, retryAfter: string | null, attempt: number): number | null {
  if (status !== 503 || attempt >= READ_RETRIES) return null;
  const seconds = Number(retryAfter);
  return Math.round(Math.min(Number.isFinite(seconds) && seconds > 0 ? seconds : 1, 5) * 1000);
}
