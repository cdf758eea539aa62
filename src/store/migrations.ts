/**
 * Data migrations run at start, before the service listens. Each is idempotent (it derives what it
 * writes from data the graph keeps anyway), batched (one transaction per batch, so a large graph
 * never needs one huge transaction), and recorded as a (:Migration {name}) node once done, so a
 * restart after an interruption simply runs it again.
 */
import { runQuery } from './cypher.js';
import { int, toNative, type Db } from './db.js';
import { planEdges, type EdgeObservation } from '../domain/edge-plan.js';
import type { Logger } from '../logger.js';
import { edgeWriteParams, writeEvents } from './ingest.js';
import { schemaColumns, schemaFields, type SchemaColumn } from '../domain/openlineage/normalize.js';
import { storedIncoming } from './alias-repair.js';
import type { Incoming } from '../domain/ingest/rows.js';
import { RunJobConflict } from '../domain/ingest/run-fold.js';

export const EDGE_HISTORY_MIGRATION = 'lineage-edge-history';

type Ref = [string, string];
interface RunHistory {
  id: string;
  state: string | null;
  first: number;
  last: number;
  inputs: Ref[];
  outputs: [string, string, number | null][];
}
interface JobHistory {
  namespace: string;
  name: string;
  runs: RunHistory[];
  declared: DeclaredVersion[];
}
interface DeclaredVersion {
  first: number;
  last: number;
  inputs: Ref[];
  outputs: Ref[];
}

/**
 * What a job's runs and JobEvents observed, from the run-level graph. The first mention of an input
 * by a run was not kept before edges had histories: the run's first event stands for it.
 */
export function storedObservations(
  job: { namespace: string; name: string },
  runs: RunHistory[],
  declared: DeclaredVersion[],
): EdgeObservation[] {
  const jobRef = { namespace: job.namespace, name: job.name };
  const out: EdgeObservation[] = [];
  for (const r of runs) {
    const last = Math.max(r.first, r.last);
    for (const [namespace, name] of r.inputs)
      out.push({
        job: jobRef,
        input: true,
        dataset: { namespace, name },
        span: { from: r.first, to: last },
        runId: r.id,
      });
    for (const [namespace, name, at] of r.outputs) {
      const from = at ?? r.first;
      out.push({
        job: jobRef,
        input: false,
        dataset: { namespace, name },
        span: { from, to: Math.max(from, last) },
        runId: r.id,
      });
    }
  }
  for (const v of declared) {
    for (const at of new Set([v.first, v.last])) {
      for (const [namespace, name] of v.inputs)
        out.push({ job: jobRef, input: true, dataset: { namespace, name }, span: { from: at, to: at }, runId: null });
      for (const [namespace, name] of v.outputs)
        out.push({ job: jobRef, input: false, dataset: { namespace, name }, span: { from: at, to: at }, runId: null });
    }
  }
  return out;
}

/**
 * Runs `migrate` unless the migration `name` is recorded as done, then records it; resolves to what
 * `migrate` counted (0 when done before). An interrupted migration is not recorded, so it runs again.
 */
async function onceRecorded(db: Db, name: string, migrate: () => Promise<number>): Promise<number> {
  const applied = await db.read({ op: 'migration' }, (tx) => runQuery(tx, 'migrations/applied', { name }));
  if (applied.records[0].get('applied')) return 0;
  const count = await migrate();
  await db.write({ op: 'migration' }, (tx) =>
    runQuery(tx, 'migrations/record', { name, now: new Date().toISOString() }),
  );
  return count;
}

/**
 * Gives every dataset-level lineage edge its history (cypher/README.md, "Lineage edges"), derived
 * from the runs and JobEvent versions already stored: a database written before edges accumulated
 * kept only each job's current version's edges. Returns the number of jobs migrated (0 when done before).
 */
