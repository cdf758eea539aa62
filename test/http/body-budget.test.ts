/**
 * BODY_BYTES_IN_FLIGHT (src/http/body-budget.ts): request bodies reserve their bytes before they are
 * read, are refused with 503 when the budget is taken, and give their bytes back on every path.
 * Bodies are held in flight by raw sockets that send the headers and part of the body.
 */
import { expect } from 'chai';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { build, type TestApp } from '../helper.js';
import { holdRunLock, rows } from '../support/graph.js';
import { facet, runEvent } from '../support/events.js';
import { rawRequest } from '../support/raw-http.js';
import { handledPosts, totalOf } from '../support/metrics.js';
import { generateKey, keyEntry, parseKeys } from '../../src/auth/keys.js';

const KiB = 1024;
const BODY_LIMIT = 64 * KiB;
const BUDGET = 128 * KiB;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits (up to 10 s) until `cond` holds. */
async function until(cond: () => boolean, what: string, now?: () => number): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}${now ? ` (now ${now()})` : ''}`);
    await sleep(10);
  }
}

/** The head of a POST whose body is `length` bytes (or chunked), with `extra` header lines. */
function head(path: string, length: number | 'chunked', extra: string[] = []): string {
  const framing = length === 'chunked' ? 'Transfer-Encoding: chunked' : `Content-Length: ${length}`;
  return [`POST ${path} HTTP/1.1`, 'Host: x', 'Content-Type: application/json', framing, ...extra, '', ''].join('\r\n');
}

/** A valid event of about `bytes` bytes of JSON (a run facet carries the padding). */
function eventOfSize(bytes: number, job = 'padded'): Record<string, unknown> {
  const event = runEvent({ job, runFacets: { padding: facet({ text: '' }) } });
  const base = JSON.stringify(event).length;
  return runEvent({ job, runFacets: { padding: facet({ text: 'x'.repeat(Math.max(0, bytes - base)) }) } });
}

/** The answer to a request that declares a body and sends none of it; the connection is dropped after. */
async function answerOf(baseUrl: string, requestHead: string) {
  const r = rawRequest(baseUrl, requestHead);
  const answer = await r.answer;
  r.abort();
  return answer;
}

const metric = (text: string, name: string) => Number(new RegExp(`^${name} (\\d+)`, 'm').exec(text)?.[1] ?? NaN);

describe('request-body bytes in flight (BODY_BYTES_IN_FLIGHT)', () => {
  describe(`a budget of ${BUDGET / KiB} KiB with BODY_LIMIT ${BODY_LIMIT / KiB} KiB`, () => {
    let t: TestApp;
    let held: { abort(): void }[] = [];
    const inFlight = () => t.app.services.bodyBudget.inFlight;
    /** Sends the head of a POST and a few bytes of its body; resolves once its bytes are reserved. */
    async function holdBody(length: number | 'chunked', partial: string | Buffer, reserved: number, extra?: string[]) {
      const before = inFlight();
      const r = rawRequest(t.baseUrl, head('/api/v1/lineage', length, extra), partial, 60_000);
      held.push(r);
      await until(() => inFlight() === before + reserved, `${reserved} more bytes are reserved`, inFlight);
      return r;
    }

    before(async () => {
      t = await build({ bodyLimitBytes: BODY_LIMIT, bodyBytesInFlight: BUDGET });
    });
    afterEach(async () => {
      for (const r of held) r.abort();
      held = [];
      await until(() => inFlight() === 0, 'every reservation is released');
    });
    after(() => t.close());
    /** A POST of the gzip body `gzipped` of which only `sent` is sent: held open until the test aborts it. */
    function holdGzip(gzipped: Buffer, sent: Buffer) {
      const r = rawRequest(
        t.baseUrl,
        head('/api/v1/lineage', gzipped.length, ['Content-Encoding: gzip']),
        sent,
        60_000,
      );
      held.push(r);
      return r;
    }

    it(
      'a body that would take the total past the budget is refused at once with 503 overloaded, Retry-After and ' +
        'Connection: close, before it is read; smaller ones still fit; freed bytes admit it again',
      async () => {
        const a = await holdBody(60_000, '{"eventType":', 60_000);
        const b = await holdBody(60_000, '{"eventType":', 60_000);
        // 120,000 of 131,072 bytes taken: an ordinary event still fits.
        expect((await t.post('/api/v1/lineage', runEvent({ job: 'small' }))).status).to.equal(201);

        // 20,000 more would not: answered without a byte of the body sent, and the connection closed.
        const refusal = rawRequest(t.baseUrl, head('/api/v1/lineage', 20_000));
        const refused = await refusal.answer;
        expect(refused.status).to.equal(503);
        expect(refused.headers['retry-after']).to.equal('1');
        expect(refused.headers.connection).to.equal('close');
        expect(await refusal.closed, 'the server closed the connection').to.equal(true);
        const body = JSON.parse(refused.body);
        expect(body).to.include({ code: 503, error: 'overloaded', bodyBytesInFlight: BUDGET });
        expect(body.message).to.include('BODY_BYTES_IN_FLIGHT');
        expect(body.message).to.include('120000 of the 131072 bytes');

        // A batch is refused the same way, with an error body (its events were never read).
        const batch = [eventOfSize(8 * KiB, 'batch_1'), eventOfSize(8 * KiB, 'batch_2')];
        const refusedBatch = await t.post('/api/v1/lineage/batch', batch);
        expect(refusedBatch.status).to.equal(503);
        expect(refusedBatch.headers.get('retry-after')).to.equal('1');
        expect(refusedBatch.body).to.include({ code: 503, error: 'overloaded' });

        const metrics = (await t.get('/metrics')).text;
        expect(metric(metrics, 'lineage_request_body_bytes_in_flight')).to.equal(120_000);
        expect(metric(metrics, 'lineage_request_body_bytes_in_flight_limit')).to.equal(BUDGET);
        expect(metric(metrics, 'lineage_request_body_refused_requests_total')).to.be.at.least(2);
        expect(
          await rows(t.db, 'MATCH (j:Job) WHERE j.name STARTS WITH "batch_" RETURN j.name AS name'),
          'nothing of a refused batch is written',
        ).to.deep.equal([]);

        a.abort();
        b.abort();
        await until(() => inFlight() === 0, 'the held bodies are released');
        const accepted = await t.post('/api/v1/lineage/batch', batch);
        expect(accepted.status).to.equal(200);
        expect(accepted.body.summary).to.deep.equal({ received: 2, successful: 2, failed: 0 });
      },
    );

    it('bytes are given back after a 201, a 400, a 422, a 413 while reading, and a client that goes away', async () => {
      expect((await t.post('/api/v1/lineage', eventOfSize(30 * KiB))).status).to.equal(201);
      await until(() => inFlight() === 0, 'released after a 201');

      const malformed = await t.request('POST', '/api/v1/lineage', {
        headers: { 'content-type': 'application/json' },
        body: '{"eventType": ',
      });
      expect(malformed.status).to.equal(400);
      await until(() => inFlight() === 0, 'released after a 400');

      const invalid = await t.post('/api/v1/lineage', { eventType: 'START' });
      expect(invalid.status).to.equal(422);
      await until(() => inFlight() === 0, 'released after a 422');

      // A chunked body that turns out larger than BODY_LIMIT: 413 once the parser has read past it.
      const chunk = `{"x":"${'y'.repeat(BODY_LIMIT)}"}`;
      const tooLarge = rawRequest(t.baseUrl, head('/api/v1/lineage', 'chunked'), `${chunk.length.toString(16)}\r\n`);
      tooLarge.write(`${chunk}\r\n`);
      expect((await tooLarge.answer).status).to.equal(413);
      await until(() => inFlight() === 0, 'released after a 413');

      // The client goes away in the middle of its body.
      const gone = await holdBody(50_000, '{"eventType":"START",', 50_000);
      gone.abort();
      await until(() => inFlight() === 0, 'released after the client went away');
      // Also from a gzip body (the request does not tell the body parser's inflater that it was aborted).
      const gzipped = gzipSync(JSON.stringify(eventOfSize(20 * KiB)));
      const goneGzip = holdGzip(gzipped, gzipped.subarray(0, 100));
      await until(() => inFlight() >= gzipped.length, 'the gzip body is reserved');
      const handledBefore = totalOf(await handledPosts(t));
      goneGzip.abort();
      await until(() => inFlight() === 0, 'released after the gzip client went away');
      // And its handling ends (the request is logged and counted), instead of waiting for the inflater forever.
      const deadline = Date.now() + 10_000;
      while (totalOf(await handledPosts(t)) !== handledBefore + 1) {
        if (Date.now() > deadline) throw new Error(`the aborted gzip request was never handled to its end`);
        await sleep(20);
      }
    });

    it('bytes are given back when a body does not arrive within the request timeout (408)', async () => {
      // The server's own timeouts, as server.ts sets them (REQUEST_TIMEOUT_MS), on a listener of the same app.
      const server = http.createServer(
        { requestTimeout: 1000, connectionsCheckingInterval: 100 },
        t.app.koa.callback(),
      );
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
      try {
        const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
        const slow = rawRequest(url, head('/api/v1/lineage', 50_000), '{"eventType":', 30_000);
        await until(() => inFlight() === 50_000, 'the slow body is reserved');
        expect((await slow.answer).status).to.equal(408);
        await until(() => inFlight() === 0, 'released after the request timed out');
      } finally {
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
    });

    it('a client that leaves while its event waits for its transaction: held until the transaction ends', async () => {
      const runId = '01909a1c-7777-7000-8000-000000000001';
      const release = await holdRunLock(runId);
      try {
        const event = eventOfSize(20 * KiB, 'waits_for_lock');
        (event.run as { runId: string }).runId = runId;
        const json = JSON.stringify(event);
        const size = Buffer.byteLength(json);
        const client = rawRequest(t.baseUrl, head('/api/v1/lineage', size), json, 60_000);
        await until(() => inFlight() === size, 'the body is reserved');
        await until(() => t.app.services.committer.inFlight > 0, 'the event is in a transaction');
        client.abort();
        await sleep(200);
        expect(inFlight(), 'the parsed event is still held by its transaction').to.equal(size);
      } finally {
        await release();
      }
      await until(() => inFlight() === 0, 'released once the transaction has ended');
      expect(
        await rows(t.db, 'MATCH (r:Run {id: $runId})-[:RUN_OF]->(j:Job) RETURN j.name AS job', { runId }),
      ).to.deep.equal([{ job: 'waits_for_lock' }]);
    });

    it('a chunked body without a length reserves BODY_LIMIT, the most the parser reads', async () => {
      await holdBody('chunked', '5\r\n{"eve\r\n', BODY_LIMIT);
      await holdBody('chunked', '5\r\n{"eve\r\n', BODY_LIMIT);
      expect(inFlight()).to.equal(BUDGET);
      const refused = await t.post('/api/v1/lineage', runEvent({ job: 'refused' }));
      expect(refused.status).to.equal(503);
      expect(refused.body.message).to.include('BODY_BYTES_IN_FLIGHT');
    });

    it(
      'a gzip body reserves its compressed length, then its inflated bytes as they are read: small compressed ' +
        'bodies stay cheap, and one that inflates past the budget is refused while it is read',
      async () => {
        // Many small gzip bodies at once take only what they inflate to.
        const small = gzipSync(JSON.stringify(runEvent({ job: 'gzipped' })));
        for (let i = 0; i < 4; i++) holdGzip(small, small.subarray(0, small.length - 8));
        await until(() => inFlight() > 4 * small.length, 'the small gzip bodies have inflated');
        expect(inFlight(), 'each takes its inflated size, not BODY_LIMIT').to.be.below(16 * KiB);
        expect((await t.post('/api/v1/lineage', runEvent({ job: 'beside_gzip' }))).status).to.equal(201);
        for (const r of held) r.abort();
        held = [];
        await until(() => inFlight() === 0, 'released');

        // 60 KB of JSON in about 1 KB of gzip: the reservation grows as it inflates.
        const json = JSON.stringify(eventOfSize(60_000, 'inflates'));
        const big = gzipSync(json);
        expect(big.length).to.be.below(4 * KiB);
        const growing = holdGzip(big, big.subarray(0, big.length - 8));
        await until(() => inFlight() > 10 * big.length, 'the reservation has grown past the compressed length');
        expect(inFlight()).to.be.at.most(json.length);
        growing.abort();
        await until(() => inFlight() === 0, 'released');

        // With 100,000 bytes held, it cannot inflate to 60 KB: 503 once it is past what is left.
        await holdBody(60_000, '{', 60_000);
        await holdBody(40_000, '{', 40_000);
        const refusal = rawRequest(t.baseUrl, head('/api/v1/lineage', big.length, ['Content-Encoding: gzip']), big);
        const refused = await refusal.answer;
        expect(refused.status).to.equal(503);
        expect(refused.headers['retry-after']).to.equal('1');
        expect(refused.headers.connection).to.equal('close');
        expect(JSON.parse(refused.body)).to.include({ error: 'overloaded' });
        expect(JSON.parse(refused.body).message).to.match(/has inflated to \d+ bytes so far/);
        expect(await refusal.closed).to.equal(true);
        await until(() => inFlight() === 100_000, 'the refused body gave its bytes back');
        for (const r of held) r.abort();
        held = [];
        await until(() => inFlight() === 0, 'released');

        const accepted = await t.request('POST', '/api/v1/lineage', {
          headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
          body: big,
        });
        expect(accepted.status).to.equal(201);
        expect(inFlight()).to.equal(0);
      },
    );

    it('checks that need no body come first: 413 for a declared length past BODY_LIMIT, 415', async () => {
      await holdBody(60_000, '{', 60_000);
      await holdBody(60_000, '{', 60_000);
      const tooLarge = await answerOf(t.baseUrl, head('/api/v1/lineage', BODY_LIMIT + 1));
      expect(tooLarge.status).to.equal(413);
      const form = await t.request('POST', '/api/v1/lineage', {
        headers: { 'content-type': 'text/plain' },
        body: 'x'.repeat(20_000),
      });
      expect(form.status).to.equal(415);
      // A request without a body reserves nothing.
      const tag = await t.request('PUT', '/api/v1/tags/PII');
      expect(tag.status).to.equal(200);
      expect(inFlight()).to.equal(120_000);
    });
  });

  it('with API keys, 401 and 403 come before the budget, and refused callers reserve nothing', async () => {
    const write = generateKey();
    const read = generateKey();
    const keys = parseKeys(
      [keyEntry('w', write, ['write'], null), keyEntry('r', read, ['read'], null)].join('\n'),
      'test',
    );
    const t = await build({
      bodyLimitBytes: BODY_LIMIT,
      bodyBytesInFlight: BODY_LIMIT,
      auth: { mode: 'apikey', keys, metricsPublic: false },
    });
    const budget = t.app.services.bodyBudget;
    const holder = rawRequest(
      t.baseUrl,
      head('/api/v1/lineage', 60_000, [`Authorization: Bearer ${write}`]),
      '{',
      60_000,
    );
    try {
      await until(() => budget.inFlight === 60_000, 'the writer holds 60,000 bytes');
      const anonymous = await answerOf(t.baseUrl, head('/api/v1/lineage', 10_000));
      expect(anonymous.status).to.equal(401);
      const reader = await answerOf(t.baseUrl, head('/api/v1/lineage', 10_000, [`Authorization: Bearer ${read}`]));
      expect(reader.status).to.equal(403);
      const writer = await answerOf(t.baseUrl, head('/api/v1/lineage', 10_000, [`Authorization: Bearer ${write}`]));
      expect(writer.status).to.equal(503);
      expect(budget.inFlight).to.equal(60_000);
    } finally {
      holder.abort();
      await until(() => budget.inFlight === 0, 'released');
      await t.close();
    }
  });

  it('one body is always admitted while nothing else is in flight, even past a budget below BODY_LIMIT', async () => {
    const t = await build({ bodyLimitBytes: BODY_LIMIT, bodyBytesInFlight: 16 * KiB });
    try {
      expect((await t.post('/api/v1/lineage', eventOfSize(40 * KiB))).status).to.equal(201);
      const holder = rawRequest(t.baseUrl, head('/api/v1/lineage', 40_000), '{', 60_000);
      try {
        await until(() => t.app.services.bodyBudget.inFlight === 40_000, 'held');
        expect((await t.post('/api/v1/lineage', runEvent({ job: 'second' }))).status).to.equal(503);
      } finally {
        holder.abort();
      }
      await until(() => t.app.services.bodyBudget.inFlight === 0, 'released');
    } finally {
      await t.close();
    }
  });

  it('BODY_BYTES_IN_FLIGHT=0 turns the cap off: nothing is reserved or refused', async () => {
    const t = await build({ bodyLimitBytes: BODY_LIMIT, bodyBytesInFlight: 0 });
    const holders = Array.from({ length: 4 }, () =>
      rawRequest(t.baseUrl, head('/api/v1/lineage', 60_000), '{', 60_000),
    );
    try {
      await sleep(200);
      expect((await t.post('/api/v1/lineage', eventOfSize(60_000, 'uncapped'))).status).to.equal(201);
      const metrics = (await t.get('/metrics')).text;
      expect(metric(metrics, 'lineage_request_body_bytes_in_flight')).to.equal(0);
      expect(metric(metrics, 'lineage_request_body_bytes_in_flight_limit')).to.equal(0);
      expect(metric(metrics, 'lineage_request_body_refused_requests_total')).to.equal(0);
    } finally {
      for (const h of holders) h.abort();
      await t.close();
    }
  });
});
