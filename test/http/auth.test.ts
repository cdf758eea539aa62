/**
 * AUTH_MODE=apikey: every route of the router against every scope (the route list comes from the
 * router, so a new route without the right rule fails here), credentials as clients send them, and
 * namespace-limited writers. Rejected requests write nothing.
 */
import { expect } from 'chai';
import { build, wipe, type TestApp } from '../helper.js';
import { graphShape } from '../support/graph.js';
import { runEvent, PRODUCER } from '../support/events.js';
import { generateKey, hashKey, parseKeys, keyEntry, type ApiKey, type KeyScope } from '../../src/auth/keys.js';
import { mountedRoutes, openApiPath } from '../../src/http/openapi.js';
import type { AuthOptions } from '../../src/http/auth.js';

const keys = {
  read: generateKey(),
  write: generateKey(),
  admin: generateKey(),
  airflow: generateKey(),
  readWrite: generateKey(),
};
const entries: [string, string, KeyScope[], string[] | null][] = [
  ['reader', keys.read, ['read'], null],
  ['writer', keys.write, ['write'], null],
  ['admin', keys.admin, ['admin'], null],
  ['airflow-writer', keys.airflow, ['write'], ['airflow', 'postgres://*']],
  ['dashboard', keys.readWrite, ['read', 'write'], null],
];
const apiKeys: ApiKey[] = parseKeys(
  entries.map(([id, key, scopes, ns]) => keyEntry(id, key, scopes, ns)).join('\n'),
  'test',
);
const apikeyAuth = (metricsPublic = false): AuthOptions => ({ mode: 'apikey', keys: apiKeys, metricsPublic });

const PUBLIC = new Set([
  'GET /healthz',
  'GET /readyz',
  'GET /api/v1/openapi.json',
  'GET /api/docs',
  'GET /api/docs/{file}',
]);
const WRITE = [
  /^POST \/api\/v1\/lineage(\/batch)?$/,
  /^PUT \/api\/v1\/sources\/\{source\}$/,
  /^PUT \/api\/v1\/namespaces\/\{namespace\}\/(datasets\/\{dataset\}|jobs\/\{job\})$/,
  /^POST \/api\/v1\/namespaces\/\{namespace\}\/jobs\/\{job\}\/runs$/,
  /^POST \/api\/v1\/jobs\/runs\/\{runId\}\/(start|complete|fail|abort)$/,
];

/** The rule of issue 25: reads need read, ingestion (and the legacy write API) write, the rest admin. */
function expectedScope(method: string, path: string): string {
  const route = `${method} ${openApiPath(path)}`;
  if (PUBLIC.has(route)) return 'public';
  if (method === 'GET') return 'read';
  if (WRITE.some((w) => w.test(route))) return 'write';
  return 'admin';
}

/** A concrete URL for a route template. */
function urlOf(path: string): string {
  return path
    .replace(':runId', '0190a0a0-0000-7000-8000-00000000abcd')
    .replace(':version', '0190a0a0-0000-7000-8000-00000000beef')
    .replace(':file', 'init.js')
    .replace(/:(\w+)/g, (_, name: string) => `nope-${name}`);
}