export async function migrateEdgeHistory(db: Db, logger?: Logger, batchSize = 200): Promise<number> {
  return onceRecorded(db, EDGE_HISTORY_MIGRATION, async () => {
    const started = performance.now();
    let after: { namespace: string; name: string } | null = null;
    let jobs = 0;
    for (;;) {
      const cursor: { namespace: string; name: string } | null = after;
      const batch: JobHistory[] = await db.write(
        { op: 'migration', timeoutMs: 300_000 },
        async (tx): Promise<JobHistory[]> => {
          const res = await runQuery(tx, 'migrations/edge-history-runs', {
            afterNamespace: cursor?.namespace ?? null,
            afterName: cursor?.name ?? null,
            limit: int(batchSize),
          });
          const rows: JobHistory[] = res.records.map((r) => ({
            namespace: r.get('namespace') as string,
            name: r.get('name') as string,
            runs: toNative(r.get('runs')) as RunHistory[],
            declared: toNative(r.get('declared')) as DeclaredVersion[],
          }));
          if (!rows.length) return rows;
          const observations = rows.flatMap((j) => storedObservations(j, j.runs, j.declared));
          const states = new Map(rows.flatMap((j) => j.runs.map((r) => [r.id, r.state ?? 'NEW'] as [string, string])));
          await runQuery(tx, 'migrations/edge-history-clear', {
            jobs: rows.map((j) => ({ namespace: j.namespace, name: j.name })),
          });
          await runQuery(tx, 'ingest/lineage-edges', {
            edges: edgeWriteParams(planEdges(new Map(), observations, states)),
          });
          return rows;
        },
      );
      if (!batch.length) break;
      jobs += batch.length;
      after = { namespace: batch[batch.length - 1].namespace, name: batch[batch.length - 1].name };
      if (jobs % (batchSize * 10) === 0) logger?.info({ jobs }, 'migrating lineage edges: giving each its history');
    }
    if (jobs > 0)
      logger?.info(
        { jobs, ms: Math.round(performance.now() - started) },
        'lineage edges migrated: each has its history',
      );
    return jobs;
  });
}

export const FOLD_BOOKKEEPING_MIGRATION = 'fold-bookkeeping';

/**
 * Gives data written before ingestion folded values over the set of events the bookkeeping that
 * fold reads (cypher/migrations/fold-bookkeeping.cypher), run by run. Jobs with no run keep no
 * lastEventAt until their next event (their updatedAt then restarts from it). Returns the number of
 * runs visited (0 when done before).
 */
export async function migrateFoldBookkeeping(db: Db, logger?: Logger, batchSize = 2000): Promise<number> {
  return onceRecorded(db, FOLD_BOOKKEEPING_MIGRATION, () =>
    batchesAfter(
      db,
      'migrations/fold-bookkeeping',
      batchSize,
      () => batchSize,
      (runs) => {
        if (runs % (batchSize * 10) === 0) logger?.info({ runs }, 'migrating ingest bookkeeping');
      },
    ),
  );
}

export const LATEST_RUN_END_MIGRATION = 'latest-run-end';

/**
 * Gives each job whose latest run has ended its `latestRunEndedAt` (cypher/migrations/latest-run-end.cypher),
 * which the ingest keeps beside `latestRunState` since the blast radius reads it from the job. Returns the
 * number of jobs given it (0 when done before).
 */
export async function migrateLatestRunEnd(db: Db, logger?: Logger, batchSize = 2000): Promise<number> {
  return onceRecorded(db, LATEST_RUN_END_MIGRATION, () =>
    batchesUntilNone(db, 'migrations/latest-run-end', 'jobs', batchSize, (jobs) => {
      if (jobs % (batchSize * 10) === 0) logger?.info({ jobs }, 'migrating jobs: the end of each latest run');
    }),
  );
}

export const PLACEHOLDER_LAST_MODIFIED_MIGRATION = 'placeholder-last-modified';

/**
 * Clears `lastModifiedAt` of each dataset whose current version is the placeholder
 * (cypher/migrations/placeholder-last-modified.cypher): nothing known wrote it, where data written before
 * took the placeholder's time. Returns the number of datasets cleared (0 when done before).
 */
export async function migratePlaceholderLastModified(db: Db, logger?: Logger, batchSize = 2000): Promise<number> {
  return onceRecorded(db, PLACEHOLDER_LAST_MODIFIED_MIGRATION, async () => {
    const cleared = await batchesUntilNone(db, 'migrations/placeholder-last-modified', 'datasets', batchSize, () => {});
    if (cleared > 0) logger?.info({ datasets: cleared }, 'datasets only ever read: no lastModifiedAt');
    return cleared;
  });
}

export const LATEST_RUN_PARENTS_MIGRATION = 'latest-run-parents';

/**
 * Chooses again the LATEST_RUN of every job holding a run known only from its children's `parent` facets
 * (cypher/migrations/latest-run-parents.cypher): such runs count among a job's runs since this version,
 * and ingestion only compares new runs with the pointer it finds. Returns the number of those runs (0 when
 * done before).
 */
