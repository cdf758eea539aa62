import { expect } from 'chai';
import zlib from 'node:zlib';
import { jsonPieces, STREAM_MIN_ITEMS } from '../../../src/http/middleware/json-stream.js';
import { parseNodeId } from '../../../src/domain/node-id.js';
import { useTestApp } from '../../helper.js';
import { runEvent } from '../../support/events.js';
import { rawGet } from '../../support/raw-http.js';

describe('large JSON answers stream', () => {
  it('the streamed text is exactly JSON.stringify of the body', () => {
    const many = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ i, name: `n${i} ü "q" \u2028`, gone: undefined, at: null, f: 1.5e-7 }));
    const bodies: Record<string, unknown>[] = [
      { items: many(STREAM_MIN_ITEMS), totalCount: 100 },
      { totalCount: 3, skipped: undefined, items: many(STREAM_MIN_ITEMS + 7), nested: { a: [1, undefined] } },
      { before: undefined, graph: [...many(STREAM_MIN_ITEMS), undefined, () => 1], after: 'x' },
      { small: many(3), empty: [], big: many(250), emoji: '😀' },
    ];
    for (const body of bodies) expect([...jsonPieces(body)].join('')).to.equal(JSON.stringify(body));
  });

  describe('through the app', () => {
    const t = useTestApp();
    const namespaces = STREAM_MIN_ITEMS + 20;

    beforeEach(async () => {
      const events = Array.from({ length: namespaces }, (_, i) =>
        runEvent({ jobNamespace: `stream-${String(i).padStart(3, '0')}`, job: `job-${i}` }),
      );
      const res = await t().post('/api/v1/lineage/batch', events);
      expect(res.status).to.equal(200);
    });

    it('a long page is sent chunked, byte for byte the compact JSON, also gzip and br', async () => {
      const page = await t().get<{ namespaces: unknown[]; totalCount: number }>('/api/v1/namespaces?limit=1000');
      expect(page.status).to.equal(200);
      expect(page.body.namespaces.length).to.be.at.least(namespaces);
      const plain = await rawGet(t().baseUrl, '/api/v1/namespaces?limit=1000');
      expect(plain.headers['transfer-encoding']).to.equal('chunked');
      expect(plain.headers['content-length']).to.equal(undefined);
      expect(plain.headers['content-type']).to.equal('application/json; charset=utf-8');
      const text = plain.body.toString();
      expect(text).to.equal(JSON.stringify(JSON.parse(text)));
      const gz = await rawGet(t().baseUrl, '/api/v1/namespaces?limit=1000', { 'accept-encoding': 'gzip' });
      expect(gz.headers['content-encoding']).to.equal('gzip');
      expect(zlib.gunzipSync(gz.body).toString()).to.equal(text);
      const br = await rawGet(t().baseUrl, '/api/v1/namespaces?limit=1000', { 'accept-encoding': 'br' });
      expect(br.headers['content-encoding']).to.equal('br');
      expect(zlib.brotliDecompressSync(br.body).toString()).to.equal(text);
    });

    it('a lineage answer of more than a hundred nodes is streamed byte for byte as the answer object', async () => {
      const chain = Array.from({ length: STREAM_MIN_ITEMS / 2 + 5 }, (_, i) =>
        runEvent({
          eventType: 'COMPLETE',
          job: `chain.step_${i}`,
          inputs: [`chain.t${i}`],
          outputs: [`chain.t${i + 1}`],
        }),
      );
      expect((await t().post('/api/v1/lineage/batch', chain)).status).to.equal(200);
      const start = encodeURIComponent('job:airflow:chain.step_0');
      const path = `/api/v1/lineage?nodeId=${start}&depth=100&direction=downstream`;
      const plain = await rawGet(t().baseUrl, path);
      expect(plain.status).to.equal(200);
      expect(plain.headers['transfer-encoding']).to.equal('chunked');
      const text = plain.body.toString();
      const answer = JSON.parse(text) as { graph: unknown[] };
      expect(answer.graph.length).to.be.greaterThan(STREAM_MIN_ITEMS);
      // Byte for byte JSON.stringify of the answer object as the repository builds it (JSON.stringify does not
      // read the kept texts): the node data written from its kept text is the data itself.
      const object = await t().app.services.lineage.lineage(
        parseNodeId('job:airflow:chain.step_0') as never,
        100,
        'downstream',
      );
      expect(text).to.equal(JSON.stringify(object));
    });

    it('a short page keeps its Content-Length', async () => {
      const plain = await rawGet(t().baseUrl, '/api/v1/namespaces?limit=5');
      expect(plain.status).to.equal(200);
      expect(Number(plain.headers['content-length'])).to.equal(plain.body.length);
    });
  });
});
