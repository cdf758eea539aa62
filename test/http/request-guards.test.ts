import { expect } from 'chai';
import net from 'node:net';
import zlib from 'node:zlib';
import { build, useTestApp } from '../helper.js';
import { rows, value } from '../support/graph.js';
import { runEvent } from '../support/events.js';

/** Writes `head` (and nothing more) on a raw socket; resolves with what the server sent and whether it closed. */
function rawExchange(baseUrl: string, head: string, waitMs: number): Promise<{ answer: string; closed: boolean }> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname);
    let answer = '';
    let closed = false;
    socket.on('data', (d) => (answer += d));
    socket.on('close', () => {
      closed = true;
      resolve({ answer, closed });
    });
    socket.on('error', () => undefined);
    socket.write(head);
    setTimeout(() => {
      socket.destroy();
      resolve({ answer, closed });
    }, waitMs);
  });
}

describe('request guards', () => {
  const t = useTestApp();

  it(
    'a declared Content-Length over the body limit (2^40 with no body) is refused at once with 413, and the ' +
      'connection closed',
    async () => {
      const head =
        `POST /api/v1/lineage HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ` +
        `${2 ** 40}\r\n\r\n`;
      const { answer, closed } = await rawExchange(t().baseUrl, head, 5000);
      expect(answer).to.match(/^HTTP\/1\.1 413/);
      expect(answer).to.include('"error":"payload_too_large"');
      expect(answer).to.include('BODY_LIMIT');
      expect(closed, 'the server closed the connection instead of waiting for the body').to.equal(true);
    },
  );

  it(
    'state-changing routes take JSON or no body: a form or text/plain POST (a cross-site form) cannot tag a ' +
      'dataset',
    async () => {
      expect((await t().post('/api/v1/lineage', runEvent({ outputs: ['orders'] }))).status).to.equal(201);
      const namespace = encodeURIComponent('postgres://db.example.com:5432');
      const path = `/api/v1/namespaces/${namespace}/datasets/orders/tags/PII`;
      for (const type of ['application/x-www-form-urlencoded', 'text/plain', 'multipart/form-data; boundary=x']) {
        const res = await t().request('POST', path, { headers: { 'content-type': type }, body: 'a=b' });
        expect(res.status, type).to.equal(415);
        expect(res.body).to.include({ code: 415, error: 'unsupported_media_type' });
      }
      // Even with an empty body, a form content type is refused.
      expect(
        (
          await t().request('POST', path, {
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            body: '',
          })
        ).status,
      ).to.equal(415);
      // A body without any Content-Type too.
      expect(
        (await t().request('PUT', '/api/v1/tags/PII', { body: Buffer.from('{"description":"x"}') })).status,
      ).to.equal(415);
      expect(await value(t().db, 'MATCH (:Dataset)-[:TAGGED]->(t:Tag) RETURN count(t)')).to.equal(0);
      // A browser says where a request comes from: another site's page is refused whatever it sends.
      const cross = await t().request('POST', path, { headers: { 'sec-fetch-site': 'cross-site' } });
      expect(cross.status).to.equal(403);
      expect(cross.body).to.include({ error: 'forbidden' });
      // No body, or JSON (with any charset), as the clients send it.
      expect((await t().request('POST', path)).status).to.equal(200);
      expect(
        (
          await t().request('PUT', '/api/v1/tags/PII', {
            headers: { 'content-type': 'application/json; charset=utf-8' },
            body: '{"description":"personal data"}',
          })
        ).status,
      ).to.equal(200);
      expect(
        (await t().request('PUT', '/api/v1/tags/EMPTY', { headers: { 'content-type': 'application/json' }, body: '' }))
          .status,
      ).to.equal(200);
      expect((await t().request('POST', path, { headers: { 'sec-fetch-site': 'same-origin' } })).status).to.equal(200);
      expect(
        await rows(t().db, 'MATCH (:Dataset {name: "orders"})-[:TAGGED]->(t:Tag) RETURN t.name AS tag'),
      ).to.deep.equal([{ tag: 'PII' }]);
    },
  );

  it(
    'a page on an origin of CORS_ORIGINS may write after its preflight (Sec-Fetch-Site cross-site or same-site); ' +
      'other pages, and a bodiless keyless POST any page can send, are still refused',
    async () => {
      for (const corsOrigins of [['https://ui.example.com'], ['*']]) {
        const c = await build({ corsOrigins });
        try {
          const json = { 'content-type': 'application/json' };
          const from = (origin: string, site: string) => ({ origin, 'sec-fetch-site': site });
          const ui = 'https://ui.example.com';
          for (const site of ['cross-site', 'same-site']) {
            const put = await c.request('PUT', '/api/v1/tags/PII', {
              headers: { ...from(ui, site), ...json },
              body: '{"description":"personal data"}',
            });
            expect(put.status, `${corsOrigins} ${site}: ${JSON.stringify(put.body)}`).to.equal(200);
            expect(put.headers.get('access-control-allow-origin')).to.be.oneOf([ui, '*']);
          }
          const del = await c.request('DELETE', '/api/v1/namespaces/nowhere', { headers: from(ui, 'cross-site') });
          expect(del.status, String(corsOrigins)).to.equal(404);
          // What a page can send without a preflight is still refused, from any origin.
          const tagPath = '/api/v1/namespaces/wh/datasets/orders/tags/PII';
          const noCors = await c.request('POST', tagPath, { headers: from(ui, 'cross-site') });
          expect(noCors.status, String(corsOrigins)).to.equal(403);
          // A page without an Origin cannot be told apart from any other page.
          const anonymous = await c.request('PUT', '/api/v1/tags/ANON', {
            headers: { 'sec-fetch-site': 'cross-site', ...json },
            body: '{}',
          });
          expect(anonymous.status, String(corsOrigins)).to.equal(403);
          if (!corsOrigins.includes('*')) {
            const evil = await c.request('PUT', '/api/v1/tags/EVIL', {
              headers: { ...from('https://evil.example.com', 'cross-site'), ...json },
              body: '{}',
            });
            expect(evil.status).to.equal(403);
            expect(evil.body).to.include({ error: 'forbidden' });
          }
        } finally {
          await c.close();
        }
      }
      expect(await rows(t().db, 'MATCH (t:Tag) WHERE t.name IN ["ANON", "EVIL"] RETURN t.name')).to.deep.equal([]);
    },
  );

  it('JSON bodies: none is 400 whatever the type, any +json type is parsed, x-gzip is gzip, others 415', async () => {
    for (const method of ['POST', 'PUT'] as const) {
      const path = method === 'POST' ? '/api/v1/lineage' : '/api/v1/namespaces/ns';
      const res = await t().request(method, path, { headers: { 'content-type': 'application/json' } });
      expect(res.status, method).to.equal(400);
      expect(res.body).to.include({ error: 'bad_request' });
      expect(res.body.message).to.match(/body is empty/);
    }
    for (const bare of ['null', '42', '"event"', 'true']) {
      const res = await t().request('POST', '/api/v1/lineage', {
        headers: { 'content-type': 'application/json' },
        body: bare,
      });
      expect(res.status, bare).to.equal(400);
      expect(res.body.message, bare).to.match(/must be a JSON object \(or an array of them for a batch\)/);
    }
    const vendor = await t().request('POST', '/api/v1/lineage', {
      headers: { 'content-type': 'application/vnd.openlineage+json' },
      body: JSON.stringify(runEvent({ job: 'vendor_type', outputs: ['v'] })),
    });
    expect(vendor.status, JSON.stringify(vendor.body)).to.equal(201);
    const patch = await t().request('PUT', '/api/v1/tags/MERGED', {
      headers: { 'content-type': 'application/merge-patch+json' },
      body: '{"description":"hello"}',
    });
    expect(patch.status).to.equal(200);
    expect(patch.body).to.include({ name: 'MERGED', description: 'hello' });
    const zipped = await t().request('POST', '/api/v1/lineage', {
      headers: { 'content-type': 'application/json', 'content-encoding': 'x-gzip' },
      body: zlib.gzipSync(JSON.stringify(runEvent({ job: 'x_gzip', outputs: ['z'] }))),
    });
    expect(zipped.status, JSON.stringify(zipped.body)).to.equal(201);
    for (const coding of ['compress', 'gzip, gzip']) {
      const refused = await t().request('POST', '/api/v1/lineage', {
        headers: { 'content-type': 'application/json', 'content-encoding': coding },
        body: Buffer.from('xxxx'),
      });
      expect(refused.status, coding).to.equal(415);
      expect(refused.body, coding).to.include({ code: 415, error: 'unsupported_media_type' });
    }
    expect(await value(t().db, 'MATCH (j:Job) RETURN count(j)')).to.equal(2);
  });

  it('a name in a write path past the index key limit is a 422, not a 500', async () => {
    const res = await t().request('PUT', `/api/v1/tags/${'t'.repeat(9000)}`);
    expect(res.status).to.equal(422);
    expect(res.body).to.include({ error: 'limit_exceeded' });
  });

  it('TRACE and other unknown methods are 405 with Allow, not 501', async () => {
    for (const method of ['TRACE', 'PROPFIND']) {
      const { answer } = await rawExchange(
        t().baseUrl,
        `${method} /api/v1/namespaces HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
        5000,
      );
      expect(answer, method).to.match(/^HTTP\/1\.1 405/);
      expect(answer).to.match(/allow: .*GET/i);
      expect(answer).to.include('"error":"method_not_allowed"');
    }
  });

  it("what Node's HTTP parser refuses gets a JSON error and request id: a raw URL byte, huge headers", async () => {
    const cases = [
      [`GET /api/v1/search?q=\u00c3\u00bc HTTP/1.1\r\nHost: x\r\n\r\n`, 400, 'percent-encode the URL'],
      [`GET /api/v1/namespaces HTTP/1.1\r\nHost: x\r\nX-Big: ${'x'.repeat(20_000)}\r\n\r\n`, 431, '16 KiB'],
      ['NOT HTTP AT ALL\r\n\r\n', 400, 'not valid HTTP/1.1'],
    ] as const;
    for (const [head, status, message] of cases) {
      // latin1: each char one byte, so the URL carries the raw bytes C3 BC (ü in UTF-8).
      const { hostname, port } = new URL(t().baseUrl);
      const answer = await new Promise<string>((resolve) => {
        const socket = net.connect(Number(port), hostname);
        let got = '';
        socket.on('data', (d) => (got += d));
        socket.on('close', () => resolve(got));
        socket.on('error', () => resolve(got));
        socket.write(Buffer.from(head, 'latin1'));
      });
      const [top, body] = answer.split('\r\n\r\n');
      expect(top, head.slice(0, 40)).to.match(new RegExp(`^HTTP/1\\.1 ${status} `));
      expect(top).to.match(/content-type: application\/json/i);
      expect(top).to.match(/x-request-id: [0-9a-f-]{36}/i);
      const json = JSON.parse(body);
      expect(json).to.include({ code: status });
      expect(json.message).to.contain(message);
    }
  });

  it('a body that does not decode (br, gzip, deflate) is a 400 naming the problem', async () => {
    for (const encoding of ['br', 'gzip', 'deflate']) {
      const res = await t().request('POST', '/api/v1/lineage', {
        headers: { 'content-type': 'application/json', 'content-encoding': encoding },
        body: Buffer.from('certainly not compressed'),
      });
      expect(res.status, encoding).to.equal(400);
      expect(res.body.message).to.match(/decompress|read the request body/i);
    }
    const ok = await t().request('POST', '/api/v1/lineage', {
      headers: { 'content-type': 'application/json', 'content-encoding': 'br' },
      body: zlib.brotliCompressSync(JSON.stringify(runEvent())),
    });
    expect(ok.status).to.equal(201);
  });

  it(
    'offsets are bounded at 100,000 (400 past it); an offset past the end is an empty page with the real ' + 'total',
    async () => {
      const deep = await t().get('/api/v1/namespaces?offset=100001');
      expect(deep.status).to.equal(400);
      expect(deep.body.message).to.match(/offset.*at most 100000/);
      const search = await t().get('/api/v1/search?q=a&offset=1000000000');
      expect(search.status).to.equal(400);
      const past = await t().get('/api/v1/namespaces?offset=100000');
      expect(past.status).to.equal(200);
      expect(past.body).to.deep.equal({ namespaces: [], totalCount: 1 });
      for (const list of [
        '/api/v1/jobs',
        '/api/v1/tags',
        '/api/v1/sources',
        '/api/v1/events/lineage',
        '/api/v1/namespaces/default/datasets',
        '/api/v1/search?q=x',
      ]) {
        const res = await t().get(`${list}${list.includes('?') ? '&' : '?'}offset=99999`);
        expect(res.status, list).to.equal(200);
        expect(res.body.totalCount, list).to.be.a('number');
      }
    },
  );
});
