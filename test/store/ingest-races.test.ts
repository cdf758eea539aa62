import { expect } from 'chai';
import { useTestApp, wipe } from '../helper.js';
import { rows } from '../support/graph.js';
import { facet, runEvent } from '../support/events.js';
import { parseEvent } from '../../src/domain/openlineage/normalize.js';
import { writeEvents } from '../../src/store/ingest.js';
import type { Incoming } from '../../src/domain/ingest/rows.js';

/**
 * Shared nodes no read statement locks (namespaces, sources, parent jobs and runs) are dated by their
 * earliest mention. Two transactions lowering such a date at once must not lose the earlier one
 * (each must write under the node's lock what it reads under it).
 */
describe('ingest: concurrent transactions dating shared nodes', function () {
  this.timeout(120_000);
  const t = useTestApp();
  const incoming = (e: Record<string, unknown>): Incoming => {
    const parsed = parseEvent(e);
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
    return { event: parsed.event, receivedAt: parsed.event.eventTime };
  };
  const mention = (job: string, time: string) =>
    incoming(
      runEvent({
        job,
        jobNamespace: 'shared-jobs',
        eventTime: time,
        eventType: 'START',
        runFacets: {
          parent: facet({
            run: { runId: '0190a000-0000-4000-8000-0000000000ff' },
            job: { namespace: 'shared-jobs', name: 'dag' },
          }),
        },
        outputs: [
          {
            namespace: 's3://shared',
            name: `out_${job}`,
            facets: { dataSource: facet({ name: 'lake', uri: 's3://shared' }) },
          },
        ],
      }),
    );
  const dates = async () =>
    (
      await rows(
        t().db,
        `CALL () { MATCH (n:Namespace)
          WHERE n.name STARTS WITH 's3://shared' OR n.name = 'shared-jobs'
          RETURN n.name AS k, toString(n.createdAt) AS at
           UNION ALL MATCH (s:Source {name: 'lake'}) RETURN 'source' AS k, toString(s.createdAt) AS at
           UNION ALL MATCH (j:Job {name: 'dag'}) RETURN 'parent job' AS k, toString(j.createdAt) AS at
           UNION ALL MATCH (r:Run {id: '0190a000-0000-4000-8000-0000000000ff'}) RETURN 'parent run' AS k,
             toString(r.createdAt) AS at }
         RETURN k, at ORDER BY k`,
      )
    ).map((r) => `${r.k} ${r.at}`);

  it('the earliest mention wins whichever transaction commits first', async () => {
    for (let round = 0; round < 8; round++) {
      await wipe(t().db);
      // A later mention exists first, so both transactions below lower the dates at once.
      await t().db.write({ op: 'test' }, (tx) => writeEvents(tx, [mention('c', '2024-06-03T00:00:00Z')]));
      await Promise.all(
        [mention('a', '2024-06-01T00:00:00Z'), mention('b', '2024-06-02T00:00:00Z')].map((m) =>
          t().db.write({ op: 'test' }, (tx) => writeEvents(tx, [m])),
        ),
      );
      expect(await dates(), `round ${round}`).to.deep.equal([
        'parent job 2024-06-01T00:00:00Z',
        'parent run 2024-06-01T00:00:00Z',
        's3://shared 2024-06-01T00:00:00Z',
        'shared-jobs 2024-06-01T00:00:00Z',
        'source 2024-06-01T00:00:00Z',
      ]);
    }
  });
});