export async function migrateLatestRunParents(db: Db, logger?: Logger, batchSize = 2000): Promise<number> {
  return onceRecorded(db, LATEST_RUN_PARENTS_MIGRATION, () =>
    batchesAfter(
      db,
      'migrations/latest-run-parents',
      batchSize,
      (row) => toNative(row.get('runs')) as number,
      (runs) => logger?.info({ runs }, 'migrating jobs: parent runs among their latest runs'),
    ),
  );
}

export const DELETED_LABEL_MIGRATION = 'deleted-label';

/**
 * Gives each soft-deleted dataset and job the label `Deleted` (cypher/migrations/deleted-label.cypher),
 * which deletes set and ingestion removes beside `isDeleted`, since the lineage walks test the label.
 * Returns the number of nodes labelled (0 when done before).
 */
export async function migrateDeletedLabel(db: Db, logger?: Logger, batchSize = 2000): Promise<number> {
  return onceRecorded(db, DELETED_LABEL_MIGRATION, () =>
    batchesUntilNone(db, 'migrations/deleted-label', 'nodes', batchSize, (nodes) =>
      logger?.info({ nodes }, 'migrating soft-deleted datasets and jobs: the Deleted label'),
    ),
  );
}

export const COLUMN_LINEAGE_COUNT_MIGRATION = 'column-lineage-count';

/**
 * Gives each dataset its `columnLineageVersions` (cypher/migrations/column-lineage-count.cypher), which
 * ingestion keeps since column lineage reads it instead of visiting every version of a dataset. Returns
 * the number of datasets counted (0 when done before). Each batch scans the datasets from the start of the
 * label for uncounted ones: large batches keep that scan's total, quadratic in the datasets, small.
 */
export async function migrateColumnLineageCount(db: Db, logger?: Logger, batchSize = 10_000): Promise<number> {
  return onceRecorded(db, COLUMN_LINEAGE_COUNT_MIGRATION, () =>
    batchesUntilNone(db, 'migrations/column-lineage-count', 'datasets', batchSize, (datasets) => {
      if (datasets % (batchSize * 10) === 0)
        logger?.info({ datasets }, 'migrating datasets: the count of versions declaring column lineage');
    }),
  );
}

export const JOB_VERSION_LINKS_MIGRATION = 'job-version-links';

/**
 * Leaves each job version one VERSION_OF link (cypher/migrations/job-version-links.cypher): earlier
 * releases could link a new version twice when two runs of one transaction took it. Returns the number
 * of versions repaired (0 when done before, or when none had an extra link).
 */
export async function migrateJobVersionLinks(db: Db, logger?: Logger, batchSize = 2000): Promise<number> {
  return onceRecorded(db, JOB_VERSION_LINKS_MIGRATION, async () => {
    const repaired = await batchesUntilNone(db, 'migrations/job-version-links', 'versions', batchSize, () => {});
    if (repaired > 0) logger?.info({ versions: repaired }, 'job versions linked twice to their job: repaired');
    return repaired;
  });
}

export const SIMPLE_NAMES_MIGRATION = 'simple-names';

/**
 * Gives each job with a parent Marquez's simpleName (cypher/migrations/simple-names.cypher): its name less
 * the parent's name and a dot when it starts with them, else its name, where earlier versions kept the part
 * after the last dot. Returns the number of jobs renamed (0 when done before, or when none needed it).
 */
export async function migrateSimpleNames(db: Db, logger?: Logger, batchSize = 2000): Promise<number> {
  return onceRecorded(db, SIMPLE_NAMES_MIGRATION, async () => {
    const renamed = await batchesUntilNone(db, 'migrations/simple-names', 'jobs', batchSize, () => {});
    if (renamed > 0) logger?.info({ jobs: renamed }, "jobs' simpleName: Marquez's rule");
    return renamed;
  });
}

export const NESTED_FIELDS_MIGRATION = 'nested-fields';

/** The nested columns a dataset's schemas name, for `migrations/nested-fields.cypher`. */
export interface NestedFieldsRow {
  namespace: string;
  name: string;
  typed: SchemaColumn[];
  untyped: string[];
}

/**
 * The nested columns (named by their dotted path) of a dataset's schema, typed by it, and those only in
 * its versions' schemas, untyped: what ingestion gives the columns of the schema that holds and of the
 * others. Top-level columns are left out: earlier versions made their nodes already.
 */