describe('API keys and scopes (AUTH_MODE=apikey)', () => {
  let t: TestApp;
  before(async () => {
    t = await build({ auth: apikeyAuth() });
  });
  beforeEach(async () => {
    await wipe(t.db);
    await t.app.services.namespaces.ensureDefault();
  });
  after(async () => {
    await t?.close();
  });

  it('every route of the router has a declaration with the scope its rule gives', () => {
    const routes = mountedRoutes(t.app.router);
    expect(routes.length).to.be.greaterThan(50);
    const wrong = routes
      .filter((r) => r.spec?.scope !== expectedScope(r.method, r.path))
      .map(
        (r) =>
          `${r.method} ${r.path}: ${r.spec ? r.spec.scope : 'no declaration'}, expected ` +
          `${expectedScope(r.method, r.path)}`,
      );
    expect(wrong).to.deep.equal([]);
  });

  it(
    'every route answers each key as its scope says: 401 without a key, 403 without the scope, and writes nothing ' +
      'when it refuses',
    async function () {
      // Four credentials against every route, some of them deep reads: minutes on a loaded machine.
      this.timeout(300_000);
      const before = await graphShape(t.db);
      const holders: [string, string, Set<string>][] = [
        ['reader', keys.read, new Set(['read'])],
        ['writer', keys.write, new Set(['write'])],
        ['admin', keys.admin, new Set(['read', 'write', 'admin'])],
      ];
      const problems: string[] = [];
      for (const { method, path } of mountedRoutes(t.app.router)) {
        const scope = expectedScope(method, path);
        const url = urlOf(path);
        const anonymous = await t.request(method, url);
        if (scope === 'public') {
          if (anonymous.status === 401 || anonymous.status === 403)
            problems.push(`${method} ${url}: public but ${anonymous.status}`);
          continue;
        }
        if (anonymous.status !== 401)
          problems.push(`${method} ${url} without a key: ${anonymous.status}, expected 401`);
        else if (!/^Bearer realm=/.test(anonymous.headers.get('www-authenticate') ?? ''))
          problems.push(`${method} ${url}: 401 without WWW-Authenticate`);
        // Refused calls come before anything is parsed or written: send what a write would need.
        for (const [name, key, granted] of holders) {
          if (granted.has(scope)) continue;
          const res = await t.request(method, url, { headers: { authorization: `Bearer ${key}` } });
          if (res.status !== 403) problems.push(`${method} ${url} with the ${name} key: ${res.status}, expected 403`);
          else if (res.body.error !== 'forbidden' || typeof res.body.message !== 'string')
            problems.push(`${method} ${url}: 403 body ${res.text}`);
        }
      }
      expect(problems).to.deep.equal([]);
      expect(await graphShape(t.db)).to.deep.equal(before);
      // And the keys that hold the scope get past the check (the answer is the route's own: 200, 404, 415, ...).
      for (const { method, path } of mountedRoutes(t.app.router)) {
        const scope = expectedScope(method, path);
        if (scope === 'public') continue;
        const key = scope === 'read' ? keys.read : scope === 'write' ? keys.write : keys.admin;
        const res = await t.request(method, urlOf(path), { headers: { 'x-api-key': key } });
        expect([401, 403], `${method} ${path}: ${res.text}`).not.to.include(res.status);
      }
    },
  );

  it('takes the key as Authorization: Bearer (any case) or X-Api-Key', async () => {
    const ways: Record<string, string>[] = [
      { authorization: `Bearer ${keys.read}` },
      { authorization: `bearer ${keys.read}` },
      { 'x-api-key': keys.read },
      { authorization: `Bearer ${keys.read}`, 'x-api-key': keys.read },
    ];
    for (const headers of ways) {
      const res = await t.request('GET', '/api/v1/namespaces', { headers });
      expect(res.status, JSON.stringify(Object.keys(headers))).to.equal(200);
    }
    const dashboard = await t.request('GET', '/api/v1/namespaces', {
      headers: { authorization: `Bearer ${keys.readWrite}` },
    });
    expect(dashboard.status).to.equal(200);
  });

  it(
    '401 for missing, unknown, malformed or conflicting credentials, with a Bearer challenge and a JSON ' + 'body',
    async () => {
      const cases: [Record<string, string>, RegExp][] = [
        [{}, /needs an API key with scope 'read'/],
        [{ authorization: `Bearer ${generateKey()}` }, /not valid/],
        [{ authorization: `Bearer ${keys.read}x` }, /not valid/],
        [{ authorization: `Bearer ${keys.read.slice(0, -1)}` }, /not valid/],
        [{ 'x-api-key': 'wrong' }, /not valid/],
        [{ authorization: `Basic ${Buffer.from(`u:${keys.read}`).toString('base64')}` }, /must be "Bearer <api key>"/],
        [{ authorization: 'Bearer' }, /no key/],
        [{ authorization: `Bearer ${keys.read} extra` }, /must be "Bearer <api key>"/],
        [{ authorization: keys.read }, /must be "Bearer <api key>"/],
        [{ 'x-api-key': `${keys.read} ${keys.admin}` }, /one key/],
        [{ authorization: `Bearer ${keys.read}`, 'x-api-key': keys.admin }, /different keys/],
        [{ 'x-api-key': 'k'.repeat(600) }, /malformed/],
      ];
      for (const [headers, message] of cases) {
        const res = await t.request('GET', '/api/v1/namespaces', { headers });
        const what = JSON.stringify(headers).slice(0, 80);
        expect(res.status, what).to.equal(401);
        expect(res.body, what).to.include({ code: 401, error: 'unauthorized' });
        expect(res.body.message, what).to.match(message);
        expect(res.headers.get('www-authenticate'), what).to.match(/^Bearer realm="lineage"/);
        // The key is never echoed.
        expect(res.text).not.to.include(keys.read);
      }
    },
  );

  it('403 names the missing scope; the key that has it passes; admin includes read and write', async function () {
    this.timeout(300_000);
    const denied = await t.request('DELETE', '/api/v1/namespaces/default', {
      headers: { authorization: `Bearer ${keys.write}` },
    });
    expect(denied.status).to.equal(403);
    expect(denied.body).to.include({ code: 403, error: 'forbidden' });
    expect(denied.body.message).to.include("scope 'admin'");
    expect(denied.headers.get('www-authenticate')).to.match(/error="insufficient_scope", scope="admin"/);
    expect(
      (await t.request('GET', '/api/v1/namespaces', { headers: { authorization: `Bearer ${keys.write}` } })).status,
      'write does not include read',
    ).to.equal(403);
    expect(
      (
        await t.request('POST', '/api/v1/lineage', {
          body: runEvent(),
          headers: { authorization: `Bearer ${keys.read}` },
        })
      ).status,
    ).to.equal(403);
    expect(
      (
        await t.request('POST', '/api/v1/lineage', {
          body: runEvent(),
          headers: { authorization: `Bearer ${keys.admin}` },
        })
      ).status,
    ).to.equal(201);
    expect(
      (await t.request('GET', '/api/v1/jobs', { headers: { authorization: `Bearer ${keys.admin}` } })).body.totalCount,
    ).to.equal(1);
  });

  it('health checks and the contract stay open; /metrics needs read', async () => {
    for (const path of ['/healthz', '/readyz', '/api/v1/openapi.json', '/api/docs'])
      expect((await t.request('GET', path)).status, path).to.be.oneOf([200, 503]);
    expect((await t.request('GET', '/metrics')).status).to.equal(401);
    expect((await t.request('GET', '/metrics', { headers: { 'x-api-key': keys.write } })).status).to.equal(403);
    expect((await t.request('GET', '/metrics', { headers: { 'x-api-key': keys.read } })).status).to.equal(200);
  });

  describe('writers limited to namespaces', () => {
    const airflow = { authorization: `Bearer ${keys.airflow}` };
    const event = (jobNamespace: string, outputNamespace: string, extra: Record<string, unknown> = {}) => ({
      ...runEvent({
        eventType: 'COMPLETE',
        job: 'load',
        jobNamespace,
        inputs: [{ namespace: 'postgres://db:5432', name: 'public.orders' }],
        outputs: [{ namespace: outputNamespace, name: 'public.totals' }],
      }),
      ...extra,
    });

    it('accepts an event whose job and datasets are all in its namespaces (patterns allowed)', async () => {
      const res = await t.request('POST', '/api/v1/lineage', {
        body: event('airflow', 'postgres://warehouse:5432'),
        headers: airflow,
      });
      expect(res.status, res.text).to.equal(201);
    });

    it('403 for an event with a job or a dataset elsewhere, and nothing is written', async () => {
      const before = await graphShape(t.db);
      for (const [body, outside] of [
        [event('spark', 'postgres://db:5432'), 'spark'],
        [event('airflow', 's3://lake'), 's3://lake'],
        [
          {
            eventTime: '2024-06-01T10:00:00Z',
            producer: PRODUCER,
            schemaURL: 'x',
            dataset: { namespace: 'kafka://b', name: 't' },
          },
          'kafka://b',
        ],
      ] as const) {
        const res = await t.request('POST', '/api/v1/lineage', { body, headers: airflow });
        expect(res.status, res.text).to.equal(403);
        expect(res.body.message).to.include(`'${outside}'`);
      }
      // A parent job in another namespace is written too (the parent job is created if unknown).
      const withParent = event('airflow', 'postgres://x:1');
      (withParent as any).run.facets = {
        parent: {
          _producer: PRODUCER,
          _schemaURL: 'x',
          run: { runId: '0190a0a0-0000-7000-8000-0000000000aa' },
          job: { namespace: 'dagster', name: 'p' },
        },
      };
      expect((await t.request('POST', '/api/v1/lineage', { body: withParent, headers: airflow })).status).to.equal(403);
      expect(await graphShape(t.db)).to.deep.equal(before);
    });

    it('in a batch, each event outside is a failed entry (not retriable) and the others are written', async () => {
      const res = await t.request('POST', '/api/v1/lineage/batch', {
        body: [event('airflow', 'postgres://a:1'), event('airflow', 's3://lake')],
        headers: airflow,
      });
      expect(res.status).to.equal(200);
      expect(res.body.status).to.equal('partial_success');
      expect(res.body.failed_events).to.have.length(1);
      expect(res.body.failed_events[0]).to.include({ index: 1, retriable: false });
      expect(res.body.failed_events[0].reason).to.include("'s3://lake'");
      const datasets = await t.request('GET', '/api/v1/namespaces/s3%3A%2F%2Flake/datasets', {
        headers: { 'x-api-key': keys.read },
      });
      expect(datasets.status).to.equal(404);
    });

    it('the legacy write API is limited the same way', async () => {
      const res = await t.request('PUT', '/api/v1/namespaces/spark/jobs/j', {
        body: { type: 'BATCH', inputs: [], outputs: [] },
        headers: airflow,
      });
      expect(res.status).to.equal(403);
      const ok = await t.request('PUT', '/api/v1/namespaces/airflow/jobs/j', {
        body: { type: 'BATCH', inputs: [], outputs: [] },
        headers: airflow,
      });
      expect(ok.status, ok.text).to.equal(200);
    });
  });

  it('METRICS_PUBLIC=true opens /metrics only', async () => {
    const open = await build({ auth: apikeyAuth(true) });
    try {
      expect((await open.request('GET', '/metrics')).status).to.equal(200);
      expect((await open.request('GET', '/api/v1/namespaces')).status).to.equal(401);
    } finally {
      await open.close();
    }
  });
});

