import { expect } from 'chai';
import { minimalNodeData } from '../../src/domain/lineage/graph-nodes.js';

describe('minimalNodeData: a node of GET /lineage?fields=minimal', () => {
  const run = {
    id: 'r1',
    state: 'COMPLETED',
    startedAt: '2024-09-01T10:00:00.000Z',
    endedAt: '2024-09-01T12:00:00.000Z',
  };
  const job = { namespace: 'airflow', name: 'etl', latestRun: run };

  it('is a dataset’s key, and a job’s key with its latest run', () => {
    expect(minimalNodeData({ namespace: 'wh', name: 'orders', latestRun: null }, false, null)).to.deep.equal({
      id: { namespace: 'wh', name: 'orders' },
      namespace: 'wh',
      name: 'orders',
    });
    expect(minimalNodeData(job, true, null)).to.deep.equal({
      id: { namespace: 'airflow', name: 'etl' },
      namespace: 'airflow',
      name: 'etl',
      latestRun: run,
    });
    expect(minimalNodeData({ ...job, latestRun: null }, true, null).latestRun).to.equal(null);
  });

  it('gives the latest run as it was at asOf: running before its end, new before its start', () => {
    const at = (iso: string) => minimalNodeData(job, true, Date.parse(iso)).latestRun;
    expect(at('2024-09-01T13:00:00Z')).to.deep.equal(run);
    expect(at('2024-09-01T11:00:00Z')).to.deep.equal({ ...run, state: 'RUNNING', endedAt: null });
    expect(at('2024-09-01T09:00:00Z')).to.deep.equal({ ...run, state: 'NEW', startedAt: null, endedAt: null });
  });
});
