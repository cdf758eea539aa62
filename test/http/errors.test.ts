import { expect } from 'chai';
import { useTestApp } from '../helper.js';

describe('HTTP error handling', () => {
  const t = useTestApp();

  it('answers unknown routes with a JSON 404', async () => {
    const res = await t().get('/api/v1/no-such-thing');
    expect(res.status).to.equal(404);
    expect(res.headers.get('content-type')).to.match(/application\/json/);
    expect(res.body).to.include({ code: 404, error: 'not_found' });
    expect(res.body.message).to.be.a('string');
  });

  it('answers a wrong method with a JSON 405 and an Allow header', async () => {
    const res = await t().request('DELETE', '/api/v1/namespaces');
    expect(res.status).to.equal(405);
    expect(res.headers.get('allow')).to.include('GET');
    expect(res.body).to.include({ code: 405, error: 'method_not_allowed' });
  });

  it('rejects bad pagination values with 400 naming the parameter', async () => {
    for (const q of ['limit=abc', 'limit=-1', 'limit=1001', 'offset=-5', 'limit=0']) {
      const res = await t().get(`/api/v1/namespaces?${q}`);
      expect(res.status, q).to.equal(400);
      expect(res.body.code).to.equal(400);
      expect(res.body.message).to.match(/limit|offset/);
    }
  });

  it('never leaks stack traces', async () => {
    const res = await t().get('/api/v1/namespaces?limit=x');
    expect(res.text).not.to.match(/at .*\.ts:\d+/);
  });
});
