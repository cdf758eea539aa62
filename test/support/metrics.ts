/** Reading the service's own /metrics in tests. */
import type { TestApp } from '../helper.js';

/** POST requests handled to their end, by status, from the request-duration histogram of /metrics. */
export async function handledPosts(t: TestApp): Promise<Record<string, number>> {
  const text = (await t.get('/metrics')).text;
  const counts: Record<string, number> = {};
  const line = /^lineage_http_request_duration_seconds_count\{([^}]*)\} (\d+)/gm;
  for (const [, labels, n] of text.matchAll(line)) {
    if (!labels.includes('method="POST"')) continue;
    const status = /status="(\d+)"/.exec(labels)?.[1] ?? '?';
    counts[status] = (counts[status] ?? 0) + Number(n);
  }
  return counts;
}

/** The sum of counts by status. */
export const totalOf = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0);
