/**
 * A corpus of hostile requests: what a broken producer, a confused operator or an attacker sends.
 * Every case must get a fast answer below 500 with a JSON error body (a 503 only while Neo4j is
 * really down or the service sheds load, always with Retry-After), and a rejected event writes
 * nothing. Deterministic for a seed: test/http/hostile.test.ts runs a sample of a few hundred on
 * every `npm test`; `npm run fuzz` (scripts/fuzz.ts) runs all of them, and more with other seeds.
 */
import { randomUUID } from 'node:crypto';
import zlib from 'node:zlib';

export interface HostileCase {
  /** Category/what, for reports. */
  name: string;
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** The case is an event (or batch) POST: when rejected, nothing may be written. */
  ingest?: boolean;
}

/** Deterministic PRNG (mulberry32). */
export function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const JSON_HEADERS = { 'content-type': 'application/json' };
const RUN_ID = '01909a1c-7777-7000-8000-000000000001';

/** Valid events of each kind, with the facets ingestion reads: the bases that get mutated. */
export function baseEvents(): Record<string, unknown>[] {
  const producer = 'https://github.com/OpenLineage/OpenLineage/tree/1.24.0/integration/spark';
  const dataset = (name: string) => ({
    namespace: 'postgres://db:5432',
    name,
    facets: {
      schema: {
        _producer: producer,
        _schemaURL: 'https://openlineage.io/spec/facets/1-1-1/SchemaDatasetFacet.json',
        fields: [{ name: 'id', type: 'INT', description: 'key', fields: [{ name: 'sub', type: 'INT' }] }],
      },
      dataSource: {
        _producer: producer,
        _schemaURL: 'https://openlineage.io/spec/facets/1-0-1/DatasourceDatasetFacet.json',
        name: 'pg',
        uri: 'postgres://db:5432',
      },
      symlinks: {
        _producer: producer,
        _schemaURL: 'x',
        identifiers: [{ namespace: 'hive', name: `db.${name}`, type: 'TABLE' }],
      },
      columnLineage: {
        _producer: producer,
        _schemaURL: 'x',
        fields: {
          id: {
            inputFields: [
              {
                namespace: 'postgres://db:5432',
                name: 'src',
                field: 'id',
                transformations: [{ type: 'DIRECT', subtype: 'IDENTITY' }],
              },
            ],
          },
        },
      },
      documentation: { _producer: producer, _schemaURL: 'x', description: 'a table' },
      lifecycleStateChange: { _producer: producer, _schemaURL: 'x', lifecycleStateChange: 'OVERWRITE' },
    },
    inputFacets: { dataQualityMetrics: { _producer: producer, _schemaURL: 'x', rowCount: 10 } },
    outputFacets: { outputStatistics: { _producer: producer, _schemaURL: 'x', rowCount: 10, size: 100 } },
  });
  const job = {
    namespace: 'spark',
    name: 'etl.load',
    facets: {
      sql: { _producer: producer, _schemaURL: 'x', query: 'INSERT INTO t SELECT * FROM s' },
      jobType: { _producer: producer, _schemaURL: 'x', processingType: 'BATCH', integration: 'SPARK', jobType: 'JOB' },
      sourceCodeLocation: { _producer: producer, _schemaURL: 'x', type: 'git', url: 'https://github.com/x/y' },
      documentation: { _producer: producer, _schemaURL: 'x', description: 'loads' },
    },
  };
  const run = {
    runId: RUN_ID,
    facets: {
      parent: {
        _producer: producer,
        _schemaURL: 'x',
        run: { runId: '01909a1c-7777-7000-8000-0000000000ff' },
        job: { namespace: 'airflow', name: 'dag' },
        root: { run: { runId: '01909a1c-7777-7000-8000-0000000000fe' }, job: { namespace: 'airflow', name: 'root' } },
      },
      nominalTime: {
        _producer: producer,
        _schemaURL: 'x',
        nominalStartTime: '2024-06-01T00:00:00Z',
        nominalEndTime: '2024-06-01T01:00:00Z',
      },
    },
  };
  const time = '2024-06-01T10:00:00.000Z';
  const schemaURL = 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent';
  return [
    {
      eventType: 'COMPLETE',
      eventTime: time,
      producer,
      schemaURL,
      run,
      job,
      inputs: [dataset('src')],
      outputs: [dataset('dst')],
    },
    {
      eventTime: time,
      producer,
      schemaURL: 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/JobEvent',
      job,
      inputs: [dataset('src')],
      outputs: [dataset('dst')],
    },
    {
      eventTime: time,
      producer,
      schemaURL: 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/DatasetEvent',
      dataset: dataset('dst'),
    },
  ];
}

