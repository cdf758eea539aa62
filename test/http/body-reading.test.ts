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
