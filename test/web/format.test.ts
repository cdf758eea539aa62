/** The web UI's display helpers (web/src/format.ts): pure, in Node. */
import { expect } from 'chai';
import {
  ago,
  counted,
  durationScale,
  formatDuration,
  openedViaAlias,
  qualitySummary,
  shortId,
  symlinkAliases,
} from '../../web/src/format.js';

describe('web format helpers', () => {
  it('shortId tells apart UUIDv7 runs started in the same minute (first 8 and last 4 digits)', () => {
    const a = '01a21dc7-7c3d-7e4f-8a5b-6c7d8e9f0a1b';
    const b = '01a21dc7-9d10-7aa0-b1c2-d3e4f5a60c2d';
    expect(shortId(a)).to.equal('01a21dc7…0a1b');
    expect(shortId(a)).not.to.equal(shortId(b));
    expect(shortId('not-a-uuid')).to.equal('not-a-uuid');
    expect(shortId(null)).to.equal('—');
  });

  it('formats durations in the unit that fits', () => {
    expect([500, 5_300, 45_000, 200_000, 7_200_000, 3 * 86_400_000 + 5 * 3_600_000].map(formatDuration)).to.deep.equal([
      '500 ms',
      '5.3 s',
      '45 s',
      '3 min 20 s',
      '2 h 0 min',
      '3 d 5 h',
    ]);
    expect(formatDuration(null)).to.equal('—');
  });

  it('rounds before splitting into units, so no unit reads 60 or 1000', () => {
    expect([999.6, 9_960, 59_600, 119_600, 3_599_700].map(formatDuration)).to.deep.equal([
      '1.0 s',
      '10 s',
      '1 min 0 s',
      '2 min 0 s',
      '1 h 0 min',
    ]);
  });

  it('says how long ago in the largest unit', () => {
    const now = Date.parse('2026-11-27T10:00:00Z');
    expect(ago('2026-11-27T09:58:59.600Z', now)).to.equal('1 min ago');
    expect(ago('2026-11-27T08:00:00Z', now)).to.equal('2 h ago');
    expect(ago(null, now)).to.equal('never');
  });

  it('counts with the noun singular for one', () => {
    expect([0, 1, 2, 1500].map((n) => counted(n, 'column'))).to.deep.equal([
      '0 columns',
      '1 column',
      '2 columns',
      '1,500 columns',
    ]);
  });

  it('sums up the data-quality facets readers reported on a dataset', () => {
    expect(qualitySummary({ schema: { fields: [] } })).to.equal(null);
    expect(qualitySummary(null)).to.equal(null);
    expect(
      qualitySummary({
        dataQualityAssertions: {
          assertions: [
            { assertion: 'not_null', success: true, column: 'id' },
            { assertion: 'unique', success: false, column: 'id' },
            { assertion: 'row_count_between', success: false },
          ],
        },
        dataQualityMetrics: { rowCount: 12345, columnMetrics: {} },
      }),
    ).to.equal('1 of 3 assertions passed; failed: unique (id), row_count_between; 12,345 rows');
    expect(qualitySummary({ dataQualityMetrics: { rowCount: 1 } })).to.equal('1 row');
  });

  it('scales the duration chart to finished runs only; none finished (a streaming job) has no scale', () => {
    // Two RUNNING runs of a streaming job: no duration, so no "longest: 1 ms".
    expect(durationScale([null, undefined])).to.deep.equal({ longest: null, open: 2 });
    expect(durationScale([120_000, null, 60_000])).to.deep.equal({ longest: 120_000, open: 1 });
    expect(durationScale([0])).to.deep.equal({ longest: 0, open: 0 });
    expect(durationScale([])).to.deep.equal({ longest: null, open: 0 });
  });

  it('lists a dataset’s symlink aliases, each once, without its own name', () => {
    const primary = { namespace: 's3://lake', name: 'curated/orders' };
    const facets = {
      symlinks: {
        identifiers: [
          { namespace: 'hive://meta:9083', name: 'curated.orders', type: 'TABLE' },
          { namespace: 'hive://meta:9083', name: 'curated.orders', type: 'TABLE' },
          { namespace: 's3://lake', name: 'curated/orders', type: 'LOCATION' },
          { namespace: 'glue', name: 'orders' },
          { name: 'no namespace' },
        ],
      },
    };
    expect(symlinkAliases(facets, primary)).to.deep.equal([
      { namespace: 'hive://meta:9083', name: 'curated.orders', type: 'TABLE' },
      { namespace: 'glue', name: 'orders', type: null },
    ]);
    expect(symlinkAliases({}, primary)).to.deep.equal([]);
    expect(symlinkAliases({ symlinks: { identifiers: 'x' } }, primary)).to.deep.equal([]);
  });

  it('tells when a dataset page was opened under an alias name', () => {
    const primary = { namespace: 's3://lake', name: 'curated/orders' };
    expect(openedViaAlias({ namespace: 'hive://meta:9083', name: 'curated.orders' }, primary)).to.deep.equal({
      namespace: 'hive://meta:9083',
      name: 'curated.orders',
    });
    expect(openedViaAlias({ ...primary }, primary)).to.equal(null);
    // Same name, another namespace: another name.
    expect(openedViaAlias({ namespace: 'glue', name: 'curated/orders' }, primary)).to.not.equal(null);
  });
});