/** Values a field should never have to hold. */
export function hostileValues(): { name: string; value: unknown }[] {
  let deep: unknown = 'leaf';
  for (let i = 0; i < 200; i++) deep = { d: deep };
  return [
    { name: 'null', value: null },
    { name: 'true', value: true },
    { name: 'zero', value: 0 },
    { name: 'negative', value: -1 },
    { name: 'huge number', value: 1e308 },
    { name: 'float', value: 3.14 },
    { name: 'empty string', value: '' },
    { name: 'blank', value: '   ' },
    { name: '10 KB string', value: 'x'.repeat(10_000) },
    { name: '100 KB string', value: 'y'.repeat(100_000) },
    { name: 'NUL char', value: 'a\u0000b' },
    { name: 'lone surrogate', value: 'a\ud800b' },
    { name: 'emoji and RTL', value: '📦\u202etable\u202c' },
    { name: 'cypher injection', value: "x'}) DETACH DELETE n //" },
    { name: 'backticks', value: '`facet.x` = 1' },
    { name: 'path traversal', value: '../../etc/passwd' },
    { name: 'percent junk', value: '%zz%00' },
    { name: 'object', value: {} },
    { name: 'array', value: [] },
    { name: 'array of 10k', value: Array.from({ length: 10_000 }, (_, i) => i) },
    { name: 'deep object', value: deep },
    {
      name: '__proto__ object',
      value: JSON.parse('{"__proto__": {"polluted": true}, "constructor": {"prototype": {"x": 1}}}'),
    },
    { name: 'date-like', value: '2024-13-45T25:61:61Z' },
    { name: 'uuid-like', value: '01909a1c-7777-7000-8000-00000000000Z' },
  ];
}

type Path = (string | number)[];

/** Every path into `value` (objects and arrays), outermost first. */
function paths(value: unknown, prefix: Path = []): Path[] {
  if (value === null || typeof value !== 'object') return [];
  const out: Path[] = [];
  const entries: [string | number, unknown][] = Array.isArray(value)
    ? value.map((v, i) => [i, v])
    : Object.entries(value);
  for (const [k, v] of entries) {
    out.push([...prefix, k]);
    out.push(...paths(v, [...prefix, k]));
  }
  return out;
}

const clone = <T>(v: T): T => structuredClone(v);

function setAt(root: unknown, path: Path, value: unknown, remove = false): void {
  let cur = root as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) cur = cur[key] as Record<string | number, unknown>;
  const last = path[path.length - 1];
  if (remove) {
    if (Array.isArray(cur)) cur.splice(last as number, 1);
    else delete cur[last];
  } else cur[last] = value;
}

/** Mutations of the base events: each path set to each hostile value, removed, or given an unknown key. */
function eventMutations(): HostileCase[] {
  const cases: HostileCase[] = [];
  const kinds = ['run', 'job', 'dataset'];
  baseEvents().forEach((base, b) => {
    for (const path of paths(base)) {
      const where = `${kinds[b]} /${path.join('/')}`;
      const removed = clone(base);
      setAt(removed, path, undefined, true);
      cases.push(event(`event: ${where} removed`, removed));
      for (const { name, value } of hostileValues()) {
        const mutated = clone(base);
        setAt(mutated, path, clone(value));
        cases.push(event(`event: ${where} = ${name}`, mutated));
      }
    }
  });
  return cases;
}

