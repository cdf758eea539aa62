/** The run page's readings (web/src/run.ts): a failed run's error, upstream runs' distances. Pure, in Node. */
import { expect } from 'chai';
import type { RunLineage } from '../../src/api/types.js';
import { runError, upstreamRuns } from '../../web/src/run.js';

type Read = [dataset: string, producedBy: string | null];

function entry(id: string, job: string, reads: Read[]): RunLineage['runs'][number] {
  return {
    job: { namespace: 'etl', name: job, version: null },
    run: { id, start: null, end: null, status: 'COMPLETED' },
    inputs: reads.map(([name, producedByRunId]) => ({ namespace: 'w', name, version: `${name}-v`, producedByRunId })),
  };
}

describe('web run readings', () => {
  it('reads the errorMessage facet of a failed run', () => {
    expect(
      runError({
        errorMessage: {
          _producer: 'x',
          message: 'division by zero',
          programmingLanguage: 'PYTHON',
          stackTrace: 'Traceback …',
        },
      }),
    ).to.deep.equal({ message: 'division by zero', programmingLanguage: 'PYTHON', stackTrace: 'Traceback …' });
    expect(runError({ errorMessage: { message: 'boom' } })).to.deep.equal({
      message: 'boom',
      programmingLanguage: null,
      stackTrace: null,
    });
    expect(runError({ errorMessage: { message: ' ' } })).to.equal(null);
    expect(runError({ parent: {} })).to.equal(null);
    expect(runError(null)).to.equal(null);
  });

  it('gives each upstream run its producer hops and what it wrote for whom, nearest first', () => {
    // report read mart (written by transform), which read staging (written by ingest) and dims (by dims);
    // dims also wrote lookup, which the report read directly: one hop, not two.
    const lineage: RunLineage = {
      runs: [
        entry('report', 'report', [
          ['mart', 'transform'],
          ['lookup', 'dims'],
          ['seed', null],
        ]),
        entry('transform', 'transform', [
          ['staging', 'ingest'],
          ['dims', 'dims'],
        ]),
        entry('dims', 'dims', []),
        entry('ingest', 'ingest', [['raw', null]]),
      ],
    };
    const rows = upstreamRuns(lineage);
    expect(rows.map((r) => [r.entry.run.id, r.hops])).to.deep.equal([
      ['transform', 1],
      ['dims', 1],
      ['ingest', 2],
    ]);
    expect(rows[1].wrote).to.deep.equal([{ namespace: 'w', name: 'lookup', version: 'lookup-v', readBy: 'report' }]);
    expect(rows[2].wrote).to.deep.equal([
      { namespace: 'w', name: 'staging', version: 'staging-v', readBy: 'transform' },
    ]);
    expect(upstreamRuns({ runs: [entry('alone', 'a', [['raw', null]])] })).to.deep.equal([]);
    expect(upstreamRuns({ runs: [] })).to.deep.equal([]);
  });

  it('keeps a run the inputs do not name, without a distance', () => {
    const rows = upstreamRuns({ runs: [entry('r', 'r', []), entry('stray', 's', [])] });
    expect(rows.map((r) => [r.entry.run.id, r.hops])).to.deep.equal([['stray', null]]);
  });
});
