import { expect } from 'chai';
import http from 'node:http';
import neo4j from 'neo4j-driver';
import { build, useTestApp, type TestApp } from '../../helper.js';
import { facet } from '../../support/events.js';
import { parseNodeId } from '../../../src/domain/node-id.js';
import { LineageRepository } from '../../../src/store/lineage/index.js';
import { ds, e, expectGraph, job, JOB_NS, lineagePath as p, NS, runJob } from './support.js';

describe('GET /api/v1/lineage: errors, symlinks, soft deletes, timeouts', () => {
  const t = useTestApp();

  describe('request validation', () => {
    beforeEach(async () => {
      await runJob(t(), 'j', ['a'], ['b']);
    });

    const bad: [string, string][] = [
      ['/api/v1/lineage', 'nodeId'],
      ['/api/v1/lineage?nodeId=', 'nodeId'],
      [p('table:ns:x'), 'Invalid nodeId'],
      [p('dataset:onlyname'), 'Invalid nodeId'],
      [p('dataset:ns:'), 'Invalid nodeId'],
      [p(ds('a'), { depth: -1 }), 'depth'],
      [p(ds('a'), { depth: 101 }), 'depth'],
      [p(ds('a'), { depth: 'deep' }), 'depth'],
      [p(ds('a'), { depth: '1.5' }), 'depth'],
      [p(ds('a'), { direction: 'sideways' }), 'direction'],
      [p(`datasetField:ns:a:col`), 'column-lineage'],
      ['/api/v1-beta/lineage?nodeId=nope', 'Invalid nodeId'],
      [`/api/v1/lineage?nodeId=${encodeURIComponent(ds('a'))}&nodeId=${encodeURIComponent(ds('b'))}`, 'more than once'],
    ];
    for (const [path, word] of bad) {
      it(`400 for ${decodeURIComponent(path)}`, async () => {
        const res = await t().get(path);
        expect(res.status, res.text).to.equal(400);
        expect(res.body).to.include({ code: 400, error: 'bad_request' });
        expect(res.body.message).to.contain(word);
        // Every 400 names the query parameter it is about, as docs/api.md promises.
        expect(res.body.errors?.[0], res.text).to.include({ in: 'query' });
      });
    }

    it('404 for a well-formed id of an unknown job or dataset', async () => {
      for (const id of [ds('nope'), job('nope'), 'dataset:postgres://other:5432:a', 'job:other:j']) {
        const res = await t().get(p(id));
        expect(res.status, id).to.equal(404);
        expect(res.body).to.include({ code: 404, error: 'not_found' });
        expect(res.body.message).to.contain(id);
      }
    });

    it('accepts direction case-insensitively and the bounds of depth', async () => {
      for (const q of [{ direction: 'DOWNSTREAM' }, { depth: 0 }, { depth: 100 }] as Record<
        string,
        string | number
      >[]) {
        expect((await t().get(p(ds('a'), q))).status).to.equal(200);
      }
    });

    it('a dataset without any job is a graph of itself', async () => {
      const res = await t().post('/api/v1/lineage', {
        eventTime: '2024-06-01T00:00:00Z',
        producer: 'https://example.com/p',
        schemaURL: 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/DatasetEvent',
        dataset: { namespace: 'warehouse', name: 'lonely', facets: {} },
      });
      expect(res.status).to.equal(201);
      await expectGraph(t(), p('dataset:warehouse:lonely'), { nodes: ['dataset:warehouse:lonely'], edges: [] });
    });
  });

  describe('symlinked datasets', () => {
    const symlinks = facet(
      { identifiers: [{ namespace: 'hdfs://namenode:8020', name: '/warehouse/orders', type: 'TABLE' }] },
      'SymlinksDatasetFacet',
    );
    const primary = 'dataset:hive://metastore:9083:default.orders';
    const alias = 'dataset:hdfs://namenode:8020:/warehouse/orders';
    const expected = {
      nodes: [job('writer'), primary, job('reader'), ds('report')],
      edges: [e(job('writer'), primary), e(primary, job('reader')), e(job('reader'), ds('report'))],
    };

    it('appear once, under the primary name, with all their edges (alias declared first)', async () => {
      await runJob(
        t(),
        'writer',
        [],
        [{ namespace: 'hive://metastore:9083', name: 'default.orders', facets: { symlinks } }],
      );
      await runJob(t(), 'reader', [{ namespace: 'hdfs://namenode:8020', name: '/warehouse/orders' }], ['report']);
      for (const id of [primary, alias, job('writer'), ds('report')]) await expectGraph(t(), p(id), expected);
      await expectGraph(t(), p(alias, { direction: 'downstream' }), {
        nodes: [primary, job('reader'), ds('report')],
        edges: [e(primary, job('reader')), e(job('reader'), ds('report'))],
      });
    });

    it('appear once when the alias name was used before the symlink was known', async () => {
      await runJob(t(), 'reader', [{ namespace: 'hdfs://namenode:8020', name: '/warehouse/orders' }], ['report']);
      await runJob(
        t(),
        'writer',
        [],
        [{ namespace: 'hive://metastore:9083', name: 'default.orders', facets: { symlinks } }],
      );
      for (const id of [primary, alias, job('reader')]) await expectGraph(t(), p(id), expected);
    });
  });

  describe('soft-deleted jobs and datasets', () => {
    beforeEach(async () => {
      await runJob(t(), 'j1', ['d0'], ['d1']);
      await runJob(t(), 'j2', ['d1'], ['d2']);
      await runJob(t(), 'j3', ['d1'], ['d3']);
    });
    // Through the API's soft delete, which sets isDeleted and the Deleted label together.
    const softDelete = async (label: 'Job' | 'Dataset', name: string) => {
      const path =
        label === 'Job' ? `${encodeURIComponent(JOB_NS)}/jobs/${name}` : `${encodeURIComponent(NS)}/datasets/${name}`;
      expect((await t().request('DELETE', `/api/v1/namespaces/${path}`)).status, path).to.equal(200);
    };

    it('are left out, and not walked through', async () => {
      await softDelete('Job', 'j2');
      await expectGraph(t(), p(ds('d0'), { direction: 'downstream' }), {
        nodes: [ds('d0'), job('j1'), ds('d1'), job('j3'), ds('d3')],
        edges: [e(ds('d0'), job('j1')), e(job('j1'), ds('d1')), e(ds('d1'), job('j3')), e(job('j3'), ds('d3'))],
      });
      await softDelete('Dataset', 'd1');
      await expectGraph(t(), p(ds('d0')), { nodes: [ds('d0'), job('j1')], edges: [e(ds('d0'), job('j1'))] });
    });

    it('are 404 as start nodes', async () => {
      await softDelete('Job', 'j2');
      await softDelete('Dataset', 'd2');
      expect((await t().get(p(job('j2')))).status).to.equal(404);
      expect((await t().get(p(ds('d2')))).status).to.equal(404);
    });
  });

  describe('size cap', () => {
    it('keeps the nearest nodes and says truncated when the result exceeds the cap', async () => {
      await runJob(t(), 'j1', ['d0'], ['d1']);
      await runJob(t(), 'j2', ['d1'], ['d2']);
      await runJob(t(), 'j3', ['d2'], ['d3']);
      const full = await t().get(p(ds('d0'), { direction: 'downstream' }));
      expect(full.body.truncated).to.equal(false);
      const capped = await new LineageRepository(t().db, { maxNodes: 3 }).lineage(
        parseNodeId(ds('d0')) as never,
        20,
        'downstream',
      );
      expect(capped!.truncated).to.equal(true);
      expect(capped!.graph.map((n) => n.id).sort()).to.deep.equal([ds('d0'), ds('d1'), job('j1')].sort());
      expect(
        capped!.graph.flatMap((n) => n.outEdges.map((x) => `${x.origin} -> ${x.destination}`)).sort(),
      ).to.deep.equal([e(ds('d0'), job('j1')), e(job('j1'), ds('d1'))].sort());
    });
  });

  describe('the streamed answer', () => {
    it('says truncated after the nodes it kept, over HTTP as from the repository', async () => {
      await runJob(t(), 'j1', ['d0'], ['d1']);
      await runJob(t(), 'j2', ['d1'], ['d2']);
      const graph = t().app.services.lineage.graph as unknown as { maxNodes: number };
      const cap = graph.maxNodes;
      graph.maxNodes = 3;
      try {
        const res = await t().get(p(ds('d0'), { direction: 'downstream' }));
        expect(res.status).to.equal(200);
        expect(res.headers.get('content-length'), 'streamed').to.equal(null);
        expect(res.body.truncated).to.equal(true);
        expect(res.body.graph.map((n: { id: string }) => n.id)).to.deep.equal([ds('d0'), ds('d1'), job('j1')]);
      } finally {
        graph.maxNodes = cap;
      }
    });

    /** The lineage query's records, one node each, handed on until `handOn` of them, then a timeout. */
    const failAfter = (handOn: number) => {
      const db = t().app.services.db;
      const executeMapped = db.executeMapped.bind(db);
      db.executeMapped = (async (routing, op, text, params, map, opts) => {
        if (op !== 'lineage/graph') return executeMapped(routing, op, text, params, map, opts);
        const records = await executeMapped(routing, op, text, { ...params, chunk: neo4j.int(1) }, (r) => r, opts);
        for (const record of records.slice(0, handOn)) map(record);
        throw Object.assign(new Error('The transaction has been terminated.'), {
          code: 'Neo.ClientError.Transaction.TransactionTimedOutClientConfiguration',
        });
      }) as typeof db.executeMapped;
      return () => {
        db.executeMapped = executeMapped;
      };
    };
    const getRaw = (path: string) =>
      new Promise<{ status: number; body: string; complete: boolean } | 'hang-up'>((resolve) => {
        const req = http.get(`${t().baseUrl}${path}`, (res) => {
          let body = '';
          res.on('data', (c: Buffer) => (body += c));
          res.on('close', () => resolve({ status: res.statusCode!, body, complete: res.complete }));
        });
        req.on('error', () => resolve('hang-up'));
      });

    it('answers a JSON error when Neo4j fails after the first node but before the first 64 KiB left', async () => {
      for (let i = 0; i < 3; i++) await runJob(t(), `j${i}`, [`d${i}`], [`d${i + 1}`]);
      const restore = failAfter(1);
      try {
        const answer = await getRaw(p(ds('d0'), { direction: 'downstream' }));
        expect(answer).to.not.equal('hang-up');
        if (answer === 'hang-up') return;
        expect(answer.status).to.equal(504);
        expect(JSON.parse(answer.body)).to.include({ code: 504, error: 'timeout' });
      } finally {
        restore();
      }
      expect((await t().get(p(ds('d0'), { direction: 'downstream' }))).body.graph, 'fine afterwards').to.have.length(7);
    });

    it('ends the body early when Neo4j fails after the first 64 KiB: never a smaller well-formed answer', async () => {
      const outputs = Array.from({ length: 400 }, (_, i) => `wide_${String(i).padStart(3, '0')}`);
      await runJob(t(), 'fan_out', ['d0'], outputs);
      const restore = failAfter(300); // 300 dataset nodes: well over 64 KiB of JSON
      try {
        // The connection closes: mid-body, or before the compressor let a byte out (a hang-up).
        const answer = await getRaw(p(ds('d0'), { direction: 'downstream' }));
        if (answer !== 'hang-up') {
          expect(answer.status).to.equal(200);
          expect(answer.complete, 'the response ended early').to.equal(false);
          expect(() => JSON.parse(answer.body)).to.throw();
        }
      } finally {
        restore();
      }
      expect((await t().get(p(ds('d0'), { direction: 'downstream' }))).body.graph, 'fine afterwards').to.have.length(
        402,
      );
    });
  });

  describe('timeouts', () => {
    // Neo4j enforces transaction timeouts from its transaction monitor (every 2 s by default), so a
    // real over-long traversal is cut somewhere between the timeout and 2 s later; this checks what the
    // client sees when that happens, deterministically.
    let slow: TestApp;
    before(async () => {
      slow = await build({ queryTimeoutMs: 1 });
    });
    after(async () => {
      await slow.close();
    });

    it('answer 504 with a clear message when the traversal exceeds the transaction timeout', async () => {
      await runJob(t(), 'j', ['a'], ['b']);
      const seen: (number | undefined)[] = [];
      // Lineage reads are single statements: they go through db.execute (the driver's executeQuery), the graph
      // itself through db.executeMapped (the same, with each record mapped as it arrives).
      const timedOut = () =>
        Object.assign(new Error('The transaction has been terminated. Retry your operation in a new transaction'), {
          code: 'Neo.ClientError.Transaction.TransactionTimedOutClientConfiguration',
        });
      const execute = slow.db.execute.bind(slow.db);
      slow.db.execute = (async (routing, op, text, params, opts) => {
        seen.push(opts?.timeoutMs ?? slow.db.defaultTimeoutMs);
        if (op === 'lineage/graph') throw timedOut();
        return execute(routing, op, text, params, opts);
      }) as typeof slow.db.execute;
      const executeMapped = slow.db.executeMapped.bind(slow.db);
      slow.db.executeMapped = (async (routing, op, text, params, map, opts) => {
        seen.push(opts?.timeoutMs ?? slow.db.defaultTimeoutMs);
        if (op === 'lineage/graph') throw timedOut();
        return executeMapped(routing, op, text, params, map, opts);
      }) as typeof slow.db.executeMapped;
      const res = await slow.get(p(ds('a'), { depth: 100 }));
      expect(res.status, res.text).to.equal(504);
      expect(res.body).to.include({ code: 504, error: 'timeout' });
      expect(res.body.message).to.match(/timeout/i);
      expect(seen).to.deep.equal([1, 1]); // resolve + traversal, both under the configured timeout
    });
  });
});
