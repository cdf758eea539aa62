import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { build, type TestApp } from '../helper.js';

/** A stand-in build: the middleware serves whatever files the folder holds (the real build is tested in test/web/). */
function fakeBuild(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'web-ui-test-'));
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.writeFileSync(
    path.join(dir, 'index.html'),
    '<!doctype html><title>Lineage</title><div id="app"></div><script type="module" ' +
      'src="/assets/index-abc123.js"></script>',
  );
  fs.writeFileSync(path.join(dir, 'assets', 'index-abc123.js'), `console.log(${JSON.stringify('x'.repeat(4000))});`);
  fs.writeFileSync(path.join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  return dir;
}

describe('web UI serving', () => {
  let t: TestApp;
  let root: string;
  before(async () => {
    root = fakeBuild();
    t = await build({ webRoot: root });
    await t.app.services.namespaces.ensureDefault();
  });
  after(async () => {
    await t.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('serves index.html at / with no-cache, an ETag and a same-origin content security policy', async () => {
    const res = await t.get('/');
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^text\/html/);
    expect(res.headers.get('cache-control')).to.equal('no-cache');
    expect(res.headers.get('etag')).to.match(/^"/);
    expect(res.headers.get('content-security-policy')).to.include("default-src 'self'");
    expect(res.text).to.include('<div id="app">');
  });

  it('answers a revalidation of an unchanged page with 304', async () => {
    const first = await t.get('/');
    // node:http, not fetch: fetch adds `Cache-Control: no-cache` to conditional requests, which
    // rightly disables the 304.
    const res = await new Promise<http.IncomingMessage>((resolve, reject) =>
      http
        .get(`${t.baseUrl}/`, { headers: { 'if-none-match': first.headers.get('etag')! } }, resolve)
        .on('error', reject),
    );
    res.resume();
    expect(res.statusCode).to.equal(304);
  });

  it('serves hashed assets as immutable, compressed when asked', async () => {
    const res = await t.request('GET', '/assets/index-abc123.js', { headers: { 'accept-encoding': 'gzip' } });
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^text\/javascript/);
    expect(res.headers.get('cache-control')).to.equal('public, max-age=31536000, immutable');
    expect(res.headers.get('content-encoding')).to.equal('gzip');
    expect(res.text).to.include('console.log');
  });

  it('answers an unknown asset with 404, never with the page', async () => {
    const res = await t.get('/assets/index-old999.js');
    expect(res.status).to.equal(404);
    expect(res.body).to.include({ code: 404, error: 'not_found' });
  });

  it('answers client-side routes (deep links) with index.html', async () => {
    for (const p of [
      '/datasets/postgres%3A%2F%2Fdb%3A5432/public.orders',
      '/jobs/airflow/etl.load?tab=runs',
      '/lineage?node=dataset:a:b&depth=3',
      '/runs/0b6e2c1e-7a53-4f73-9a1d-2f6b1d2c3e4f',
    ]) {
      const res = await t.get(p);
      expect(res.status, p).to.equal(200);
      expect(res.headers.get('content-type'), p).to.match(/^text\/html/);
      expect(res.headers.get('cache-control'), p).to.equal('no-cache');
    }
  });

  it('keeps unknown API paths a JSON 404 and leaves the API and operations endpoints alone', async () => {
    for (const p of ['/api/v1/no-such-thing', '/api/v2/namespaces', '/api', '/api/']) {
      const res = await t.get(p);
      expect(res.status, p).to.equal(404);
      expect(res.headers.get('content-type'), p).to.match(/application\/json/);
      expect(res.body, p).to.include({ code: 404, error: 'not_found' });
    }
    expect((await t.get('/api/v1/namespaces')).body.namespaces).to.be.an('array');
    expect((await t.get('/healthz')).status).to.equal(200);
  });

  it('answers other methods on UI paths as before (no page)', async () => {
    const res = await t.request('POST', '/datasets/a/b', { body: {} });
    expect(res.status).to.equal(404);
    expect(res.body).to.include({ code: 404, error: 'not_found' });
  });

  it('says the UI is not built when the folder has no build', async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'web-ui-empty-'));
    const other = await build({ webRoot: empty });
    await other.app.services.namespaces.ensureDefault();
    try {
      const res = await other.get('/');
      expect(res.status).to.equal(404);
      expect(res.body.message).to.match(/npm run build/);
      expect((await other.get('/api/v1/namespaces')).status).to.equal(200);
    } finally {
      await other.close();
      fs.rmSync(empty, { recursive: true, force: true });
    }
  });
});
