/** What every router gets: the repositories and process-wide collaborators. */
import type { Logger } from '../logger.js';
import type { Metrics } from '../metrics.js';
import type { Db } from '../store/db.js';
import { NamespaceRepository } from '../store/namespaces.js';

export interface Services {
  db: Db;
  logger: Logger;
  metrics: Metrics;
  namespaces: NamespaceRepository;
}

export function createServices(db: Db, logger: Logger, metrics: Metrics): Services {
  return { db, logger, metrics, namespaces: new NamespaceRepository(db) };
}