export function nestedFieldsRow(
  ref: { namespace: string; name: string },
  fieldsJson: string | null,
  versionFields: readonly string[],
): NestedFieldsRow | null {
  const nested = (json: string | null): SchemaColumn[] => {
    let parsed: unknown = null;
    try {
      parsed = json === null ? null : JSON.parse(json);
    } catch {
      // Not a schema: nothing to migrate.
    }
    const fields = schemaFields(parsed);
    const top = new Set(fields.map((f) => f.name));
    return schemaColumns(fields).filter((c) => !top.has(c.name));
  };
  const typed = nested(fieldsJson);
  const names = new Set(typed.map((c) => c.name));
  const untyped = new Set<string>();
  for (const json of versionFields) for (const c of nested(json)) if (!names.has(c.name)) untyped.add(c.name);
  if (typed.length === 0 && untyped.size === 0) return null;
  return { ...ref, typed, untyped: [...untyped].sort() };
}

/**
 * Gives each dataset the column nodes of its nested columns (cypher/migrations/nested-fields*.cypher):
 * earlier versions made nodes for top-level columns only, so a nested column could be neither tagged nor
 * asked for in column lineage. Returns the number of datasets given some (0 when done before).
 */
export async function migrateNestedFields(db: Db, logger?: Logger, batchSize = 2000): Promise<number> {
  return onceRecorded(db, NESTED_FIELDS_MIGRATION, async () => {
    let after: { namespace: string; name: string } | null = null;
    let datasets = 0;
    for (;;) {
      const cursor: { namespace: string; name: string } | null = after;
      type Batch = { last: { namespace: string; name: string } | null; migrated: number };
      const batch: Batch = await db.write({ op: 'migration', timeoutMs: 300_000 }, async (tx): Promise<Batch> => {
        const res = await runQuery(tx, 'migrations/nested-fields-read', {
          afterNamespace: cursor?.namespace ?? null,
          afterName: cursor?.name ?? null,
          limit: int(batchSize),
        });
        const refs = res.records.map((r) => ({
          namespace: r.get('namespace') as string,
          name: r.get('name') as string,
        }));
        const rows = res.records
          .map((r, i) => nestedFieldsRow(refs[i], r.get('fields') as string | null, r.get('versionFields') as string[]))
          .filter((r): r is NestedFieldsRow => r !== null);
        if (rows.length) await runQuery(tx, 'migrations/nested-fields', { datasets: rows });
        return { last: refs[refs.length - 1] ?? null, migrated: rows.length };
      });
      if (!batch.last) break;
      datasets += batch.migrated;
      after = batch.last;
    }
    if (datasets > 0) logger?.info({ datasets }, 'nested columns given column nodes, named by their dotted path');
    return datasets;
  });
}

export const DATASET_WIDE_COLUMN_LINEAGE_MIGRATION = 'dataset-wide-column-lineage';

/**
 * Delivers again, to the ingest path, the stored events whose ColumnLineage facet has dataset-wide inputs
 * (cypher/migrations/dataset-wide-column-lineage.cypher): versions before 2026-11-27 made no FEEDS edge
 * from them. Ingestion is idempotent (the same graph whatever the number of deliveries), so a delivery
 * writes only what was missing, and the stored event itself is unchanged. `deliverBatch` events per
 * transaction. Returns the number of events delivered (0 when done before, or when none has such inputs).
 */
export async function migrateDatasetWideColumnLineage(
  db: Db,
  logger?: Logger,
  readBatch = 2000,
  deliverBatch = 32,
): Promise<number> {
  return onceRecorded(db, DATASET_WIDE_COLUMN_LINEAGE_MIGRATION, async () => {
    let after = '';
    let delivered = 0;
    for (;;) {
      const res = await db.read({ op: 'migration', timeoutMs: 300_000 }, (tx) =>
        runQuery(tx, 'migrations/dataset-wide-column-lineage', { after, limit: int(readBatch) }),
      );
      const row = res.records[0];
      const last = row.get('last');
      if (last === null) break;
      const items = row.get('events').flatMap(([payload, receivedAt]) => storedIncoming(payload, receivedAt) ?? []);
      for (let i = 0; i < items.length; i += deliverBatch) {
        delivered += await deliver(db, items.slice(i, i + deliverBatch), logger);
      }
      after = last;
    }
    if (delivered > 0) logger?.info({ events: delivered }, 'events with dataset-wide column lineage delivered again');
    return delivered;
  });
}

/** One transaction for `items`; one per event when an event conflicts (it is then skipped and logged). */
async function deliver(db: Db, items: Incoming[], logger?: Logger): Promise<number> {
  try {
    await db.write({ op: 'migration', timeoutMs: 300_000 }, (tx) => writeEvents(tx, items));
    return items.length;
  } catch (err) {
    if (!(err instanceof RunJobConflict)) throw err;
    if (items.length === 1) {
      logger?.warn({ runId: items[0].event.run?.externalId, err: err.message }, 'event not delivered again: conflict');
      return 0;
    }
    let n = 0;
    for (const item of items) n += await deliver(db, [item], logger);
    return n;
  }
}

