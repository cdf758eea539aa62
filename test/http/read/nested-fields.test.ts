/**
 * Nested schema columns (STRUCT members) are columns like any other, named by their dotted path
 * (`addr.geo.lat`): they can be tagged, their tags show on the nested entry of the dataset's `fields`,
 * and column lineage and impact take them as `datasetField:` node ids. Everything through POST
 * /api/v1/lineage on a real Neo4j.
 */
import { expect } from 'chai';
import { useTestApp } from '../../helper.js';
import { completedRun, facet, PRODUCER } from '../../support/events.js';
import { rows } from '../../support/graph.js';
import { EVENT_LIMITS } from '../../../src/domain/openlineage/limits.js';
import type { Dataset, DatasetField } from '../../../src/api/types.js';

const NS = 'wh';
type Col = { name: string; type?: string; fields?: Col[] };
const schema = (fields: Col[]) => facet({ fields }, 'SchemaDatasetFacet');
const NESTED: Col[] = [
  { name: 'id', type: 'INT' },
  {
    name: 'addr',
    type: 'STRUCT',
    fields: [
      { name: 'city', type: 'STRING' },
      { name: 'geo', type: 'STRUCT', fields: [{ name: 'lat', type: 'DOUBLE' }] },
    ],
  },
];

const datasetEvent = (name: string, eventTime: string, facets: Record<string, unknown>) => ({
  eventTime,
  producer: PRODUCER,
  schemaURL: 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/DatasetEvent',
  dataset: { namespace: NS, name, facets },
});

/** The entry at a dotted path of a `fields` tree. */
function entry(fields: DatasetField[], ...path: string[]): DatasetField {
  let list = fields;
  let found: DatasetField | undefined;
  for (const name of path) {
    found = list.find((f) => f.name === name);
    expect(found, `${path.join('.')}: no '${name}'`).to.not.equal(undefined);
    list = found!.fields ?? [];
  }
  return found!;
}

/** Every (dotted path, tags) of a `fields` tree with tags, in order. */
function taggedPaths(fields: DatasetField[], prefix = ''): string[] {
  return fields.flatMap((f) => [
    ...(f.tags.length ? [`${prefix}${f.name} ${f.tags.join(',')}`] : []),
    ...taggedPaths(f.fields ?? [], `${prefix}${f.name}.`),
  ]);
}

