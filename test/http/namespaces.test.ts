import { expect } from 'chai';
import { useTestApp, wipe } from '../helper.js';

const ISO_Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('GET /api/v1/namespaces', () => {
  const t = useTestApp();

  it('lists the default namespace on a fresh instance with every spec field', async () => {
    const res = await t().get('/api/v1/namespaces');
    expect(res.status).to.equal(200);
    expect(res.body.namespaces).to.have.length(1);
    const ns = res.body.namespaces[0];
    expect(ns).to.have.all.keys('name', 'createdAt', 'updatedAt', 'ownerName', 'description', 'isHidden');
    expect(ns.name).to.equal('default');
    expect(ns.createdAt).to.match(ISO_Z);
    expect(ns.updatedAt).to.match(ISO_Z);
    expect(ns.ownerName).to.be.a('string');
    expect(ns.isHidden).to.equal(false);
    expect(res.body.totalCount).to.equal(1);
  });

  it('answers an empty page, not a 500, when no namespace is visible (all soft-deleted, or none yet)', async () => {
    expect((await t().request('DELETE', '/api/v1/namespaces/default')).status).to.equal(200);
    const hidden = await t().get('/api/v1/namespaces');
    expect(hidden.status, JSON.stringify(hidden.body)).to.equal(200);
    expect(hidden.body).to.deep.equal({ namespaces: [], totalCount: 0 });
    await wipe(t().db);
    const none = await t().get('/api/v1/namespaces?offset=5');
    expect(none.status, JSON.stringify(none.body)).to.equal(200);
    expect(none.body).to.deep.equal({ namespaces: [], totalCount: 0 });
  });

  it('gets one namespace by name and 404s an unknown one', async () => {
    const ok = await t().get('/api/v1/namespaces/default');
    expect(ok.status).to.equal(200);
    expect(ok.body.name).to.equal('default');
    const missing = await t().get('/api/v1/namespaces/nope');
    expect(missing.status).to.equal(404);
    expect(missing.body.message).to.include("'nope'");
  });
});