function event(name: string, body: unknown): HostileCase {
  return {
    name,
    method: 'POST',
    path: '/api/v1/lineage',
    headers: JSON_HEADERS,
    body: JSON.stringify(body),
    ingest: true,
  };
}

/** Whole events that break limits or shapes (the mutations cover single fields). */
function eventShapes(): HostileCase[] {
  const [run] = baseEvents();
  const long = 'n'.repeat(9000);
  const cases: HostileCase[] = [
    event('shape: name over the index key limit', { ...run, job: { namespace: 'spark', name: long } }),
    event('shape: namespace over the limit', { ...run, job: { namespace: long, name: 'j' } }),
    event('shape: 100,000 inputs', {
      ...run,
      inputs: Array.from({ length: 100_000 }, (_, i) => ({ namespace: 'pg', name: `t${i}` })),
    }),
    event('shape: 1,001 outputs', {
      ...run,
      outputs: Array.from({ length: 1001 }, (_, i) => ({ namespace: 'pg', name: `t${i}` })),
    }),
    event('shape: 2,000 facet names', {
      ...run,
      run: {
        runId: RUN_ID,
        facets: Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`fuzz_facet_${i}`, { _producer: 'p' }])),
      },
    }),
    event('shape: 30,000 schema fields', {
      ...run,
      outputs: [
        {
          namespace: 'pg',
          name: 'wide',
          facets: { schema: { fields: Array.from({ length: 30_000 }, (_, i) => ({ name: `c${i}` })) } },
        },
      ],
    }),
    event('shape: an array', [run]),
    event('shape: a string', 'event'),
    event('shape: a number', 42),
    event('shape: null', null),
    event('shape: empty object', {}),
    event('shape: run without job', { ...run, job: undefined }),
    event('shape: all three kinds', { ...run, dataset: { namespace: 'a', name: 'b' } }),
    event('shape: eventType lowercase', { ...run, eventType: 'complete' }),
    event('shape: eventTime year 0', { ...run, eventTime: '0000-01-01T00:00:00Z' }),
    event('shape: eventTime year 9999', { ...run, eventTime: '9999-12-31T23:59:59.999999999+14:00' }),
    event('shape: eventTime offset +99:99', { ...run, eventTime: '2024-06-01T10:00:00+99:99' }),
    event('shape: eventTime epoch number', { ...run, eventTime: 1717236000000 }),
    event('shape: runId of 2,000 characters', { ...run, run: { runId: 'r'.repeat(2000) } }),
    event('shape: parent naming itself', {
      ...run,
      run: {
        runId: RUN_ID,
        facets: { parent: { run: { runId: RUN_ID }, job: { namespace: 'spark', name: 'etl.load' } } },
      },
    }),
  ];
  let nested = '"leaf"';
  for (let i = 0; i < 10_000; i++) nested = `{"n":${nested}}`;
  cases.push({
    ...event('shape: 10,000 levels of nesting', null),
    body: JSON.stringify(run).replace(/}$/, `,"deep":${nested}}`),
  });
  let fields = '{"name":"leaf"}';
  for (let i = 0; i < 10_000; i++) fields = `{"name":"f${i}","fields":[${fields}]}`;
  cases.push({
    ...event('shape: 10,000 levels of schema fields', null),
    body: JSON.stringify({
      ...run,
      outputs: [{ namespace: 'pg', name: 't', facets: { schema: { fields: ['HOLE'] } } }],
    }).replace('"HOLE"', fields),
  });
  // Batches.
  const batch = (name: string, body: unknown): HostileCase => ({
    name: `batch: ${name}`,
    method: 'POST',
    path: '/api/v1/lineage/batch',
    headers: JSON_HEADERS,
    body: JSON.stringify(body),
    ingest: true,
  });
  cases.push(
    batch('an object', run),
    batch('empty', []),
    batch('nulls', [null, null]),
    batch('mixed valid and invalid', [run, {}, 'x', { ...run, job: { namespace: '', name: '' } }]),
    batch(
      '1,000 invalid',
      Array.from({ length: 1000 }, () => ({})),
    ),
  );
  return cases;
}

