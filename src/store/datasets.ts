/** Dataset aggregate: datasets, their versions and soft deletion. */
import type { Dataset, DatasetVersion, Page } from '../api/types.js';
import { int, type Db } from './db.js';
import { toDataset, toDatasetVersion } from './mappers.js';

export class DatasetRepository {
  constructor(private readonly db: Db) {}

  /** null when the namespace does not exist. */
  async list(namespace: string, offset: number, limit: number): Promise<Page<Dataset> | null> {
    const res = await this.db.query('datasets/list', { namespace, offset: int(offset), limit: int(limit) });
    const row = res.records[0];
    if (!row) return null;
    return { totalCount: Number(row.get('totalCount')), items: (row.get('datasets') as unknown[]).map(toDataset) };
  }

  async get(namespace: string, name: string): Promise<Dataset | null> {
    const res = await this.db.query('datasets/get', { namespace, name });
    return res.records.length ? toDataset(res.records[0].get('dataset')) : null;
  }

  /** null when the dataset does not exist. */
  async versions(namespace: string, name: string, offset: number, limit: number): Promise<Page<DatasetVersion> | null> {
    const res = await this.db.query('datasets/versions', { namespace, name, offset: int(offset), limit: int(limit) });
    const row = res.records[0];
    if (!row) return null;
    const dataset = row.get('dataset');
    return {
      totalCount: Number(row.get('totalCount')),
      items: (row.get('versions') as { version: unknown; run: unknown }[]).map((v) => toDatasetVersion({ dataset, version: v.version, run: v.run })),
    };
  }

  async version(namespace: string, name: string, version: string): Promise<DatasetVersion | null> {
    const res = await this.db.query('datasets/version', { namespace, name, version });
    const row = res.records[0];
    return row ? toDatasetVersion({ dataset: row.get('dataset'), version: row.get('version'), run: row.get('run') }) : null;
  }

  async softDelete(namespace: string, name: string): Promise<Dataset | null> {
    const res = await this.db.command('datasets/delete', { namespace, name });
    return res.records.length ? toDataset(res.records[0].get('dataset')) : null;
  }
}