describe('nested schema columns: addressed by their dotted path', () => {
  const t = useTestApp();
  const post = async (events: Record<string, unknown>[]) => {
    for (const e of events) {
      const res = await t().post('/api/v1/lineage', e);
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
    }
  };
  const call = async <T = any>(method: string, path: string, status = 200) => {
    const res = await t().request<T>(method, path);
    expect(res.status, `${method} ${path}: ${res.text}`).to.equal(status);
    return res.body;
  };
  const fieldNodes = async (dataset: string) =>
    (
      await rows(
        t().db,
        `MATCH (:Dataset {namespace: $ns, name: $name})-[:HAS_FIELD]->(f:DatasetField)
         RETURN f.name + ' ' + coalesce(f.type, '-') AS f ORDER BY f`,
        { ns: NS, name: dataset },
      )
    ).map((r) => r.f as string);
  const writeNested = (name = 'nested', fields: Col[] = NESTED) =>
    post(
      completedRun({
        job: 'load',
        jobNamespace: 'etl',
        outputs: [{ namespace: NS, name, facets: { schema: schema(fields) } }],
      }),
    );

  it('ingest makes a typed column node for every nested column, under its dotted path', async () => {
    await writeNested();
    expect(await fieldNodes('nested')).to.deep.equal([
      'addr STRUCT',
      'addr.city STRING',
      'addr.geo STRUCT',
      'addr.geo.lat DOUBLE',
      'id INT',
    ]);
  });

  it('tags a nested column: the tag shows on its nested entry, in every view, and untagging removes it', async () => {
    await writeNested();
    const base = `/api/v1/namespaces/${NS}/datasets/nested`;
    const tagged = await call<Dataset>('POST', `${base}/fields/addr.city/tags/PII`);
    expect(entry(tagged.fields, 'addr', 'city').tags).to.deep.equal(['PII']);
    await call('POST', `${base}/fields/${encodeURIComponent('addr.geo.lat')}/tags/GEO`);

    const d = await call<Dataset>('GET', base);
    expect(taggedPaths(d.fields)).to.deep.equal(['addr.city PII', 'addr.geo.lat GEO']);
    const list = await call<{ datasets: Dataset[] }>('GET', `/api/v1/namespaces/${NS}/datasets`);
    expect(taggedPaths(list.datasets.find((x) => x.name === 'nested')!.fields)).to.deep.equal([
      'addr.city PII',
      'addr.geo.lat GEO',
    ]);
    const versions = await call<{ versions: Dataset[] }>('GET', `${base}/versions`);
    expect(taggedPaths(versions.versions[0].fields)).to.deep.equal(['addr.city PII', 'addr.geo.lat GEO']);
    const version = await call<Dataset>('GET', `${base}/versions/${d.currentVersion}`);
    expect(taggedPaths(version.fields)).to.deep.equal(['addr.city PII', 'addr.geo.lat GEO']);

    // A top-level column named like a nested one's last name does not take its tags.
    await writeNested('other', [...NESTED, { name: 'city', type: 'STRING' }]);
    await call('POST', `/api/v1/namespaces/${NS}/datasets/other/fields/city/tags/TOP`);
    const other = await call<Dataset>('GET', `/api/v1/namespaces/${NS}/datasets/other`);
    expect(taggedPaths(other.fields)).to.deep.equal(['city TOP']);

    const untagged = await call<Dataset>('DELETE', `${base}/fields/addr.city/tags/PII`);
    expect(taggedPaths(untagged.fields)).to.deep.equal(['addr.geo.lat GEO']);
    // A path the schema does not have is no column.
    await call('POST', `${base}/fields/addr.zip/tags/PII`, 404);
    await call('POST', `${base}/fields/city/tags/PII`, 404);
  });

  it('column lineage and impact take a nested column as a datasetField node id', async () => {
    await writeNested();
    const lat = `datasetField:${NS}:nested:addr.geo.lat`;
    const alone = await call('GET', `/api/v1/column-lineage?nodeId=${encodeURIComponent(lat)}`);
    expect(alone.graph.map((n: { id: string }) => n.id)).to.deep.equal([lat]);

    // A downstream column derived from the nested one.
    const columnLineage = facet(
      { fields: { latitude: { inputFields: [{ namespace: NS, name: 'nested', field: 'addr.geo.lat' }] } } },
      'ColumnLineageDatasetFacet',
    );
    await post(
      completedRun({
        job: 'flatten',
        jobNamespace: 'etl',
        inputs: [{ namespace: NS, name: 'nested' }],
        outputs: [
          {
            namespace: NS,
            name: 'flat',
            facets: { schema: schema([{ name: 'latitude', type: 'DOUBLE' }]), columnLineage },
          },
        ],
      }),
    );
    const down = await call('GET', `/api/v1/column-lineage?nodeId=${encodeURIComponent(lat)}&withDownstream=true`);
    expect(down.graph.map((n: { id: string }) => n.id).sort()).to.deep.equal([`datasetField:${NS}:flat:latitude`, lat]);
    const impact = await call('GET', `/api/v1/impact?nodeId=${encodeURIComponent(lat)}`);
    expect(impact.nodes.map((n: { id: string }) => n.id)).to.deep.equal([`datasetField:${NS}:flat:latitude`]);
    // Still the one node, typed by the schema, after column lineage named it too.
    expect(await fieldNodes('nested')).to.include('addr.geo.lat DOUBLE');

    // And at a version of the dataset: the column is in that version's schema.
    const [{ v }] = await rows(t().db, "MATCH (:Dataset {name: 'nested'})-[:CURRENT_VERSION]->(v) RETURN v.id AS v");
    const pinned = await call('GET', `/api/v1/column-lineage?nodeId=${encodeURIComponent(`${lat}#${v}`)}`);
    expect(pinned.graph.map((n: { id: string }) => n.id)).to.include(`${lat}#${v}`);
  });

  it('a top-level column literally named a.b keeps the name; b inside a has none of its own', async () => {
    await writeNested('dots', [
      {
        name: 'a',
        type: 'STRUCT',
        fields: [
          { name: 'b', type: 'INT' },
          { name: 'c', type: 'INT' },
        ],
      },
      { name: 'a.b', type: 'STRING' },
    ]);
    expect(await fieldNodes('dots')).to.deep.equal(['a STRUCT', 'a.b STRING', 'a.c INT']);
    const d = await call<Dataset>('POST', `/api/v1/namespaces/${NS}/datasets/dots/fields/a.b/tags/T`);
    expect(taggedPaths(d.fields)).to.deep.equal(['a.b T']);
    expect(entry(d.fields, 'a.b').tags).to.deep.equal(['T']);
    expect(entry(d.fields, 'a', 'b').tags).to.deep.equal([]);
  });

  it('a nested column a newer schema drops keeps its node and tags, untyped, in any delivery order', async () => {
    const dropped: Col[] = [
      { name: 'id', type: 'INT' },
      {
        name: 'addr',
        type: 'STRUCT',
        fields: [{ name: 'geo', type: 'STRUCT', fields: [{ name: 'lat', type: 'DOUBLE' }] }],
      },
    ];
    const early = '2024-01-01T00:00:00.000Z';
    const late = '2024-01-02T00:00:00.000Z';
    const orders: [string, [string, Col[]][]][] = [
      [
        'inorder',
        [
          [early, NESTED],
          [late, dropped],
        ],
      ],
      [
        'reversed',
        [
          [late, dropped],
          [early, NESTED],
        ],
      ],
      [
        'repeated',
        [
          [late, dropped],
          [early, NESTED],
          [late, dropped],
          [early, NESTED],
        ],
      ],
    ];
    for (const [name, events] of orders)
      for (const [at, fields] of events) await post([datasetEvent(name, at, { schema: schema(fields) })]);
    const expected = ['addr STRUCT', 'addr.city -', 'addr.geo STRUCT', 'addr.geo.lat DOUBLE', 'id INT'];
    for (const [name] of orders) {
      expect(await fieldNodes(name), name).to.deep.equal(expected);
      const d = await call<Dataset>('POST', `/api/v1/namespaces/${NS}/datasets/${name}/fields/addr.city/tags/OLD`);
      // The current schema has no addr.city: its tag is kept on the node, shown on no entry.
      expect(taggedPaths(d.fields), name).to.deep.equal([]);
      expect(entry(d.fields, 'addr').fields!.map((f) => f.name)).to.deep.equal(['geo']);
    }
  });

  it("a nested column's dotted path is held to the column name limit", async () => {
    const half = 'x'.repeat(EVENT_LIMITS.fieldNameBytes / 2);
    const res = await t().post(
      '/api/v1/lineage',
      datasetEvent('long', '2024-01-01T00:00:00Z', {
        schema: schema([{ name: half, fields: [{ name: half, type: 'INT' }] }]),
      }),
    );
    expect(res.status).to.equal(422);
    expect(JSON.stringify(res.body)).to.include('fieldNameBytes');
    const fits = 'x'.repeat(EVENT_LIMITS.fieldNameBytes / 2 - 1);
    await post([
      datasetEvent('long', '2024-01-01T00:00:00Z', {
        schema: schema([{ name: fits, fields: [{ name: half, type: 'INT' }] }]),
      }),
    ]);
    expect(await fieldNodes('long')).to.deep.equal([`${fits} -`, `${fits}.${half} INT`]);
  });
});