/** Bodies that are not what they claim: malformed JSON, wrong types, broken encodings, odd lengths. */
function transport(): HostileCase[] {
  const [run] = baseEvents();
  const good = JSON.stringify(run);
  const post = (name: string, body: string | Buffer, headers: Record<string, string>): HostileCase => ({
    name: `transport: ${name}`,
    method: 'POST',
    path: '/api/v1/lineage',
    headers,
    body,
    ingest: true,
  });
  const cases: HostileCase[] = [];
  for (const [name, body] of [
    ['truncated JSON', good.slice(0, good.length / 2)],
    ['trailing comma', good.replace(/}$/, ',}')],
    ['single quotes', "{'eventTime': 'x'}"],
    ['NaN', '{"eventTime": NaN}'],
    ['comment', `// hi\n${good}`],
    ['BOM', `\ufeff${good}`],
    ['two documents', good + good],
    ['empty', ''],
    ['whitespace', '   \n'],
    ['bare string', '"x"'],
    [
      'invalid UTF-8',
      Buffer.concat([Buffer.from('{"eventTime":"'), Buffer.from([0xff, 0xfe, 0xfd]), Buffer.from('"}')]),
    ],
    ['1 MB of spaces then JSON', ' '.repeat(1 << 20) + good],
    ['deep arrays', '['.repeat(100_000) + ']'.repeat(100_000)],
  ] as [string, string | Buffer][]) {
    cases.push(post(name, body, JSON_HEADERS));
  }
  for (const type of [
    'text/plain',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    'application/xml',
    'application/jsonx',
    'json',
    '*/*',
    'application/json; charset=latin1',
    'application/json; charset=utf-16',
  ]) {
    cases.push(post(`content type ${type}`, good, { 'content-type': type }));
  }
  cases.push(post('no content type', good, {}));
  const gz = zlib.gzipSync(good);
  cases.push(post('gzip, valid', gz, { ...JSON_HEADERS, 'content-encoding': 'gzip' }));
  cases.push(
    post('gzip, corrupt', Buffer.concat([gz.subarray(0, 20), Buffer.from('garbage')]), {
      ...JSON_HEADERS,
      'content-encoding': 'gzip',
    }),
  );
  cases.push(post('gzip claimed, plain sent', good, { ...JSON_HEADERS, 'content-encoding': 'gzip' }));
  cases.push(post('br, valid', zlib.brotliCompressSync(good), { ...JSON_HEADERS, 'content-encoding': 'br' }));
  cases.push(post('br claimed, plain sent', good, { ...JSON_HEADERS, 'content-encoding': 'br' }));
  cases.push(post('br, corrupt', Buffer.from('not brotli at all'), { ...JSON_HEADERS, 'content-encoding': 'br' }));
  cases.push(post('deflate claimed, plain sent', good, { ...JSON_HEADERS, 'content-encoding': 'deflate' }));
  cases.push(post('unknown encoding', good, { ...JSON_HEADERS, 'content-encoding': 'compress' }));
  cases.push(
    post('double encoding', zlib.gzipSync(zlib.gzipSync(good)), { ...JSON_HEADERS, 'content-encoding': 'gzip, gzip' }),
  );
  cases.push(
    post('gzip bomb (100 MB of zeros)', zlib.gzipSync(Buffer.alloc(100 << 20)), {
      ...JSON_HEADERS,
      'content-encoding': 'gzip',
    }),
  );
  return cases;
}

