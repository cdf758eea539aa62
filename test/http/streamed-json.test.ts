import { expect } from 'chai';
import Koa from 'koa';
import type { AddressInfo } from 'node:net';
import http from 'node:http';
import { respondStreamedJson, type StreamedJsonWriter } from '../../src/http/streamed-json.js';

type Produce = (out: StreamedJsonWriter<unknown>) => Promise<Record<string, unknown>>;

/** A Koa app answering every request with `produce`, and 418 with the message when it rejects first. */
async function serve(produce: Produce) {
  const app = new Koa();
  app.silent = true; // a body cut short by the client is logged by Koa otherwise
  app.use(async (ctx) => {
    try {
      await respondStreamedJson(ctx, 'nodes', produce);
    } catch (err) {
      ctx.status = 418;
      ctx.body = { message: (err as Error).message };
    }
  });
  const server = http.createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  return { url, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const items = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ i, name: `n${i} ü "q" \u2028 😀`, gone: undefined, at: null, f: 1.5e-7 }));

describe('streamed JSON answers', () => {
  it('write exactly JSON.stringify of { ...head, nodes, ...tail }, chunked, however many elements', async () => {
    for (const [head, list, tail] of [
      [{ start: { id: 'a' }, skipped: undefined, depth: 20 }, items(3), { total: 3, truncated: false }],
      [{}, items(5000), { total: 5000 }], // several 64 KB chunks
      [{ first: undefined }, [], { after: undefined, n: null }],
    ] as const) {
      const app = await serve(async (out) => {
        out.begin(head);
        for (const item of list) await out.item(item);
        return tail;
      });
      try {
        const res = await fetch(app.url);
        expect(res.status).to.equal(200);
        expect(res.headers.get('content-type')).to.equal('application/json; charset=utf-8');
        expect(res.headers.get('content-length')).to.equal(null);
        expect(await res.text()).to.equal(JSON.stringify({ ...head, nodes: list, ...tail }));
      } finally {
        await app.close();
      }
    }
  });

  it('waits for a full socket: a slow reader gets every element, in order', async () => {
    const list = items(20_000); // about 1.6 MB: past the socket's buffers
    let waited = 0;
    const app = await serve(async (out) => {
      out.begin({ head: true });
      for (const item of list) {
        const full = out.item(item);
        if (full) {
          waited++;
          await full;
        }
      }
      return { total: list.length };
    });
    try {
      const text = await new Promise<string>((resolve, reject) => {
        http.get(app.url, (res) => {
          res.pause();
          const parts: Buffer[] = [];
          res.on('data', (b: Buffer) => parts.push(b));
          res.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
          res.on('error', reject);
          setTimeout(() => res.resume(), 300);
        });
      });
      expect(text).to.equal(JSON.stringify({ head: true, nodes: list, total: list.length }));
      expect(waited).to.be.greaterThan(0);
    } finally {
      await app.close();
    }
  });

  it('a failure before the head is an ordinary error answer, with nothing streamed', async () => {
    const app = await serve(async () => {
      throw new Error('no such node');
    });
    try {
      const res = await fetch(app.url);
      expect(res.status).to.equal(418);
      expect(await res.json()).to.deep.equal({ message: 'no such node' });
    } finally {
      await app.close();
    }
  });

  it('a failure after the head cuts the body short (never a complete, wrong answer)', async () => {
    const app = await serve(async (out) => {
      out.begin({ head: 1 });
      for (const item of items(2000)) await out.item(item);
      throw new Error('stream interrupted');
    });
    try {
      const res = await fetch(app.url);
      expect(res.status).to.equal(200);
      let text: string | null = null;
      try {
        text = await res.text();
      } catch {
        // The connection was closed mid-body.
      }
      if (text !== null) expect(() => JSON.parse(text!)).to.throw();
    } finally {
      await app.close();
    }
  });

  // Never waiting for a drain that cannot come: that held the Neo4j transaction and its connection forever.
  it('stops its producer when the client goes away mid-answer', async function () {
    this.timeout(20_000);
    let settled: ((outcome: string) => void) | null = null;
    const outcome = new Promise<string>((resolve) => (settled = resolve));
    let written = 0;
    const app = await serve(async (out) => {
      out.begin({ head: 1 });
      try {
        for (const item of items(200_000)) {
          await out.item(item);
          written++;
        }
        settled!('finished');
      } catch (err) {
        settled!(`stopped: ${(err as Error).message}`);
        throw err;
      }
      return {};
    });
    try {
      await new Promise<void>((resolve, reject) => {
        const req = http.get(app.url, (res) => {
          // Read the first bytes, then stop reading and go away.
          res.once('data', () => {
            res.pause();
            setTimeout(() => {
              req.destroy();
              resolve();
            }, 200);
          });
        });
        req.on('error', (err) => (err.message.includes('socket hang up') ? resolve() : reject(err)));
      });
      const waited = new Promise<string>((resolve) =>
        setTimeout(() => resolve('still waiting after 10 s'), 10_000).unref(),
      );
      expect(await Promise.race([outcome, waited])).to.equal('stopped: the client closed the request');
      expect(written).to.be.lessThan(200_000);
    } finally {
      await app.close();
    }
  });
});
