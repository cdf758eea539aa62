/** Request ids in answers and logs, security headers, CORS and TRUST_PROXY. */
import { expect } from 'chai';
import { Writable } from 'node:stream';
import { build, type TestApp } from '../helper.js';
import { createLogger } from '../../src/logger.js';
import { runEvent } from '../support/events.js';

function logSink(): { lines: Record<string, unknown>[]; stream: Writable } {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { lines, stream };
}

describe('operator conveniences', () => {
  let t: TestApp;
  const sink = logSink();
  before(async () => {
    t = await build({ logger: createLogger('debug', 'json', sink.stream) });
  });
  after(async () => {
    await t?.close();
  });

  it(
    'echoes a sent X-Request-Id, makes one up otherwise (or for a bad one), and every log line of the request ' +
      'carries it',
    async () => {
      const sent = await t.request('GET', '/api/v1/namespaces', { headers: { 'x-request-id': 'trace-42.abc' } });
      expect(sent.headers.get('x-request-id')).to.equal('trace-42.abc');
      const made = await t.request('GET', '/api/v1/namespaces');
      expect(made.headers.get('x-request-id')).to.match(/^[0-9a-f-]{36}$/);
      const bad = await t.request('GET', '/api/v1/namespaces', {
        headers: { 'x-request-id': 'has spaces and \u00e9' },
      });
      expect(bad.headers.get('x-request-id')).to.match(/^[0-9a-f-]{36}$/);
      const error = await t.request('GET', '/api/v1/lineage?nodeId=nope', {
        headers: { 'x-request-id': 'bad-request-1' },
      });
      expect(error.status).to.equal(400);
      expect(error.headers.get('x-request-id')).to.equal('bad-request-1');

      // A request whose handling logs more than the request line: an event the database refuses to store.
      sink.lines.length = 0;
      const db = t.app.services.db;
      const write = db.write.bind(db);
      db.write = (async () => {
        throw Object.assign(new Error('simulated'), { code: 'Neo.ClientError.General.ForbiddenOnReadOnlyDatabase' });
      }) as typeof db.write;
      try {
        const res = await t.request('POST', '/api/v1/lineage', {
          body: runEvent(),
          headers: { 'x-request-id': 'ingest-7' },
        });
        expect(res.status).to.equal(503);
      } finally {
        db.write = write;
      }
      await new Promise((r) => setImmediate(r));
      const mine = sink.lines.filter((l) => l.reqId === 'ingest-7');
      expect(mine.length, JSON.stringify(sink.lines)).to.be.greaterThan(1);
      expect(mine.map((l) => l.msg)).to.include.members(['event not stored', 'request']);
      // Every line written while serving it names it (the committer's lines are about batches, not requests).
      expect(sink.lines.filter((l) => l.msg === 'request').every((l) => typeof l.reqId === 'string')).to.equal(true);
    },
  );

  it("a refused request's log line says why: the error and its message, and a batch's refused events", async () => {
    const lineOf = async (reqId: string) => {
      await new Promise((r) => setImmediate(r));
      return sink.lines.find((l) => l.msg === 'request' && l.reqId === reqId)!;
    };
    const invalid = { ...runEvent({ job: 'why' }), run: {} };
    const res = await t.request('POST', '/api/v1/lineage', { body: invalid, headers: { 'x-request-id': 'why-1' } });
    expect(res.status).to.equal(422);
    expect(await lineOf('why-1')).to.include({ status: 422, error: 'validation_failed', reason: res.body.message });
    const batch = await t.request('POST', '/api/v1/lineage/batch', {
      body: [runEvent({ job: 'fine' }), invalid],
      headers: { 'x-request-id': 'why-2' },
    });
    expect(batch.status).to.equal(200);
    const line = await lineOf('why-2');
    expect(line).to.include({ error: 'partial_success' });
    expect(line.reason).to.match(/^1 of 2 events refused; first, #1: .*runId/);
    await t.request('GET', '/api/v1/namespaces', { headers: { 'x-request-id': 'why-3' } });
    expect(await lineOf('why-3')).not.to.have.any.keys('error', 'reason');
  });

  it('standard security headers on every answer; pages bring their own CSP', async () => {
    for (const path of ['/api/v1/namespaces', '/api/v1/nope', '/healthz']) {
      const res = await t.request('GET', path);
      expect(res.headers.get('x-content-type-options'), path).to.equal('nosniff');
      expect(res.headers.get('x-frame-options'), path).to.equal('DENY');
      expect(res.headers.get('referrer-policy'), path).to.equal('no-referrer');
      expect(res.headers.get('content-security-policy'), path).to.equal("default-src 'none'; frame-ancestors 'none'");
      expect(res.headers.get('strict-transport-security'), 'not over plain HTTP').to.equal(null);
    }
    expect((await t.request('GET', '/api/docs')).headers.get('content-security-policy')).to.match(
      /^default-src 'self'/,
    );
  });

  it('CORS is off by default', async () => {
    const res = await t.request('GET', '/api/v1/namespaces', { headers: { origin: 'https://ui.example.com' } });
    expect(res.headers.get('access-control-allow-origin')).to.equal(null);
  });

  it('CORS_ORIGINS allows the listed origins only, preflight included', async () => {
    const c = await build({ corsOrigins: ['https://ui.example.com'] });
    try {
      const ok = await c.request('GET', '/api/v1/namespaces', { headers: { origin: 'https://ui.example.com' } });
      expect(ok.headers.get('access-control-allow-origin')).to.equal('https://ui.example.com');
      expect(ok.headers.get('access-control-expose-headers')).to.include('X-Request-Id');
      const other = await c.request('GET', '/api/v1/namespaces', { headers: { origin: 'https://evil.example.com' } });
      expect(other.headers.get('access-control-allow-origin')).to.equal(null);
      const preflight = await fetch(`${c.baseUrl}/api/v1/lineage`, {
        method: 'OPTIONS',
        headers: {
          origin: 'https://ui.example.com',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization,content-type',
        },
      });
      expect(preflight.status).to.equal(204);
      expect(preflight.headers.get('access-control-allow-headers')).to.match(/Authorization/);
      expect(preflight.headers.get('access-control-allow-methods')).to.match(/POST/);
    } finally {
      await c.close();
    }
  });

  it('TRUST_PROXY: the client address and scheme come from X-Forwarded-* only when trusted', async () => {
    const forwarded = { 'x-forwarded-for': '203.0.113.7', 'x-forwarded-proto': 'https' };
    sink.lines.length = 0;
    await t.request('GET', '/healthz', { headers: forwarded });
    const untrusted = await new Promise<Record<string, unknown>>((r) =>
      setImmediate(() => r(sink.lines.find((l) => l.msg === 'request')!)),
    );
    expect(untrusted.ip).to.match(/127\.0\.0\.1/);

    const behind = logSink();
    const p = await build({ trustProxy: true, logger: createLogger('info', 'json', behind.stream) });
    try {
      const res = await p.request('GET', '/healthz', { headers: forwarded });
      expect(res.headers.get('strict-transport-security'), 'HTTPS at the proxy').to.match(/max-age=/);
      await new Promise((r) => setImmediate(r));
      expect(behind.lines.find((l) => l.msg === 'request')!.ip).to.equal('203.0.113.7');
    } finally {
      await p.close();
    }
  });

  it('LOG_FORMAT=pretty writes lines for people', () => {
    const out: string[] = [];
    const stream = new Writable({
      write(chunk, _enc, done) {
        out.push(String(chunk));
        done();
      },
    });
    createLogger('info', 'pretty', stream).info({ reqId: 'r1' }, 'hello');
    expect(out.join('')).to.match(/INFO.*hello/);
    expect(() => JSON.parse(out.join(''))).to.throw();
  });
});