/** Query strings and path parameters of the read API. */
function reads(): HostileCase[] {
  const get = (name: string, path: string): HostileCase => ({ name: `read: ${name}`, method: 'GET', path });
  const cases: HostileCase[] = [];
  const lists = [
    '/api/v1/namespaces',
    '/api/v1/jobs',
    '/api/v1/namespaces/default/jobs',
    '/api/v1/namespaces/default/datasets',
    '/api/v1/sources',
    '/api/v1/tags',
    '/api/v1/events/lineage',
    '/api/v1/search?q=a',
    '/api/v1/namespaces/default/datasets/x/versions',
    '/api/v1/namespaces/default/jobs/x/runs',
  ];
  for (const list of lists) {
    const sep = list.includes('?') ? '&' : '?';
    for (const q of [
      'offset=100000',
      'offset=100001',
      'offset=1000000000',
      'offset=-1',
      'offset=1e3',
      'offset=abc',
      'offset=99999999999999999999999',
      'limit=0',
      'limit=1001',
      'limit=-5',
      'limit=1.5',
      'limit=',
      'limit=1&limit=2',
      'offset[]=1',
      'limit=%00',
    ]) {
      cases.push(get(`${list} ${q}`, `${list}${sep}${q}`));
    }
  }
  for (const q of ['', '%00', '%25', 'a'.repeat(10_000), '(.*)*', '\\', "'", '"', '%F0%9F%93%A6', '%ED%A0%80', '%zz'])
    cases.push(get(`search q=${q.slice(0, 20)}`, `/api/v1/search?q=${q}`));
  for (const q of ['filter=x', 'sort=x', 'after=2024-02-30', 'before=yesterday', 'namespace=%00', 'q=a&q=b'])
    cases.push(get(`search ${q}`, `/api/v1/search?q=a&${q}`));
  for (const id of [
    '',
    'x',
    'dataset:',
    'dataset::',
    'job:a',
    'dataset:a:b',
    'datasetField:a:b',
    'datasetField:a:b:c',
    `dataset:${'n'.repeat(10_000)}:t`,
    'unknown:a:b',
    '%00',
    'dataset:%ED%A0%80:x',
  ]) {
    cases.push(get(`lineage nodeId=${id.slice(0, 20)}`, `/api/v1/lineage?nodeId=${id}`));
  }
  for (const q of [
    'depth=-1',
    'depth=101',
    'depth=x',
    'depth=1e9',
    'direction=sideways',
    'asOf=2024-13-01',
    'asOf=now',
    'window=P',
    'window=PT-1H',
    'window=P99999999999D',
    'include=everything',
    'include=facets&include=latestRuns',
  ]) {
    cases.push(get(`lineage ${q}`, `/api/v1/lineage?nodeId=dataset:a:b&${q}`));
  }
  for (const q of ['runId=', `runId=${'r'.repeat(2000)}`, 'runId=x&depth=500'])
    cases.push(get(`runlineage ${q.slice(0, 20)}`, `/api/v1/runlineage/upstream?${q}`));
  for (const q of ['nodeId=datasetField:a:b:c&depth=-1', 'nodeId=dataset:a:b&withDownstream=maybe'])
    cases.push(get(`column-lineage ${q}`, `/api/v1/column-lineage?${q}`));
  for (const q of ['lastRunStates=EXPLODED', 'lastRunStates=', 'lastRunStates=RUNNING&lastRunStates=x'])
    cases.push(get(`jobs ${q}`, `/api/v1/jobs?${q}`));
  for (const q of ['sortDirection=sideways', 'before=x', 'after=2024-02-30T00:00:00Z'])
    cases.push(get(`events ${q}`, `/api/v1/events/lineage?${q}`));
  for (const q of ['period=YEAR', 'timezone=Mars/Olympus', 'timezone=%00'])
    cases.push(get(`stats ${q}`, `/api/v1/stats/lineage-events?${q}`));
  for (const name of ['%00', '%ED%A0%80', '%zz', '..', '%2F', 'n'.repeat(10_000), '%F0%9F%93%A6']) {
    cases.push(get(`namespace ${name.slice(0, 12)}`, `/api/v1/namespaces/${name}`));
    cases.push(get(`dataset ${name.slice(0, 12)}`, `/api/v1/namespaces/default/datasets/${name}`));
    cases.push(get(`job versions ${name.slice(0, 12)}`, `/api/v1/namespaces/default/jobs/${name}/versions`));
  }
  for (const id of ['x', '00000000-0000-0000-0000-000000000000', 'not-a-uuid', '%00']) {
    cases.push(get(`run ${id}`, `/api/v1/jobs/runs/${id}`));
    cases.push(get(`run facets ${id}`, `/api/v1/jobs/runs/${id}/facets?type=x`));
    cases.push(get(`dataset version ${id}`, `/api/v1/namespaces/default/datasets/x/versions/${id}`));
  }
  return cases;
}

