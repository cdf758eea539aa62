/** The column lineage page's mappings table (web/src/columns.ts): pure, in Node. */
import { expect } from 'chai';
import type { LineageNode } from '../../src/api/types.js';
import { columnMappings, transformationText } from '../../web/src/columns.js';

type Input = {
  dataset: string;
  field: string;
  job: string | null;
  transformations?: { type: string; subtype?: string; description?: string; masking?: boolean }[];
};

function column(dataset: string, field: string, inputs: Input[] = []): LineageNode {
  return {
    id: `datasetField:w:${dataset}:${field}`,
    type: 'DATASET_FIELD',
    data: {
      namespace: 'w',
      dataset,
      datasetVersion: null,
      field,
      fieldType: null,
      inputFields: inputs.map((i) => ({
        namespace: 'w',
        dataset: i.dataset,
        field: i.field,
        jobNamespace: i.job ? 'etl' : null,
        jobName: i.job,
        transformationType: i.transformations?.[0]?.type ?? null,
        transformationDescription: i.transformations?.[0]?.description ?? null,
        transformations: (i.transformations ?? []).map((t) => ({
          type: t.type,
          subtype: t.subtype ?? null,
          description: t.description ?? '',
          masking: t.masking ?? false,
        })),
      })),
    },
    inEdges: [],
    outEdges: [],
  };
}

describe('web column mappings', () => {
  it('one row per input → output column pair, with every job and every transformation', () => {
    const identity = { type: 'DIRECT', subtype: 'IDENTITY' };
    const join = { type: 'INDIRECT', subtype: 'JOIN', description: 'on id' };
    const graph = [
      column('cll_source1', 'a'),
      column('cll_source2', 'a'),
      column('target', 'x', [
        // Two jobs declare the same mapping: one row, both jobs.
        { dataset: 'cll_source1', field: 'a', job: 'load', transformations: [identity, join] },
        { dataset: 'cll_source1', field: 'a', job: 'reload', transformations: [identity] },
        { dataset: 'cll_source2', field: 'a', job: 'load', transformations: [{ type: 'INDIRECT', subtype: 'FILTER' }] },
      ]),
    ];
    const rows = columnMappings(graph);
    expect(
      rows.map((r) => `${r.input.dataset}.${r.input.field} → ${r.output.dataset}.${r.output.field}`),
    ).to.deep.equal(['cll_source1.a → target.x', 'cll_source2.a → target.x']);
    expect(rows[0].jobs.map((j) => j.name)).to.deep.equal(['load', 'reload']);
    expect(rows[0].transformations).to.deep.equal(['DIRECT/IDENTITY', 'INDIRECT/JOIN: on id']);
    expect(rows[1].transformations).to.deep.equal(['INDIRECT/FILTER']);
  });

  it('reads an answer without the transformations list by its first transformation', () => {
    const node = column('t', 'x');
    (node.data as { inputFields: unknown[] }).inputFields = [
      {
        namespace: 'w',
        dataset: 's',
        field: 'y',
        jobNamespace: null,
        jobName: null,
        transformationType: 'DIRECT',
        transformationDescription: null,
      },
    ];
    expect(columnMappings([node])).to.deep.equal([
      {
        output: { namespace: 'w', dataset: 't', field: 'x' },
        input: { namespace: 'w', dataset: 's', field: 'y' },
        jobs: [],
        transformations: ['DIRECT'],
      },
    ]);
  });

  it('writes a transformation as type/subtype, its description, and masking', () => {
    expect(transformationText({ type: 'DIRECT', subtype: 'AGGREGATION', description: '', masking: false })).to.equal(
      'DIRECT/AGGREGATION',
    );
    expect(
      transformationText({ type: 'DIRECT', subtype: 'TRANSFORMATION', description: 'sha1(email)', masking: true }),
    ).to.equal('DIRECT/TRANSFORMATION: sha1(email) (masking)');
    expect(transformationText({})).to.equal('?');
  });
});
