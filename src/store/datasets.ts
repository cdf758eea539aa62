/** Dataset aggregate: datasets, their versions and soft deletion. */
import type { Dataset, DatasetVersion, Page } from '../api/types.js';
import type { QueryResult } from 'neo4j-driver';
import { int, type Db } from './db.js';
import type { RowOf } from './catalogue.js';
import { toDataset, toDatasetVersion } from './mappers.js';
import { BY_NAME, isByName, orderedQuery, type ListOrder } from './list-order.js';

export class DatasetRepository {
  constructor(private readonly db: Db) {}

  /** null when the namespace does not exist. */
  async list(
    namespace: string,
    offset: number,
    limit: number,
    order: ListOrder = BY_NAME,
  ): Promise<Page<Dataset> | null> {
    const params = { namespace, offset: int(offset), limit: int(limit) };
    const res = isByName(order)
      ? await this.db.query('datasets/list', params)
      : await this.db.execute<RowOf<'datasets/list'>>(
          'READ',
          'datasets/list',
          orderedQuery('datasets/list', 'd', order),
          params,
        );
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
      items: (row.get('versions') as { version: unknown; run: unknown }[]).map((v) =>
        toDatasetVersion({ dataset, version: v.version, run: v.run }),
      ),
    };
  }

  async version(namespace: string, name: string, version: string): Promise<DatasetVersion | null> {
    const res = await this.db.query('datasets/version', { namespace, name, version });
    const row = res.records[0];
    return row
      ? toDatasetVersion({ dataset: row.get('dataset'), version: row.get('version'), run: row.get('run') })
      : null;
  }

  async softDelete(namespace: string, name: string): Promise<Dataset | null> {
    const res = await this.db.command('datasets/delete', { namespace, name });
    return res.records.length ? toDataset(res.records[0].get('dataset')) : null;
  }

  /** Tags the dataset (creating an unknown tag). null when the dataset does not exist. */
  async tag(namespace: string, name: string, tag: string, now = new Date()): Promise<Dataset | null> {
    const res = await this.db.command('datasets/tag', { namespace, name, tag, now: now.toISOString() });
    return res.records.length ? toDataset(res.records[0].get('dataset')) : null;
  }

  async untag(namespace: string, name: string, tag: string): Promise<Dataset | null> {
    const res = await this.db.command('datasets/untag', { namespace, name, tag });
    return res.records.length ? toDataset(res.records[0].get('dataset')) : null;
  }

  /** Tags one field. 'no-dataset' / 'no-field' when either does not exist (nothing is written then). */
  async tagField(
    namespace: string,
    name: string,
    field: string,
    tag: string,
    now = new Date(),
  ): Promise<Dataset | 'no-dataset' | 'no-field'> {
    return this.fieldTagResult(
      await this.db.command('datasets/field-tag', { namespace, name, field, tag, now: now.toISOString() }),
    );
  }

  async untagField(
    namespace: string,
    name: string,
    field: string,
    tag: string,
  ): Promise<Dataset | 'no-dataset' | 'no-field'> {
    return this.fieldTagResult(await this.db.command('datasets/field-untag', { namespace, name, field, tag }));
  }

  private fieldTagResult(
    res: QueryResult<RowOf<'datasets/field-tag' | 'datasets/field-untag'>>,
  ): Dataset | 'no-dataset' | 'no-field' {
    const row = res.records[0];
    if (!row) return 'no-dataset';
    if (!row.get('fieldExists')) return 'no-field';
    return toDataset(row.get('dataset'));
  }
}