/** Methods, state-changing routes and headers a browser or a scanner sends. */
function methodsAndWrites(): HostileCase[] {
  const cases: HostileCase[] = [];
  for (const method of ['TRACE', 'PATCH', 'PROPFIND', 'OPTIONS', 'DELETE', 'PUT', 'HEAD']) {
    for (const path of ['/api/v1/lineage', '/api/v1/namespaces', '/api/v1/search?q=a', '/healthz', '/nope'])
      cases.push({ name: `method: ${method} ${path}`, method, path });
  }
  const writes: [string, string][] = [
    ['PUT', '/api/v1/tags/PII'],
    ['PUT', '/api/v1/namespaces/fuzz'],
    ['POST', '/api/v1/namespaces/default/datasets/x/tags/PII'],
    ['POST', '/api/v1/namespaces/default/jobs/x/tags/PII'],
    ['DELETE', '/api/v1/namespaces/default/jobs/x'],
    ['POST', '/api/v1/namespaces/default/datasets/x/fields/id/tags/PII'],
  ];
  for (const [method, path] of writes) {
    cases.push({
      name: `write: ${method} ${path} as a form`,
      method,
      path,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'description=x',
    });
    cases.push({
      name: `write: ${method} ${path} text/plain`,
      method,
      path,
      headers: { 'content-type': 'text/plain' },
      body: '{"description":"x"}',
    });
    cases.push({
      name: `write: ${method} ${path} cross-site`,
      method,
      path,
      headers: { 'sec-fetch-site': 'cross-site' },
    });
    cases.push({
      name: `write: ${method} ${path} malformed JSON`,
      method,
      path,
      headers: JSON_HEADERS,
      body: '{"description":',
    });
    cases.push({ name: `write: ${method} ${path} JSON array`, method, path, headers: JSON_HEADERS, body: '[1,2]' });
    cases.push({
      name: `write: ${method} ${path} wrong field types`,
      method,
      path,
      headers: JSON_HEADERS,
      body: '{"ownerName": 5, "description": []}',
    });
  }
  for (const name of ['n'.repeat(9000), '%00', '%zz', '%ED%A0%80']) {
    cases.push({ name: `write: PUT tag ${name.slice(0, 10)}`, method: 'PUT', path: `/api/v1/tags/${name}` });
    cases.push({
      name: `write: PUT namespace ${name.slice(0, 10)}`,
      method: 'PUT',
      path: `/api/v1/namespaces/${name}`,
      headers: JSON_HEADERS,
      body: '{"ownerName":"me"}',
    });
  }
  cases.push({
    name: 'header: huge cookie',
    method: 'GET',
    path: '/api/v1/namespaces',
    headers: { cookie: 'c='.padEnd(8000, 'x') },
  });
  cases.push({
    name: 'header: accept-encoding junk',
    method: 'GET',
    path: '/api/v1/namespaces',
    headers: { 'accept-encoding': 'br;q=nan, *;q=-1' },
  });
  cases.push({
    name: 'header: x-forwarded-for junk',
    method: 'GET',
    path: '/api/v1/namespaces',
    headers: { 'x-forwarded-for': 'not an ip, ::::' },
  });
  return cases;
}