/** Every data migration, in the order a start runs them (src/server.ts). */
const MIGRATIONS: [name: string, migrate: (db: Db, logger?: Logger) => Promise<number>][] = [
  [EDGE_HISTORY_MIGRATION, migrateEdgeHistory],
  [FOLD_BOOKKEEPING_MIGRATION, migrateFoldBookkeeping],
  [LATEST_RUN_END_MIGRATION, migrateLatestRunEnd],
  [LATEST_RUN_PARENTS_MIGRATION, migrateLatestRunParents],
  [DELETED_LABEL_MIGRATION, migrateDeletedLabel],
  [COLUMN_LINEAGE_COUNT_MIGRATION, migrateColumnLineageCount],
  [JOB_VERSION_LINKS_MIGRATION, migrateJobVersionLinks],
  [SIMPLE_NAMES_MIGRATION, migrateSimpleNames],
  [PLACEHOLDER_LAST_MODIFIED_MIGRATION, migratePlaceholderLastModified],
  [NESTED_FIELDS_MIGRATION, migrateNestedFields],
  // Last: the events are delivered to today's ingest path, onto data every migration above has brought up to date.
  [DATASET_WIDE_COLUMN_LINEAGE_MIGRATION, migrateDatasetWideColumnLineage],
];
export const MIGRATION_NAMES = MIGRATIONS.map(([name]) => name);

/**
 * The data migrations of a start, each run unless recorded as done. A new database (no node at all: the
 * schema is applied, nothing else) has nothing to migrate, since the migrations derive what they write
 * from data written by earlier versions: each is then only recorded, which spares a first start planning
 * and running every migration's statements (several seconds on a cold Neo4j on a small machine).
 * Resolves to what it did.
 */
export async function runMigrations(db: Db, logger?: Logger): Promise<'recorded' | 'ran'> {
  const fresh = await db.read({ op: 'migration' }, (tx) => runQuery(tx, 'migrations/new-database', {}));
  if (fresh.records[0].get('empty')) {
    const now = new Date().toISOString();
    await db.write({ op: 'migration' }, async (tx) => {
      for (const name of MIGRATION_NAMES) await runQuery(tx, 'migrations/record', { name, now });
    });
    return 'recorded';
  }
  for (const [, migrate] of MIGRATIONS) await migrate(db, logger);
  return 'ran';
}

/**
 * Runs a migration query that pages by key (`$after`, `$limit`; it returns the `last` key of its batch, null
 * when none was left), one transaction per batch; `counted` says how many items a batch changed, and
 * `progress` gets the running total after each batch. Returns the total.
 */
async function batchesAfter(
  db: Db,
  name: 'migrations/fold-bookkeeping' | 'migrations/latest-run-parents',
  batchSize: number,
  counted: (row: { get(key: string): unknown }) => number,
  progress: (total: number) => void,
): Promise<number> {
  let after = '';
  let total = 0;
  for (;;) {
    const batch = await db.write({ op: 'migration', timeoutMs: 300_000 }, async (tx) => {
      const res = await runQuery(tx, name, { after, limit: int(batchSize) });
      const row = res.records[0] as unknown as { get(key: string): unknown };
      return { last: row.get('last') as string | null, count: counted(row) };
    });
    if (batch.last === null) return total;
    total += batch.count;
    after = batch.last;
    progress(total);
  }
}

/**
 * Runs a migration query that changes at most `$limit` items and returns how many in one column, one
 * transaction per batch, until a batch changes none; `progress` gets the running total after each batch.
 * Returns the total.
 */
async function batchesUntilNone(
  db: Db,
  name:
    | 'migrations/latest-run-end'
    | 'migrations/deleted-label'
    | 'migrations/column-lineage-count'
    | 'migrations/job-version-links'
    | 'migrations/simple-names'
    | 'migrations/placeholder-last-modified',
  column: 'jobs' | 'nodes' | 'datasets' | 'versions',
  batchSize: number,
  progress: (total: number) => void,
): Promise<number> {
  let total = 0;
  for (;;) {
    const done = await db.write({ op: 'migration', timeoutMs: 300_000 }, async (tx) => {
      const res = await runQuery(tx, name, { limit: int(batchSize) });
      return toNative((res.records[0] as unknown as { get(key: string): unknown }).get(column)) as number;
    });
    if (done === 0) return total;
    total += done;
    progress(total);
  }
}