describe('keys files', () => {
  it('stores the hash, never the key', () => {
    const key = generateKey();
    const line = keyEntry('k', key, ['read'], null);
    expect(line).not.to.include(key);
    expect(JSON.parse(line).sha256).to.equal(hashKey(key).toString('hex'));
  });

  it('reads JSON arrays, {keys}, and one JSON object per line with comments', () => {
    const a = keyEntry('a', generateKey(), ['read'], null);
    const b = keyEntry('b', generateKey(), ['write'], ['airflow']);
    for (const text of [`[${a},${b}]`, `{"keys": [${a}, ${b}]}`, `# producers\n${a}\n\n${b}\n`]) {
      const parsed = parseKeys(text, 'f');
      expect(parsed.map((k) => [k.id, [...k.scopes], k.namespaces])).to.deep.equal([
        ['a', ['read'], null],
        ['b', ['write'], ['airflow']],
      ]);
    }
  });

  it('rejects bad entries with their place', () => {
    const good = JSON.parse(keyEntry('a', generateKey(), ['read'], null));
    for (const [text, message] of [
      ['{"id": "a"', /line 1: not a JSON object/],
      [JSON.stringify({ ...good, sha256: 'abc' }), /sha256/],
      [JSON.stringify({ ...good, scopes: ['root'] }), /scopes/],
      [JSON.stringify({ ...good, scopes: [] }), /scopes/],
      [JSON.stringify({ ...good, namespaces: [] }), /namespaces/],
      [`${JSON.stringify(good)}\n${JSON.stringify(good)}`, /appears twice/],
      [`${JSON.stringify(good)}\n${JSON.stringify({ ...good, id: 'b' })}`, /hash of another key/],
    ] as [string, RegExp][]) {
      expect(() => parseKeys(text, 'keys.jsonl'), text).to.throw(message);
    }
  });
});