/** Random combinations of mutations (fuzz only). */
function randomMutations(seed: number, count: number): HostileCase[] {
  const rand = rng(seed);
  const values = hostileValues();
  const bases = baseEvents();
  const out: HostileCase[] = [];
  for (let i = 0; i < count; i++) {
    const b = Math.floor(rand() * bases.length);
    const e = clone(bases[b]);
    const changes: string[] = [];
    for (let k = 0; k < 1 + Math.floor(rand() * 3); k++) {
      const all = paths(e);
      if (all.length === 0) break;
      const path = all[Math.floor(rand() * all.length)];
      const v = values[Math.floor(rand() * values.length)];
      setAt(e, path, clone(v.value));
      changes.push(`/${path.join('/')}=${v.name}`);
    }
    // A fresh runId, so random accepted events do not collide with each other's jobs.
    if (
      b === 0 &&
      typeof (e as { run?: { runId?: unknown } }).run === 'object' &&
      (e as { run: object }).run &&
      Math.floor(rand() * 2) === 0
    ) {
      (e as { run: { runId: string } }).run.runId = randomUUID();
    }
    out.push(event(`random: ${changes.join(' ')}`, e));
  }
  return out;
}

/** The whole corpus (fuzz), deterministic for `seed`; `random` adds that many random multi-mutations. */
export function hostileCorpus(seed = 1, random = 0): HostileCase[] {
  return [
    ...eventShapes(),
    ...transport(),
    ...reads(),
    ...methodsAndWrites(),
    ...eventMutations(),
    ...randomMutations(seed, random),
  ];
}

/**
 * The test suite's sample: every hand-written case (shapes, transport, reads, methods and writes)
 * and an evenly spread, seeded sample of the field mutations, about `size` in all.
 */
export function hostileSample(size = 600, seed = 22): HostileCase[] {
  const fixed = [...eventShapes(), ...transport(), ...reads(), ...methodsAndWrites()];
  const mutations = eventMutations();
  const rand = rng(seed);
  const wanted = Math.max(0, size - fixed.length);
  const picked = mutations.filter(() => rand() < wanted / mutations.length);
  return [...fixed, ...picked];
}

export interface HostileAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  ms: number;
}

/**
 * Sends a case over a fresh connection (any method, any bytes), with a client timeout that tells a hang from an answer.
 */
export async function send(baseUrl: string, c: HostileCase, timeoutMs = 20_000): Promise<HostileAnswer> {
  const http = await import('node:http');
  const { hostname, port } = new URL(baseUrl);
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: hostname,
        port: Number(port),
        method: c.method,
        path: c.path,
        headers: {
          ...(c.headers ?? {}),
          ...(c.body !== undefined ? { 'content-length': String(Buffer.byteLength(c.body)) } : {}),
        },
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (d: Buffer) => chunks.push(d));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text: Buffer.concat(chunks).toString('utf8'),
            ms: performance.now() - t0,
          }),
        );
        res.on('error', reject);
      },
    );
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', reject);
    if (c.body !== undefined) req.write(c.body);
    req.end();
  });
}

/**
 * What is wrong with an answer (empty when nothing): a 5xx (a 503 is allowed only with `allow503`,
 * and then needs Retry-After), or an error without a JSON body `{code: <status>, error, message}`.
 */
export function answerProblems(c: HostileCase, a: HostileAnswer, allow503 = false): string[] {
  const problems: string[] = [];
  if (a.status >= 500 && !(allow503 && a.status === 503)) problems.push(`status ${a.status}`);
  if (a.status === 503 && !a.headers['retry-after']) problems.push('503 without Retry-After');
  if (a.status >= 400 && c.method !== 'HEAD') {
    let body: { code?: unknown; error?: unknown; message?: unknown } | null = null;
    try {
      body = JSON.parse(a.text);
    } catch {
      problems.push(`error body is not JSON: ${a.text.slice(0, 80)}`);
    }
    if (body && (body.code !== a.status || typeof body.error !== 'string' || typeof body.message !== 'string'))
      problems.push(`error body lacks {code, error, message}: ${a.text.slice(0, 120)}`);
    if (body && /\n\s+at /.test(a.text)) problems.push('stack trace in the answer');
  }
  return problems;
}
