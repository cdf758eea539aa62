import { expect } from 'chai';
import { v5 as referenceUuidV5 } from 'uuid';
import {
  canonicalEvent,
  canonicalJson,
  eventFingerprint,
  initialDatasetVersionId,
  jobVersionId,
  writtenDatasetVersionId,
} from '../../src/domain/versions.js';
import { uuidV5 } from '../../src/domain/uuid-v5.js';

const base = {
  namespace: 'airflow',
  name: 'etl.orders',
  location: 'https://git.example.com/etl.py',
  context: { sql: 'select 1' },
  inputs: [
    { namespace: 'pg', name: 'a' },
    { namespace: 'pg', name: 'b' },
  ],
  outputs: [{ namespace: 'pg', name: 'c' }],
};

/** canonicalJson's oracle: a plain recursive sort of keys, undefined as null (slow, obviously right). */
function reference(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(reference).join(',')}]`;
  if (value && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    return `{${Object.keys(record)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${reference(record[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

describe('version ids', () => {
  it('job version is a deterministic UUIDv5 of the four facts and the job', () => {
    const id = jobVersionId(base);
    expect(id).to.match(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(jobVersionId({ ...base })).to.equal(id);
  });

  it('ignores the order and repetition of inputs and outputs', () => {
    expect(jobVersionId({ ...base, inputs: [base.inputs[1], base.inputs[0], base.inputs[1]] })).to.equal(
      jobVersionId(base),
    );
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
    expect(jobVersionId({ ...base, inputs: [], outputs: base.inputs })).not.to.equal(
      jobVersionId({ ...base, inputs: base.inputs, outputs: [] }),
    );
    expect(writtenDatasetVersionId({ namespace: 'a:b', name: 'c' }, 'r')).not.to.equal(
      writtenDatasetVersionId({ namespace: 'a', name: 'b:c' }, 'r'),
    );
  });

  it('dataset versions: one per (dataset, run); a stable first version', () => {
    const ref = { namespace: 'pg', name: 'orders' };
    expect(writtenDatasetVersionId(ref, 'run-1')).to.equal(writtenDatasetVersionId(ref, 'run-1'));
    expect(writtenDatasetVersionId(ref, 'run-1')).not.to.equal(writtenDatasetVersionId(ref, 'run-2'));
    expect(initialDatasetVersionId(ref)).to.equal(initialDatasetVersionId({ ...ref }));
  });

  it('canonical JSON sorts keys at every level', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { z: 1, y: 2 }], c: null } })).to.equal(
      '{"a":{"c":null,"d":[1,{"y":2,"z":1}]},"b":1}',
    );
    expect(eventFingerprint({ a: 1, b: 2 })).to.equal(eventFingerprint({ b: 2, a: 1 }));
  });

  // Ids are stored: a change of algorithm or serializer would fork every existing graph.
  it('ids stay those of earlier releases', () => {
    expect(jobVersionId(base)).to.equal('847845a4-4d74-549c-8506-3e7febd47722');
    expect(writtenDatasetVersionId({ namespace: 'pg', name: 'orders' }, 'run-1')).to.equal(
      'e71161df-0a56-523f-95da-479199aff34c',
    );
    expect(initialDatasetVersionId({ namespace: 'pg', name: 'ördérs 表' })).to.equal(
      '62bdaf6e-c8e5-51ae-8e61-5d74f1f1b70a',
    );
    const event = {
      eventType: 'START',
      run: { runId: 'x', facets: { z: 1, a: [{ b: 2, a: undefined }] } },
      job: { namespace: 'n', name: 'j' },
      ünï: '😀',
    };
    expect(eventFingerprint(event)).to.equal('7e61853fa8e9d2eaf12ced0fd531ecea66e32b5f2b3a7d5ad0f6988922d89a57');
  });

  it('canonical JSON equals a plain recursive sort, for nested, unicode and undefined values', () => {
    const samples: unknown[] = [
      null,
      undefined,
      'x',
      [3, 'a', null, { b: 1, a: 2 }],
      { z: { y: { x: [{ c: undefined, b: [], a: {} }] } }, é: '\u2028', a: 1.5e300, '': false },
      { sorted: { a: 1, b: { a: 1, b: 2 } } },
      // Array-index keys: objects enumerate them in numeric order ("2" before "10").
      { b: 1, 10: 'ten', 2: 'two', a: { 1: 1, 0: 0 } },
      { 0: 'a', 1: 'b', 2: 'c' },
      JSON.parse('{"z": 1, "__proto__": {"x": 1}, "a": 2}'),
    ];
    for (const sample of samples) expect(canonicalJson(sample)).to.equal(reference(sample));
  });

  it('canonical JSON equals a plain recursive sort on 2,000 random values, and serializes toJSON as JSON does', () => {
    let seed = 5;
    const rand = () => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed / 0x7fffffff;
    };
    const keys = ['a', 'b', 'z', 'A', '_', 'é', '😀', '', '__proto__', '0', '7', '10', 'k1', 'k10', 'k2', 'toString'];
    const leaves = [null, undefined, true, false, 0, -0, 1.5, 1e21, 'x', '\u2028', '"', 'ü'];
    const value = (depth: number): unknown => {
      const r = rand();
      if (depth === 0 || r < 0.3) return leaves[Math.floor(rand() * leaves.length)];
      if (r < 0.55) return Array.from({ length: Math.floor(rand() * 5) }, () => value(depth - 1));
      const object: Record<string, unknown> = rand() < 0.1 ? Object.create(null) : {};
      for (let i = Math.floor(rand() * 6); i > 0; i--)
        Object.defineProperty(object, keys[Math.floor(rand() * keys.length)], {
          value: value(depth - 1),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      return object;
    };
    for (let i = 0; i < 2_000; i++) {
      const sample = value(5);
      expect(canonicalJson(sample)).to.equal(reference(sample));
    }
    // Values with toJSON are written as JSON.stringify writes them (a Date as its ISO text), keys sorted.
    const at = new Date(Date.UTC(2026, 10, 26));
    expect(canonicalJson({ b: at, a: [at, { toJSON: () => ({ z: 1, y: undefined }) }] })).to.equal(
      '{"a":["2026-11-26T00:00:00.000Z",{"y":null,"z":1}],"b":"2026-11-26T00:00:00.000Z"}',
    );
    // An already sorted value is written as it is; one holding undefined is not changed by being written.
    const sorted = { a: [1, { b: 2, c: undefined }], d: 'x' };
    expect(canonicalJson(sorted)).to.equal('{"a":[1,{"b":2,"c":null}],"d":"x"}');
    expect(sorted.a[1]).to.deep.equal({ b: 2, c: undefined });
  });

  it("a canonical event is its canonical JSON and that JSON's SHA-256, computed once", () => {
    const raw = { b: 1, a: 2 };
    const first = canonicalEvent(raw);
    expect(first.json).to.equal('{"a":2,"b":1}');
    expect(first.id).to.equal(eventFingerprint({ a: 2, b: 1 }));
    expect(canonicalEvent(raw)).to.equal(first);
  });

  it('UUIDv5 matches the uuid package', () => {
    const names = ['', 'run-1', 'ördérs 表 😀', 'x'.repeat(1000), '["run","pg","orders","r"]'];
    for (const ns of ['6ba7b810-9dad-11d1-80b4-00c04fd430c8', '0D6C1F4E-2B7A-4F3E-8E5D-9A1B2C3D4E5F']) {
      for (const name of names) expect(uuidV5(name, ns)).to.equal(referenceUuidV5(name, ns));
    }
  });
});
