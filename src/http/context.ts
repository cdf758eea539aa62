/** What every router gets: the repositories and process-wide collaborators. */
import type { Logger } from '../logger.js';
import type { Metrics } from '../metrics.js';
import type { Db } from '../store/db.js';
import { NamespaceRepository } from '../store/namespaces.js';
import { DEFAULT_COMMITTER_OPTIONS, IngestCommitter, type CommitterOptions } from '../ingest/committer.js';
import { LineageRepository } from '../store/lineage.js';
import { DatasetRepository } from '../store/datasets.js';
import { JobRepository } from '../store/jobs.js';
import { RunRepository } from '../store/runs.js';

export interface Services {
  db: Db;
  logger: Logger;
  metrics: Metrics;
  namespaces: NamespaceRepository;
  committer: IngestCommitter;
  lineage: LineageRepository;
  datasets: DatasetRepository;
  jobs: JobRepository;
  runs: RunRepository;
}

export function createServices(db: Db, logger: Logger, metrics: Metrics, ingest: Partial<CommitterOptions> = {}): Services {
  return { db, logger, metrics, namespaces: new NamespaceRepository(db), committer: new IngestCommitter(db, logger, { ...DEFAULT_COMMITTER_OPTIONS, ...ingest }), lineage: new LineageRepository(db), datasets: new DatasetRepository(db), jobs: new JobRepository(db), runs: new RunRepository(db) };
}
