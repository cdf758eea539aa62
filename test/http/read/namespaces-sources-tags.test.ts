import { expect } from 'chai';
import { useTestApp } from '../../helper.js';
import { completedRun, DEFAULT_DATASET_NS, facet, runEvent } from '../../support/events.js';
import type { Dataset, Job, Namespace, Source, Tag } from '../../../src/api/types.js';

const ISO_Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const enc = encodeURIComponent;
const NS = enc(DEFAULT_DATASET_NS);

describe('read API: namespaces, sources, tags', () => {
  const t = useTestApp();
  const post = async (events: Record<string, unknown>[]) => {
    for (const e of events) expect((await t().post('/api/v1/lineage', e)).status).to.equal(201);
  };
  const call = async <T = any>(
    method: string,
    path: string,
    status = 200,
    body?: unknown,
    headers?: Record<string, string>,
  ) => {
    const res = await t().request<T>(method, path, { body, headers });
    expect(res.status, `${method} ${path}: ${res.text}`).to.equal(status);
    return res.body;
  };
  const get = <T = any>(path: string, status = 200) => call<T>('GET', path, status);

  describe('namespaces', () => {
    it('PUT creates and then replaces owner and description; GET and the list show it', async () => {
      const created = await call<Namespace>('PUT', '/api/v1/namespaces/analytics', 200, {
        ownerName: 'data-team',
        description: 'Analytics jobs',
      });
      expect(created).to.include({
        name: 'analytics',
        ownerName: 'data-team',
        description: 'Analytics jobs',
        isHidden: false,
      });
      expect(created.createdAt).to.match(ISO_Z);
      const updated = await call<Namespace>('PUT', '/api/v1/namespaces/analytics', 200, { ownerName: 'platform' });
      expect(updated).to.include({ ownerName: 'platform', description: null, createdAt: created.createdAt });
      expect(await get('/api/v1/namespaces/analytics')).to.deep.equal(updated);
      const list = await get('/api/v1/namespaces');
      expect(list.namespaces.map((n: Namespace) => n.name)).to.deep.equal(['analytics', 'default']);
      expect(list.totalCount).to.equal(2);
    });

    it('PUT round-trips names with slashes and colons', async () => {
      const name = 's3://bucket/raw zone';
      await call('PUT', `/api/v1/namespaces/${enc(name)}`, 200, { ownerName: 'me' });
      expect((await get<Namespace>(`/api/v1/namespaces/${enc(name)}`)).name).to.equal(name);
    });

    it('PUT rejects bodies that are not a JSON object with an ownerName', async () => {
      await call('PUT', '/api/v1/namespaces/x', 422, { description: 'no owner' });
      await call('PUT', '/api/v1/namespaces/x', 422, { ownerName: 42 });
      await call('PUT', '/api/v1/namespaces/x', 422, { ownerName: 'me', description: 7 });
      await call('PUT', '/api/v1/namespaces/x', 400, '[1]', { 'content-type': 'application/json' });
      await call('PUT', '/api/v1/namespaces/x', 400, '{"ownerName": ', { 'content-type': 'application/json' });
      await call('PUT', '/api/v1/namespaces/x', 400, '', { 'content-type': 'application/json' });
      await call('PUT', '/api/v1/namespaces/x', 415, 'ownerName=me', { 'content-type': 'text/plain' });
      await get('/api/v1/namespaces/x', 404);
    });

    it(
      'DELETE hides the namespace with its datasets and jobs; a later event brings back what it ' + 'mentions',
      async () => {
        await post(completedRun({ job: 'j', jobNamespace: 'etl', outputs: [{ namespace: 'warehouse', name: 't' }] }));
        await post(completedRun({ job: 'other', jobNamespace: 'etl' }));
        const deleted = await call<Namespace>('DELETE', '/api/v1/namespaces/etl');
        expect(deleted.isHidden).to.equal(true);
        await call('DELETE', '/api/v1/namespaces/warehouse');
        expect((await get('/api/v1/namespaces')).namespaces.map((n: Namespace) => n.name)).to.deep.equal(['default']);
        expect((await get<Namespace>('/api/v1/namespaces/etl')).isHidden).to.equal(true);
        expect(await get('/api/v1/namespaces/etl/jobs')).to.deep.equal({ jobs: [], totalCount: 0 });
        expect((await get('/api/v1/jobs')).totalCount).to.equal(0);
        await get('/api/v1/namespaces/etl/jobs/j', 404);
        expect((await get('/api/v1/namespaces/warehouse/datasets')).totalCount).to.equal(0);
        expect((await get('/api/v1/search?q=t&filter=dataset')).totalCount).to.equal(0);

        await post(completedRun({ job: 'j', jobNamespace: 'etl', outputs: [{ namespace: 'warehouse', name: 't' }] }));
        expect((await get('/api/v1/namespaces')).namespaces.map((n: Namespace) => n.name)).to.deep.equal([
          'default',
          'etl',
          'warehouse',
        ]);
        expect((await get('/api/v1/namespaces/etl/jobs')).jobs.map((j: Job) => j.name)).to.deep.equal(['j']);
        expect((await get<Dataset>('/api/v1/namespaces/warehouse/datasets/t')).name).to.equal('t');
      },
    );

    it('DELETE of an unknown namespace is 404', async () => {
      expect((await call('DELETE', '/api/v1/namespaces/nope', 404)).message).to.include("'nope'");
    });
  });

  describe('sources', () => {
    it('lists and gets the data sources named by dataSource facets', async () => {
      const ds = (name: string, source: string, uri: string) => ({
        name,
        facets: { dataSource: facet({ name: source, uri }) },
      });
      await post(
        completedRun({ outputs: [ds('a', 'pg-main', 'postgres://db:5432/main'), ds('b', 'bq', 'bigquery://project')] }),
      );
      const list = await get('/api/v1/sources');
      expect(list.totalCount).to.equal(2);
      expect(list.sources.map((s: Source) => s.name)).to.deep.equal(['bq', 'pg-main']);
      const pg = await get<Source>('/api/v1/sources/pg-main');
      expect(pg).to.include({ name: 'pg-main', connectionUrl: 'postgres://db:5432/main', description: null });
      expect(pg).to.have.keys('type', 'name', 'createdAt', 'updatedAt', 'connectionUrl', 'description');
      expect(pg.createdAt).to.match(ISO_Z);
      expect((await get('/api/v1/sources?limit=1&offset=1')).sources.map((s: Source) => s.name)).to.deep.equal([
        'pg-main',
      ]);
      expect((await get('/api/v1/sources/nope', 404)).message).to.include("'nope'");
      await get('/api/v1/sources?limit=0', 400);
    });
  });

  describe('tags', () => {
    it('PUT creates or updates a tag; GET lists them', async () => {
      expect(await call<Tag>('PUT', '/api/v1/tags/PII', 200, { description: 'Personal data' })).to.deep.equal({
        name: 'PII',
        description: 'Personal data',
      });
      expect(await call<Tag>('PUT', '/api/v1/tags/SENSITIVE')).to.deep.equal({ name: 'SENSITIVE', description: null });
      await call('PUT', '/api/v1/tags/PII', 200, { description: 'Personally identifiable' });
      expect(await get('/api/v1/tags')).to.deep.equal({
        tags: [
          { name: 'PII', description: 'Personally identifiable' },
          { name: 'SENSITIVE', description: null },
        ],
        totalCount: 2,
      });
      await call('PUT', '/api/v1/tags/X', 422, { description: 1 });
    });

    it('tags and untags datasets, fields and jobs (unknown tags are created)', async () => {
      await post(
        completedRun({
          job: 'j',
          outputs: [
            {
              name: 'users',
              fields: [
                ['id', 'INT'],
                ['email', 'VARCHAR'],
              ],
            },
          ],
        }),
      );
      const tagged = await call<Dataset>('POST', `/api/v1/namespaces/${NS}/datasets/users/tags/PII`);
      expect(tagged.tags).to.deep.equal(['PII']);
      expect((await get('/api/v1/tags')).tags.map((x: Tag) => x.name)).to.deep.equal(['PII']);
      const field = await call<Dataset>('POST', `/api/v1/namespaces/${NS}/datasets/users/fields/email/tags/SENSITIVE`);
      expect(field.fields.find((f) => f.name === 'email')!.tags).to.deep.equal(['SENSITIVE']);
      expect(field.fields.find((f) => f.name === 'id')!.tags).to.deep.equal([]);
      expect(field.tags).to.deep.equal(['PII']);
      // Tagging twice is idempotent.
      expect((await call<Dataset>('POST', `/api/v1/namespaces/${NS}/datasets/users/tags/PII`)).tags).to.deep.equal([
        'PII',
      ]);
      const d = await get<Dataset>(`/api/v1/namespaces/${NS}/datasets/users`);
      expect(d.tags).to.deep.equal(['PII']);
      expect(d.fields.find((f) => f.name === 'email')!.tags).to.deep.equal(['SENSITIVE']);
      expect(
        (
          await call<Dataset>('DELETE', `/api/v1/namespaces/${NS}/datasets/users/fields/email/tags/SENSITIVE`)
        ).fields.every((f) => f.tags.length === 0),
      ).to.equal(true);
      expect((await call<Dataset>('DELETE', `/api/v1/namespaces/${NS}/datasets/users/tags/PII`)).tags).to.deep.equal(
        [],
      );

      expect((await call<Job>('POST', '/api/v1/namespaces/airflow/jobs/j/tags/critical')).tags).to.deep.equal([
        'critical',
      ]);
      expect((await get<Job>('/api/v1/namespaces/airflow/jobs/j')).tags).to.deep.equal(['critical']);
      expect((await get('/api/v1/namespaces/airflow/jobs')).jobs[0].tags).to.deep.equal(['critical']);
      expect((await call<Job>('DELETE', '/api/v1/namespaces/airflow/jobs/j/tags/critical')).tags).to.deep.equal([]);
    });

    it('tags through a symlink alias name land on the primary dataset', async () => {
      const symlinks = facet({ identifiers: [{ namespace: DEFAULT_DATASET_NS, name: 'alias_t', type: 'TABLE' }] });
      await post(completedRun({ outputs: [{ name: 't', facets: { symlinks } }] }));
      expect((await call<Dataset>('POST', `/api/v1/namespaces/${NS}/datasets/alias_t/tags/PII`)).name).to.equal('t');
      expect((await get<Dataset>(`/api/v1/namespaces/${NS}/datasets/t`)).tags).to.deep.equal(['PII']);
    });

    it('404 for unknown datasets, fields and jobs; names with any characters round-trip', async () => {
      await post(completedRun({ job: 'j', outputs: [{ name: 'a/b c', fields: [['col:1 %', 'INT']] }] }));
      await call('POST', `/api/v1/namespaces/${NS}/datasets/missing/tags/PII`, 404);
      await call('DELETE', `/api/v1/namespaces/${NS}/datasets/missing/tags/PII`, 404);
      expect(
        (await call('POST', `/api/v1/namespaces/${NS}/datasets/${enc('a/b c')}/fields/nope/tags/PII`, 404)).message,
      ).to.include("'nope'");
      await call('POST', `/api/v1/namespaces/${NS}/datasets/missing/fields/x/tags/PII`, 404);
      await call('POST', '/api/v1/namespaces/airflow/jobs/missing/tags/PII', 404);
      await call('DELETE', '/api/v1/namespaces/airflow/jobs/missing/tags/PII', 404);
      const tag = 'tier: 1/gold %';
      const d = await call<Dataset>(
        'POST',
        `/api/v1/namespaces/${NS}/datasets/${enc('a/b c')}/fields/${enc('col:1 %')}/tags/${enc(tag)}`,
      );
      expect(d.fields[0]).to.deep.include({ name: 'col:1 %', tags: [tag] });
      expect((await get('/api/v1/tags')).tags.map((x: Tag) => x.name)).to.deep.equal([tag]);
      // Nothing was written for the unknown field.
      await post([runEvent({ job: 'j', eventType: 'START' })]);
    });
  });
});
