/**
 * Reading request bodies (src/http/body-reading.ts): a client that goes away in the middle of an
 * encoded body ends its request, with the body budget on or off. Before, the body parser's inflater was
 * never told, and the request (its handler, its log line, its metrics) waited for it forever.
 */
import { expect } from 'chai';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { useTestApp } from '../helper.js';
import { facet, runEvent } from '../support/events.js';
import { rows } from '../support/graph.js';
import { rawRequest } from '../support/raw-http.js';
import { handledPosts, totalOf } from '../support/metrics.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const ENCODINGS: Record<string, (body: Buffer) => Buffer> = {
  gzip: gzipSync,
  deflate: deflateSync,
  br: brotliCompressSync,
};

/** An event of about 20 KB of JSON, so that its encoded body is sent in two parts. */
const EVENT = Buffer.from(
  JSON.stringify(runEvent({ job: 'aborted', runFacets: { padding: facet({ text: 'x'.repeat(20_000) }) } })),
);

for (const [budget, bodyBytesInFlight] of [
  ['on (the default)', undefined],
  ['off (BODY_BYTES_IN_FLIGHT=0)', 0],
] as const) {
  describe(`a client that aborts an encoded body, body budget ${budget}`, () => {
    const app = useTestApp(bodyBytesInFlight === undefined ? {} : { bodyBytesInFlight });

    for (const [encoding, encode] of Object.entries(ENCODINGS)) {
      it(`${encoding}: the request ends (400 request.aborted) and nothing is stored`, async () => {
        const t = app();
        const encoded = encode(EVENT);
        const head = [
          'POST /api/v1/lineage HTTP/1.1',
          'Host: x',
          'Content-Type: application/json',
          `Content-Encoding: ${encoding}`,
          `Content-Length: ${encoded.length}`,
          '',
          '',
        ].join('\r\n');
        const before = await handledPosts(t);
        const client = rawRequest(t.baseUrl, head, encoded.subarray(0, Math.floor(encoded.length / 2)), 30_000);
        await sleep(200);
        client.abort();
        const deadline = Date.now() + 10_000;
        let after = await handledPosts(t);
        while (totalOf(after) !== totalOf(before) + 1) {
          if (Date.now() > deadline) throw new Error(`the aborted ${encoding} request was never handled to its end`);
          await sleep(20);
          after = await handledPosts(t);
        }
        expect((after['400'] ?? 0) - (before['400'] ?? 0), 'answered as an aborted request').to.equal(1);
        expect(await rows(t.db, 'MATCH (n) WHERE n:Job OR n:Run RETURN count(n) AS n')).to.deep.equal([{ n: 0 }]);
      });
    }
  });
}

describe('a body that is not UTF-8', () => {
  const app = useTestApp();
  const jobs = () => rows(app().db, `MATCH (j:Job) RETURN j.name AS name ORDER BY name`);
  // JSON text of an event named `edge_jöb`, and its bytes in Latin-1 (what a misconfigured producer sends).
  const text = JSON.stringify(runEvent({ job: 'edge_jöb', eventType: 'COMPLETE' }));
  const latin1 = Buffer.from(text, 'latin1');

  it('is refused with 400 naming the first bad byte, plain or compressed, and nothing is stored', async () => {
    const at = latin1.indexOf(0xf6);
    for (const [encoding, body] of [
      [null, latin1],
      ['gzip', gzipSync(latin1)],
    ] as const) {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (encoding) headers['content-encoding'] = encoding;
      const res = await app().post('/api/v1/lineage', body, headers);
      expect(res.status, res.text).to.equal(400);
      expect(res.body).to.include({ code: 400, error: 'bad_request' });
      expect(res.body.message).to.contain(`not UTF-8 (byte ${at}${encoding ? ' once decompressed' : ''})`);
    }
    expect(await jobs()).to.deep.equal([]);
  });

  it('is 415 under another declared charset; ASCII under any charset and UTF-8 are stored exactly', async () => {
    const declared = await app().post('/api/v1/lineage', latin1, {
      'content-type': 'application/json; charset=ISO-8859-1',
    });
    expect(declared.status, declared.text).to.equal(415);
    expect(declared.body.message).to.contain('its charset, ISO-8859-1, is not read');
    const ascii = JSON.stringify(runEvent({ job: 'plain', eventType: 'COMPLETE' }));
    const plain = await app().post('/api/v1/lineage', Buffer.from(ascii, 'latin1'), {
      'content-type': 'application/json; charset=ISO-8859-1',
    });
    expect(plain.status, plain.text).to.equal(201);
    const utf8 = JSON.stringify(runEvent({ job: '名前-\uFFFD-😀', eventType: 'COMPLETE' }));
    const sent = await app().post('/api/v1/lineage', Buffer.from(utf8, 'utf8'), {
      'content-type': 'application/json; charset=utf-8',
    });
    expect(sent.status, sent.text).to.equal(201);
    expect((await jobs()).map((r) => r.name)).to.deep.equal(['plain', '名前-\uFFFD-😀']);
  });
});
