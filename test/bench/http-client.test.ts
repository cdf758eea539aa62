/**
 * The load generator's keep-alive client (bench/http-client.ts): bench:ingest's throughput numbers rest
 * on it posting every event once and reading every answer whole, so it is checked against Node's own
 * HTTP server, including answers that arrive in pieces.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { KeepAliveConnection } from '../../bench/http-client.js';

interface Received {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  socket: unknown;
}

async function withServer(
  handler: (req: Received, res: http.ServerResponse) => void,
  fn: (url: string, received: Received[]) => Promise<void>,
) {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r = {
        method: req.method!,
        url: req.url!,
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        socket: req.socket,
      };
      received.push(r);
      handler(r, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    await fn(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, received);
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

describe('bench HTTP client (keep-alive, one request at a time)', () => {
  it('posts each body once as JSON on one connection and returns status and body', async () => {
    await withServer(
      (req, res) => {
        // With a Content-Length, as Koa answers (the client refuses chunked answers: third test).
        const body = JSON.stringify({ echoed: JSON.parse(req.body) });
        res.writeHead(req.body.includes('"bad"') ? 422 : 201, {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        });
        res.end(body);
      },
      async (url, received) => {
        const client = new KeepAliveConnection(url, '/api/v1/lineage');
        const events = [{ n: 1, text: 'ünïcødé' }, { n: 2, kind: 'bad' }, { n: 3 }];
        const answers = [];
        for (const e of events) answers.push(await client.post(Buffer.from(JSON.stringify(e))));
        client.close();

        expect(answers.map((a) => a.status)).to.deep.equal([201, 422, 201]);
        expect(answers.map((a) => JSON.parse(a.body).echoed)).to.deep.equal(events);
        expect(received.map((r) => [r.method, r.url, r.headers['content-type']])).to.deep.equal(
          Array(3).fill(['POST', '/api/v1/lineage', 'application/json']),
        );
        expect(new Set(received.map((r) => r.socket)).size, 'one keep-alive connection').to.equal(1);
      },
    );
  });

  it('reads an answer that arrives in several pieces, and an empty one', async () => {
    await withServer(
      (req, res) => {
        if (req.body === '{}') {
          res.writeHead(201, { 'content-length': '0' });
          res.end();
          return;
        }
        const body = 'x'.repeat(70_000);
        res.writeHead(200, { 'content-length': String(body.length) });
        res.write(body.slice(0, 10));
        setTimeout(() => res.end(body.slice(10)), 20);
      },
      async (url) => {
        const client = new KeepAliveConnection(url, '/p');
        expect((await client.post(Buffer.from('[]'))).body).to.have.length(70_000);
        expect(await client.post(Buffer.from('{}'))).to.deep.equal({ status: 201, body: '' });
        client.close();
      },
    );
  });

  it('fails a request, rather than hang, when the answer is chunked or the connection closes', async () => {
    await withServer(
      (req, res) => {
        if (req.body === 'close') {
          res.socket?.destroy();
          return;
        }
        res.writeHead(200);
        res.write('no length');
        res.end();
      },
      async (url) => {
        const chunked = new KeepAliveConnection(url, '/p');
        const err = await chunked.post(Buffer.from('x')).then(
          () => null,
          (e: Error) => e,
        );
        expect(err?.message).to.match(/without Content-Length/);
        chunked.close();

        const closing = new KeepAliveConnection(url, '/p');
        const closed = await closing.post(Buffer.from('close')).then(
          () => null,
          (e: Error) => e,
        );
        expect(closed?.message).to.match(/closed the connection/);
      },
    );
  });
});
