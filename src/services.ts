/**
 * The composition root: builds the repositories and process-wide collaborators (committer, query
 * admission, metrics observers) on one Db, once per app; every router gets them as `Services`.
 */
import type { Logger } from './logger.js';
import { observeAdmission, observeBodyBudget, observeCommitter, observeNeo4j, type Metrics } from './metrics.js';
import { Admission, type AdmissionOptions } from './http/middleware/admission.js';
import type { Db } from './store/db.js';
import { NamespaceRepository } from './store/namespaces.js';
import { DEFAULT_COMMITTER_OPTIONS, IngestCommitter, type CommitterOptions } from './ingest/committer.js';
import { LineageRepository, type LineageOptions } from './store/lineage/index.js';
import { DatasetRepository } from './store/datasets.js';
import { JobRepository } from './store/jobs.js';
import { RunRepository } from './store/runs.js';
import { SourceRepository } from './store/sources.js';
import { TagRepository } from './store/tags.js';
import { SearchRepository } from './store/search.js';
import { EventRepository } from './store/events.js';
import { StatsRepository } from './store/stats.js';
import { Readiness } from './readiness.js';
import { ImpactRepository } from './store/impact.js';
import { DEFAULT_FACET_KEYS_MAX, FacetKeyBudget } from './ingest/facet-keys.js';
import { BodyBudget, DEFAULT_BODY_BYTES_IN_FLIGHT } from './http/body-budget.js';

export interface Services {
  db: Db;
  logger: Logger;
  metrics: Metrics;
  namespaces: NamespaceRepository;
  committer: IngestCommitter;
  lineage: LineageRepository;
  impact: ImpactRepository;
  datasets: DatasetRepository;
  jobs: JobRepository;
  runs: RunRepository;
  sources: SourceRepository;
  tags: TagRepository;
  search: SearchRepository;
  events: EventRepository;
  stats: StatsRepository;
  /** Start-up work /readyz waits for (server.ts registers it). */
  readiness: Readiness;
  /** Admission of query API requests (middleware/admission.ts). */
  admission: Admission;
  /** The cap on facet property keys (FACET_KEYS_MAX). */
  facetKeys: FacetKeyBudget;
  /** The cap on request-body bytes in flight (BODY_BYTES_IN_FLIGHT; http/body-budget.ts). */
  bodyBudget: BodyBudget;
}

export function createServices(
  db: Db,
  logger: Logger,
  metrics: Metrics,
  ingest: Partial<CommitterOptions> = {},
  lineage: LineageOptions = {},
  queries: Partial<AdmissionOptions> = {},
  facetKeysMax = DEFAULT_FACET_KEYS_MAX,
  bodyBytesInFlight = DEFAULT_BODY_BYTES_IN_FLIGHT,
): Services {
  const committer = new IngestCommitter(db, logger, { ...DEFAULT_COMMITTER_OPTIONS, ...ingest });
  observeCommitter(metrics, committer);
  const admission = new Admission(queries);
  observeAdmission(metrics, admission);
  observeNeo4j(metrics, db.availability);
  const bodyBudget = new BodyBudget(bodyBytesInFlight);
  observeBodyBudget(metrics, bodyBudget);
  const lineageRepository = new LineageRepository(db, lineage);
  return {
    db,
    logger,
    metrics,
    admission,
    bodyBudget,
    facetKeys: new FacetKeyBudget(db, facetKeysMax),
    namespaces: new NamespaceRepository(db),
    committer,
    lineage: lineageRepository,
    impact: new ImpactRepository(db, lineageRepository, 'auto', logger),
    datasets: new DatasetRepository(db),
    jobs: new JobRepository(db),
    runs: new RunRepository(db),
    sources: new SourceRepository(db),
    tags: new TagRepository(db),
    search: new SearchRepository(db),
    events: new EventRepository(db),
    stats: new StatsRepository(db),
    readiness: new Readiness(),
  };
}
