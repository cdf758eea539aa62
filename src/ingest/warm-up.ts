/**
 * Warming the write path before /readyz says ready, at start and after Neo4j comes back.
 *
 * A fresh Neo4j has an empty query plan cache and a cold JIT: the first ingest transaction used to
 * take seconds (planning the two composed ingest statements), past the 5 s default timeout of the
 * official Python client, so producers logged a timeout and posted the event again. "Ready" here
 * means "a write will be fast": the ingest statements are planned, then ingest transactions of
 * realistic events run through the committer's own code and are rolled back (nothing is stored),
 * until one is fast or the time allowed is spent.
 *
 * That makes the first writes fast, not the JVM warm: a fresh Neo4j spends about 45 s of a core
 * compiling itself over its first 14,000 events (docs/performance/service-journal.md, bench:cold-curve).
 * So after ready the rehearsals go on while ingestion is idle (warmUpWhileIdle): a service restarted in
 * a quiet hour meets its producers with most of that compiling done (60 s of rehearsals: the first 2,000
 * events cost Neo4j 14.8 instead of 22.9 ms of CPU each). They give way to real events and reads.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { IngestCommitter } from './committer.js';
import type { Logger } from '../logger.js';
import type { NormalizedEvent } from '../domain/openlineage/types.js';
import { parseEvent } from '../domain/openlineage/normalize.js';

/** Namespace of the rehearsal events (rolled back: never stored). */
export const WARM_UP_NAMESPACE = 'lineage-service-warm-up';

const PRODUCER = 'https://github.com/lineage-graph-service/warm-up';

/** Events of every kind, with the facets ingestion promotes, as one batch of `size`. */
export function warmUpBatch(size = 16): NormalizedEvent[] {
  const ns = WARM_UP_NAMESPACE;
  const t = Date.now();
  const time = (i: number) => new Date(t + i * 1000).toISOString();
  const schema = (n: number) => ({
    fields: Array.from({ length: n }, (_, i) => ({ name: `c${i}`, type: 'VARCHAR', description: 'warm-up' })),
  });
  const ds = (name: string, extra: Record<string, unknown> = {}) => ({
    namespace: ns,
    name,
    facets: {
      schema: schema(8),
      dataSource: { name: ns, uri: `postgres://warm-up/${ns}` },
      documentation: { description: 'warm-up' },
      ...extra,
    },
  });
  const bodies: Record<string, unknown>[] = [];
  const parentRun = randomUUID();
  for (let i = 0; bodies.length < size; i++) {
    const runId = randomUUID();
    const job = {
      namespace: ns,
      name: `job_${i}`,
      facets: {
        sql: { query: 'select 1' },
        jobType: { processingType: 'BATCH', integration: 'SPARK', jobType: 'TASK' },
        sourceCodeLocation: { type: 'git', url: 'https://example.com/repo' },
      },
    };
    const run = {
      runId,
      facets: {
        parent: { run: { runId: parentRun }, job: { namespace: ns, name: 'parent' } },
        nominalTime: { nominalStartTime: time(i) },
      },
    };
    const inputs = [ds(`in_${i}`), ds('shared_dim')];
    const outputs = [
      ds(`out_${i}`, {
        columnLineage: { fields: { c0: { inputFields: [{ namespace: ns, name: `in_${i}`, field: 'c0' }] } } },
      }),
    ];
    bodies.push({ eventType: 'START', eventTime: time(i), producer: PRODUCER, run, job, inputs, outputs: [] });
    bodies.push({
      eventType: i % 5 === 4 ? 'FAIL' : 'COMPLETE',
      eventTime: time(i + 1),
      producer: PRODUCER,
      run,
      job,
      inputs: [],
      outputs,
    });
    if (i % 4 === 0)
      bodies.push({
        eventTime: time(i),
        producer: PRODUCER,
        job: { namespace: ns, name: `job_${i}` },
        inputs,
        outputs,
      });
    if (i % 4 === 1) bodies.push({ eventTime: time(i), producer: PRODUCER, dataset: ds(`out_${i}`) });
  }
  return bodies.slice(0, size).map((body) => {
    const parsed = parseEvent(body);
    if (!parsed.ok) throw new Error(`warm-up event is invalid: ${JSON.stringify(parsed.problems)}`);
    return parsed.event;
  });
}

export interface WarmUpOptions {
  /** Stop once a rehearsal takes at most this long (ms)... */
  fastMs: number;
  /** ...or after this many rehearsals... */
  maxRounds: number;
  /** ...or this much time (ms) in all. */
  maxMs: number;
}

