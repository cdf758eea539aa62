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
 * (each must write under the node's lock what it reads under it); the same holds for a parent job's
 * latest run.
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

  // A parent job is not locked by the read statement of a batch naming it: each transaction choosing its
  // LATEST_RUN must read its runs under its lock, or the one committing last keeps what it read before.
  const child = (job: string, time: string, parentRun: string) =>
    incoming(
      runEvent({
        job,
        jobNamespace: 'shared-jobs',
        eventTime: time,
        eventType: 'START',
        runFacets: { parent: facet({ run: { runId: parentRun }, job: { namespace: 'shared-jobs', name: 'dag' } }) },
      }),
    );
  const latest = async () =>
    (
      await rows(
        t().db,
        `MATCH (j:Job {namespace: 'shared-jobs'})-[:LATEST_RUN]->(r:Run) WHERE j.name IN ['dag', 'other']
         RETURN j.name + ' ' + r.id + ' ' + coalesce(j.latestRunState, '-') AS v ORDER BY v`,
      )
    ).map((r) => r.v);
  const P = '0190a000-0000-4000-8000-0000000000a1';
  const Q = '0190a000-0000-4000-8000-0000000000a2';
  const write = (batch: Incoming[]) => t().db.write({ op: 'test' }, (tx) => writeEvents(tx, batch));

  it('two transactions giving a parent job a run each leave it the later one as its latest run', async () => {
    for (let round = 0; round < 8; round++) {
      await wipe(t().db);
      // The job, its namespace and its runs exist already (more than 50 relationships: a dense node, which a
      // new relationship does not lock), so neither transaction creates or re-dates what the other reads.
      await write(
        Array.from({ length: 60 }, (_, i) =>
          child(
            'c',
            `2024-05-01T00:${String(i).padStart(2, '0')}:00Z`,
            `0190a000-0000-4000-8000-0000000001${String(i).padStart(2, '0')}`,
          ),
        ),
      );
      await Promise.all([
        write([child('a', '2024-06-01T00:00:00Z', P)]),
        write([child('b', '2024-06-02T00:00:00Z', Q)]),
      ]);
      expect(await latest(), `round ${round}`).to.deep.equal([`dag ${Q} NEW`]);
    }
  });

  it('a parent run taken by its own events from a job as another run arrives leaves the job that run', async () => {
    for (let round = 0; round < 8; round++) {
      await wipe(t().db);
      await write([child('a', '2024-06-01T12:00:00Z', P)]);
      // P's own events make it a run of `other` while a child gives `dag` the earlier run Q.
      const own = incoming(
        runEvent({
          runId: P,
          job: 'other',
          jobNamespace: 'shared-jobs',
          eventType: 'START',
          eventTime: '2024-06-01T11:30:00Z',
        }),
      );
      await Promise.all([write([own]), write([child('b', '2024-06-01T11:00:00Z', Q)])]);
      expect(await latest(), `round ${round}`).to.deep.equal([`dag ${Q} NEW`, `other ${P} RUNNING`]);
    }
  });
});
