import { expect } from 'chai';
import zlib from 'node:zlib';
import { useTestApp } from '../helper.js';
import { runEvent } from '../support/events.js';
import { rawGet } from '../support/raw-http.js';

describe('response compression', () => {
  const t = useTestApp();

  it('gzip and br by Accept-Encoding, the same JSON as uncompressed, with Vary', async () => {
    // Enough namespaces for a list well over the 1 KiB threshold (posted at once: the service batches them).
    const posted = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        t().post(
          '/api/v1/lineage',
          runEvent({ jobNamespace: `team-${i}-with-a-longish-namespace-name`, outputs: [`table_${i}`] }),
        ),
      ),
    );
    for (const res of posted) expect(res.status).to.equal(201);
    const plain = await rawGet(t().baseUrl, '/api/v1/namespaces', {});
    expect(plain.headers['content-encoding']).to.equal(undefined);
    expect(plain.body.length).to.be.greaterThan(1024);
    const json = JSON.parse(plain.body.toString());
    const gz = await rawGet(t().baseUrl, '/api/v1/namespaces', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).to.equal('gzip');
    expect(gz.headers.vary).to.match(/accept-encoding/i);
    expect(JSON.parse(zlib.gunzipSync(gz.body).toString())).to.deep.equal(json);
    expect(gz.body.length).to.be.lessThan(plain.body.length / 3);
    const br = await rawGet(t().baseUrl, '/api/v1/namespaces', { 'accept-encoding': 'gzip, br' });
    expect(br.headers['content-encoding']).to.equal('br');
    expect(JSON.parse(zlib.brotliDecompressSync(br.body).toString())).to.deep.equal(json);
    const identity = await rawGet(t().baseUrl, '/api/v1/namespaces', { 'accept-encoding': 'identity' });
    expect(identity.headers['content-encoding']).to.equal(undefined);
  });

  it('small bodies and errors stay uncompressed and intact', async () => {
    const small = await rawGet(t().baseUrl, '/healthz', { 'accept-encoding': 'gzip' });
    expect(small.headers['content-encoding']).to.equal(undefined);
    const missing = await rawGet(t().baseUrl, '/api/v1/namespaces/nope', { 'accept-encoding': 'gzip' });
    expect(missing.status).to.equal(404);
    const body = missing.headers['content-encoding'] === 'gzip' ? zlib.gunzipSync(missing.body) : missing.body;
    expect(JSON.parse(body.toString())).to.include({ code: 404 });
  });
});
