import { expect } from 'chai';
import { digest, withoutUnchangedFacets } from '../../src/domain/facet-digests.js';
import type { DatasetUpsertRow } from '../../src/domain/ingest-plan.js';

const schema = JSON.stringify({ fields: [{ name: 'id', type: 'INT' }] });
const owner = JSON.stringify({ owners: [{ name: 'alice' }] });
const row = (facetProps: Record<string, string | null>): DatasetUpsertRow => ({
  namespace: 'ns',
  name: 't',
  facetProps,
  description: null,
  lifecycleState: null,
  datasetType: null,
  source: null,
  fields: facetProps['facet.schema'] ? '[{"name":"id","type":"INT"}]' : null,
  fieldTypes: facetProps['facet.schema'] ? [{ name: 'id', type: 'INT', description: null }] : [],
  symlinks: [],
});

describe('facet digests: unchanged dataset facets are not resent', () => {
  it('sends everything, with the digests to store, for a dataset that has none', () => {
    const out = withoutUnchangedFacets(row({ 'facet.schema': schema, 'facet.ownership': owner }), []);
    expect(out.facetProps).to.deep.equal({ 'facet.schema': schema, 'facet.ownership': owner });
    expect(out.fields).to.be.a('string');
    expect(out.facetDigests).to.deep.equal([`facet.ownership ${digest(owner)}`, `facet.schema ${digest(schema)}`]);
  });

  it('drops facets whose digest is stored, and the fields derived from an unchanged schema', () => {
    const stored = [`facet.ownership ${digest(owner)}`, `facet.schema ${digest(schema)}`];
    const out = withoutUnchangedFacets(row({ 'facet.schema': schema, 'facet.ownership': owner }), stored);
    expect(out.facetProps).to.deep.equal({});
    expect(out.fields).to.equal(null);
    expect(out.fieldTypes).to.deep.equal([]);
    expect(out.facetDigests).to.equal(null);
  });

  it('sends only the changed facet, and the whole new digest list', () => {
    const owner2 = JSON.stringify({ owners: [{ name: 'bob' }] });
    const stored = [`facet.ownership ${digest(owner)}`, `facet.schema ${digest(schema)}`];
    const out = withoutUnchangedFacets(row({ 'facet.schema': schema, 'facet.ownership': owner2 }), stored);
    expect(out.facetProps).to.deep.equal({ 'facet.ownership': owner2 });
    expect(out.fields).to.equal(null);
    expect(out.facetDigests).to.deep.equal([`facet.ownership ${digest(owner2)}`, `facet.schema ${digest(schema)}`]);
  });

  it('keeps the fields when the schema changed', () => {
    const out = withoutUnchangedFacets(row({ 'facet.schema': schema }), [`facet.schema ${digest('{"fields":[]}')}`]);
    expect(out.facetProps).to.have.key('facet.schema');
    expect(out.fields).to.be.a('string');
    expect(out.fieldTypes).to.have.length(1);
  });

  it('always sends a deletion (a missing digest does not prove a missing facet), and forgets its digest', () => {
    const stored = [`facet.ownership ${digest(owner)}`];
    const untracked = withoutUnchangedFacets(row({ 'facet.tags': null }), stored);
    expect(untracked.facetProps).to.deep.equal({ 'facet.tags': null });
    expect(untracked.facetDigests, 'the list is unchanged').to.equal(null);
    const out = withoutUnchangedFacets(row({ 'facet.ownership': null }), stored);
    expect(out.facetProps).to.deep.equal({ 'facet.ownership': null });
    expect(out.facetDigests).to.deep.equal([]);
  });
});
