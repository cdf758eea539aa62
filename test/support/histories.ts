/**
 * Lineage edge histories of every kind, posted through the API: the replay stream (runs days apart, a
 * failed run without outputs, partitions, symlinks, a JobEvent) and, beside it, a dropped input (run 1
 * only), an edge seen once long ago, a job dated ahead of the clock, a deleted dataset and a deleted job.
 * Used where two evaluations of the time rules are held equal on stored data.
 */
import { expect } from 'chai';
import type { TestApp } from '../helper.js';
import { JOB_NS, NS } from '../http/lineage/support.js';
import { replayStream } from './replay-stream.js';
import { runEvent } from './events.js';

export async function postHistoriesOfEveryKind(t: TestApp): Promise<void> {
  for (const e of replayStream()) expect((await t.post('/api/v1/lineage', e)).status).to.equal(201);
  const run = async (job: string, inputs: string[], outputs: string[], eventTime: string) =>
    expect(
      (
        await t.post(
          '/api/v1/lineage',
          runEvent({ job, jobNamespace: JOB_NS, eventType: 'COMPLETE', eventTime, inputs, outputs }),
        )
      ).status,
    ).to.equal(201);
  await run('dropper', ['kept', 'dropped'], ['dropper_out'], '2024-01-01T00:00:00Z');
  await run('dropper', ['kept'], ['dropper_out'], '2024-03-10T00:00:00Z');
  await run('once', ['kept'], ['gone'], '2023-06-01T00:00:00Z');
  await run('later', ['gone'], ['after_gone'], '2024-04-01T00:00:00Z');
  await run('doomed', ['after_gone'], ['doomed_out'], '2024-04-02T00:00:00Z');
  await run('ahead', ['doomed_out'], ['ahead_out'], '2031-01-01T00:00:00Z'); // dated ahead of the clock
  for (const path of [
    `/api/v1/namespaces/${encodeURIComponent(NS)}/datasets/gone`,
    `/api/v1/namespaces/${encodeURIComponent(JOB_NS)}/jobs/doomed`,
  ])
    expect((await t.request('DELETE', path)).status, path).to.equal(200);
}
