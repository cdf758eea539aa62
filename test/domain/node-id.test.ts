import { expect } from 'chai';
import {
  NodeIdError,
  entitySplits,
  fieldSplits,
  formatNodeId,
  parseNodeId,
  datasetNodeId,
  jobNodeId,
  fieldNodeId,
  MAX_NODE_ID_LENGTH,
} from '../../src/domain/node-id.js';

describe('node ids', () => {
  describe('parseNodeId', () => {
    it('parses a simple job id', () => {
      const p = parseNodeId('job:airflow:dag.task');
      expect(p.kind).to.equal('job');
      expect(p.version).to.equal(null);
      expect(p.candidates).to.deep.equal([{ namespace: 'airflow', name: 'dag.task' }]);
    });

    it('yields every split of a dataset id with colons, longest namespace first', () => {
      const p = parseNodeId('dataset:postgres://db:5432:mydb.public.orders');
      expect(p.kind).to.equal('dataset');
      expect(p.candidates).to.deep.equal([
        { namespace: 'postgres://db:5432', name: 'mydb.public.orders' },
        { namespace: 'postgres://db', name: '5432:mydb.public.orders' },
        { namespace: 'postgres', name: '//db:5432:mydb.public.orders' },
      ]);
    });

    it('includes the intended split for hive ids', () => {
      const p = parseNodeId('dataset:hive://host:9083:default.t1');
      expect(p.candidates).to.deep.include({ namespace: 'hive://host:9083', name: 'default.t1' });
      expect(p.candidates[0]).to.deep.equal({ namespace: 'hive://host:9083', name: 'default.t1' });
    });

    it('keeps colons in names as candidates too', () => {
      const p = parseNodeId('dataset:s3://bucket:path/a:b');
      expect(p.candidates).to.deep.equal([
        { namespace: 's3://bucket:path/a', name: 'b' },
        { namespace: 's3://bucket', name: 'path/a:b' },
        { namespace: 's3', name: '//bucket:path/a:b' },
      ]);
    });

    it('yields every (namespace, dataset, field) split of a field id', () => {
      const p = parseNodeId('datasetField:postgres://db:5432:public.orders:amount');
      expect(p.kind).to.equal('datasetField');
      expect(p.candidates).to.deep.equal([
        { namespace: 'postgres://db:5432', dataset: 'public.orders', field: 'amount' },
        { namespace: 'postgres://db', dataset: '5432:public.orders', field: 'amount' },
        { namespace: 'postgres://db', dataset: '5432', field: 'public.orders:amount' },
        { namespace: 'postgres', dataset: '//db:5432:public.orders', field: 'amount' },
        { namespace: 'postgres', dataset: '//db:5432', field: 'public.orders:amount' },
        { namespace: 'postgres', dataset: '//db', field: '5432:public.orders:amount' },
      ]);
    });

    it('parses a #version suffix when it is a UUID', () => {
      const v = '0190b3c4-5d6e-7f80-9a1b-2c3d4e5f6a7b';
      const p = parseNodeId(`dataset:ns:tbl#${v.toUpperCase()}`);
      expect(p.version).to.equal(v);
      expect(p.candidates).to.deep.equal([{ namespace: 'ns', name: 'tbl' }]);
      const f = parseNodeId(`datasetField:ns:tbl:col#${v}`);
      expect(f.version).to.equal(v);
      expect(f.candidates).to.deep.equal([{ namespace: 'ns', dataset: 'tbl', field: 'col' }]);
    });

    it('keeps a # that is not followed by a UUID in the name', () => {
      const p = parseNodeId('dataset:s3://bucket:file#1');
      expect(p.version).to.equal(null);
      expect(p.candidates[0]).to.deep.equal({ namespace: 's3://bucket', name: 'file#1' });
    });

    for (const bad of [
      '',
      'dataset',
      'dataset:',
      'dataset:ns',
      'dataset:ns:',
      'dataset::name',
      'job:onlyname',
      'table:ns:name',
      'Dataset:ns:name',
      'datasetField:ns:tbl',
      'datasetField:ns::col',
      'datasetField:ns:tbl:',
    ]) {
      it(`rejects '${bad}'`, () => {
        expect(() => parseNodeId(bad)).to.throw(NodeIdError);
      });
    }

    it('rejects non-strings, overlong ids and ids with too many colons', () => {
      expect(() => parseNodeId(undefined)).to.throw(NodeIdError);
      expect(() => parseNodeId(['dataset:a:b'])).to.throw(NodeIdError);
      expect(() => parseNodeId(`dataset:a:${'x'.repeat(MAX_NODE_ID_LENGTH)}`)).to.throw(NodeIdError, /longer than/);
      expect(() => parseNodeId(`datasetField:${'a:'.repeat(100)}b`)).to.throw(NodeIdError, /colons/);
    });

    it('accepts the id of every name events may carry: the longest, and one with many colons', () => {
      const longest = `datasetField:${'n'.repeat(1024)}:${'d'.repeat(4096)}:${'f'.repeat(1024)}`;
      const parsed = parseNodeId(`${longest}#0190b3c4-5d6e-7f80-9a1b-2c3d4e5f6a7b`);
      expect(parsed.candidates).to.have.length(1);
      expect(parsed.version).to.equal('0190b3c4-5d6e-7f80-9a1b-2c3d4e5f6a7b');
      // A job's or dataset's id has one candidate per colon, so colons are bounded by the length alone.
      expect(parseNodeId(`dataset:${'a:'.repeat(100)}b`).candidates).to.have.length(100);
    });
  });

  describe('splits', () => {
    it('never produces empty parts', () => {
      expect(entitySplits(':a:')).to.deep.equal([]);
      expect(entitySplits('a::b')).to.deep.equal([
        { namespace: 'a:', name: 'b' },
        { namespace: 'a', name: ':b' },
      ]);
      expect(fieldSplits('a:b')).to.deep.equal([]);
    });
  });

  describe('formatting', () => {
    it('round-trips every kind, with and without version', () => {
      const v = '0190b3c4-5d6e-7f80-9a1b-2c3d4e5f6a7b';
      expect(jobNodeId('airflow', 'dag.task')).to.equal('job:airflow:dag.task');
      expect(datasetNodeId('postgres://db:5432', 'mydb.public.orders')).to.equal(
        'dataset:postgres://db:5432:mydb.public.orders',
      );
      expect(fieldNodeId('ns', 't', 'c')).to.equal('datasetField:ns:t:c');
      expect(formatNodeId({ kind: 'dataset', namespace: 'n:1', name: 'x' }, v)).to.equal(`dataset:n:1:x#${v}`);
      expect(formatNodeId({ kind: 'datasetField', namespace: 'n', dataset: 'd', field: 'f' })).to.equal(
        'datasetField:n:d:f',
      );
      for (const id of ['job:a:b', 'dataset:hive://h:9083:db.t', `datasetField:p://h:1:s.t:c#${v}`]) {
        const p = parseNodeId(id);
        const c = p.candidates[0];
        const again =
          p.kind === 'datasetField'
            ? formatNodeId(
                { kind: 'datasetField', ...(c as { namespace: string; dataset: string; field: string }) },
                p.version,
              )
            : formatNodeId({ kind: p.kind, ...(c as { namespace: string; name: string }) }, p.version);
        expect(again).to.equal(id);
      }
    });
  });
});