export const DEFAULT_WARM_UP: WarmUpOptions = { fastMs: 300, maxRounds: 30, maxMs: 10_000 };

/** Runs rehearsals until one is fast (see WarmUpOptions); resolves with what it did. */
export async function warmUpWritePath(
  committer: IngestCommitter,
  logger: Logger,
  opts: WarmUpOptions = DEFAULT_WARM_UP,
  signal?: AbortSignal,
) {
  const t0 = performance.now();
  const rounds: number[] = [];
  for (;;) {
    const start = performance.now();
    await committer.rehearse(warmUpBatch());
    const ms = performance.now() - start;
    rounds.push(Math.round(ms));
    if (ms <= opts.fastMs || rounds.length >= opts.maxRounds || performance.now() - t0 >= opts.maxMs || signal?.aborted)
      break;
  }
  const result = {
    rounds: rounds.length,
    firstMs: rounds[0],
    lastMs: rounds[rounds.length - 1],
    totalMs: Math.round(performance.now() - t0),
  };
  logger.info(result, 'write path warmed up (ingest transactions rehearsed and rolled back)');
  return result;
}

export interface IdleWarmUpOptions {
  /** Rehearsal time allowed in all (ms). */
  budgetMs: number;
  /** The service counts as idle once no event has been queued or committed, and no query run, for this long (ms)... */
  quietMs: number;
  /** ...checked this often (ms) while it is not. */
  pollMs: number;
}

/** What the query API's admission (src/http/middleware/admission.ts) says about the reads. */
export interface QueryActivity {
  readonly inFlight: number;
  readonly queued: number;
  readonly stats: { readonly admitted: number };
}

/** Other clients' work on the same Neo4j (src/store/neo4j-activity.ts): another replica, a loader, a person. */
export interface OthersActivity {
  othersRunning(): Promise<boolean>;
}

export const DEFAULT_IDLE_WARM_UP: IdleWarmUpOptions = { budgetMs: 60_000, quietMs: 1000, pollMs: 250 };

/**
 * Rehearses (rolled back, like warmUpWritePath) while the committer has nothing queued or in flight,
 * nor the query API (`queries`), nor (`others`) any other client of the same Neo4j database, and all
 * have been quiet for `quietMs`, until `budgetMs` of rehearsing is spent or `signal` aborts. Other
 * clients are sampled at every poll and before every rehearsal (Community Edition shows open
 * transactions only), so under another replica's steady writes a rehearsal needs every sample of a
 * quiet period to miss them. A rehearsal is one batch (tens of ms once warm), so a
 * producer arriving meanwhile waits at most that long for the CPU. Resolves with what it did.
 */
export async function warmUpWhileIdle(
  committer: IngestCommitter,
  logger: Logger,
  opts: IdleWarmUpOptions = DEFAULT_IDLE_WARM_UP,
  signal?: AbortSignal,
  queries?: QueryActivity,
  others?: OthersActivity,
) {
  let lastBusy = performance.now();
  let admitted = queries?.stats.admitted ?? 0;
  const busy = () => {
    // A query admitted since the last look counts, however short: reads must not share the CPU either.
    const seen = queries?.stats.admitted ?? 0;
    const queried = seen !== admitted || (queries !== undefined && queries.inFlight + queries.queued > 0);
    admitted = seen;
    return queried || committer.queued > 0 || committer.inFlight > 0;
  };
  const noteActivity = () => {
    lastBusy = performance.now();
  };
  committer.onCommit(noteActivity);
  let spentMs = 0;
  let rehearsals = 0;
  let lastMs = 0;
  try {
    while (spentMs < opts.budgetMs && !signal?.aborted) {
      if (busy() || (others !== undefined && (await others.othersRunning()))) noteActivity();
      if (performance.now() - lastBusy < opts.quietMs) {
        // Resolves early (never throws) when the service stops or Neo4j goes away.
        await sleep(opts.pollMs, undefined, { signal }).catch(() => undefined);
        continue;
      }
      const start = performance.now();
      await committer.rehearse(warmUpBatch());
      lastMs = performance.now() - start;
      spentMs += lastMs;
      rehearsals++;
    }
  } finally {
    committer.offCommit(noteActivity);
  }
  const result = { rehearsals, spentMs: Math.round(spentMs), lastMs: Math.round(lastMs) };
  if (rehearsals > 0) logger.info(result, 'write path warmed further while the service was idle');
  return result;
}
