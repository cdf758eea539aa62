import { expect } from 'chai';
import { canonicalJson, eventFingerprint, initialDatasetVersionId, jobVersionId, writtenDatasetVersionId } from '../../src/domain/versions.js';

const base = {
  namespace: 'airflow',
  name: 'etl.orders',
  location: 'https://git.example.com/etl.py',
  context: { sql: 'select 1' },
  inputs: [{ namespace: 'pg', name: 'a' }, { namespace: 'pg', name: 'b' }],
  outputs: [{ namespace: 'pg', name: 'c' }],
};

describe('version ids', () => {
  it('job version is a deterministic UUIDv5 of the four facts and the job', () => {
    const id = jobVersionId(base);
    expect(id).to.match(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(jobVersionId({ ...base })).to.equal(id);
  });

  it('ignores the order and repetition of inputs and outputs', () => {
    expect(jobVersionId({ ...base, inputs: [base.inputs[1], base.inputs[0], base.inputs[1]] })).to.equal(jobVersionId(base));
  });

  it('changes when any of location, context, inputs, outputs or the job changes', () => {
    const id = jobVersionId(base);
    const variants = [
      { ...base, location: null },
      { ...base, context: { sql: 'select 2' } },
      { ...base, inputs: [base.inputs[0]] },
      { ...base, outputs: [] },
      { ...base, name: 'etl.other' },
    ];
    const ids = variants.map(jobVersionId);
    expect(ids).not.to.include(id);
    expect(new Set(ids).size).to.equal(variants.length);
  });

  it('an input is not confused with an output, nor names with separators', () => {
    expect(jobVersionId({ ...base, inputs: [], outputs: base.inputs })).not.to.equal(jobVersionId({ ...base, inputs: base.inputs, outputs: [] }));
    expect(writtenDatasetVersionId({ namespace: 'a:b', name: 'c' }, 'r')).not.to.equal(writtenDatasetVersionId({ namespace: 'a', name: 'b:c' }, 'r'));
  });

  it('dataset versions: one per (dataset, run); a stable first version', () => {
    const ref = { namespace: 'pg', name: 'orders' };
    expect(writtenDatasetVersionId(ref, 'run-1')).to.equal(writtenDatasetVersionId(ref, 'run-1'));
    expect(writtenDatasetVersionId(ref, 'run-1')).not.to.equal(writtenDatasetVersionId(ref, 'run-2'));
    expect(initialDatasetVersionId(ref)).to.equal(initialDatasetVersionId({ ...ref }));
  });

  it('canonical JSON sorts keys at every level', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { z: 1, y: 2 }], c: null } })).to.equal('{"a":{"c":null,"d":[1,{"y":2,"z":1}]},"b":1}');
    expect(eventFingerprint({ a: 1, b: 2 })).to.equal(eventFingerprint({ b: 2, a: 1 }));
  });
});
