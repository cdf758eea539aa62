import { expect } from 'chai';
import Koa from 'koa';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import pino from 'pino';
import { requestLog } from '../../../src/http/middleware/request-log.js';
import { createMetrics } from '../../../src/metrics.js';

/** Serves one request with `status` through requestLog and returns the log lines it wrote. */
async function logLinesFor(status: number): Promise<{ level: number; status: number }[]> {
  const lines: { level: number; status: number }[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  const app = new Koa();
  app.use(requestLog(pino({ level: 'info' }, sink), createMetrics()));
  app.use((ctx) => {
    ctx.status = status;
    ctx.body = { status };
  });
  const server = app.listen(0);
  try {
    const { port } = server.address() as AddressInfo;
    await new Promise<void>((resolve, reject) =>
      http.get(`http://127.0.0.1:${port}/x`, (res) => res.resume().on('end', resolve)).on('error', reject),
    );
    await new Promise((r) => setImmediate(r));
    return lines;
  } finally {
    server.close();
  }
}

describe('request log', () => {
  it('logs a 2xx or 4xx at info, a 503 (warming up, overloaded) at warn, other 5xx at error', async () => {
    const levels = { info: 30, warn: 40, error: 50 };
    expect((await logLinesFor(201))[0]).to.include({ level: levels.info, status: 201 });
    expect((await logLinesFor(422))[0]).to.include({ level: levels.info, status: 422 });
    expect((await logLinesFor(503))[0]).to.include({ level: levels.warn, status: 503 });
    expect((await logLinesFor(500))[0]).to.include({ level: levels.error, status: 500 });
  });
});
