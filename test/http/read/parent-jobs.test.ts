/**
 * Jobs and runs known from `parent` run facets: a parent run a child names is a run of the parent job
 * (Marquez creates both), so it counts among the job's runs and can be its latest run, whatever the
 * order in which the parent's own events and its children's arrive.
 */
import { expect } from 'chai';
import { useTestApp, wipe } from '../../helper.js';
import { rows } from '../../support/graph.js';
import { facet, runEvent } from '../../support/events.js';
import { shuffled } from '../../support/replay-stream.js';
import type { Job, Run } from '../../../src/api/types.js';

const parent = (runId: string, namespace: string, name: string) =>
  facet({ run: { runId }, job: { namespace, name } }, 'ParentRunFacet');
const at = (hhmm: string) => `2024-05-01T${hhmm}:00.000Z`;

const RUN = {
  p1: '0190b000-0000-4000-8000-000000000001',
  p2: '0190b000-0000-4000-8000-000000000002',
  p3: '0190b000-0000-4000-8000-000000000003',
  p5: '0190b000-0000-4000-8000-000000000005',
  p6: '0190b000-0000-4000-8000-000000000006',
  p7: '0190b000-0000-4000-8000-000000000007',
  p8: '0190b000-0000-4000-8000-000000000008',
  c2: '0190b000-0000-4000-8000-000000000012',
  c3: '0190b000-0000-4000-8000-000000000013',
  c4: '0190b000-0000-4000-8000-000000000014',
  c5: '0190b000-0000-4000-8000-000000000015',
  c6: '0190b000-0000-4000-8000-000000000016',
  q1: '0190b000-0000-4000-8000-000000000021',
  q2: '0190b000-0000-4000-8000-000000000022',
  d1: '0190b000-0000-4000-8000-000000000023',
  d2: '0190b000-0000-4000-8000-000000000024',
  r1: '0190b000-0000-4000-8000-000000000031',
  r2: '0190b000-0000-4000-8000-000000000032',
  e1: '0190b000-0000-4000-8000-000000000033',
  f1: '0190b000-0000-4000-8000-000000000041',
  f2: '0190b000-0000-4000-8000-000000000042',
  g1: '0190b000-0000-4000-8000-000000000043',
  g2: '0190b000-0000-4000-8000-000000000044',
};

/**
 * `dag` runs p1 itself (10:00 to 10:30), and its children name p2 (at 11:05, and earlier at 09:50, so p2
 * sorts before p1) and p3 (at 12:00), whose own events make it a run of `other` (11:30). `only_parent`
 * never reports: its children name p5 (08:00) and p6 (08:30). Each case below has a job of its own, so
 * that no later event of the stream chooses its latest run again and hides a pointer left behind:
 * `lowered` runs q1 (10:00) and its children name q2 at 11:00, then at 09:00; `restarted` runs r1 (10:00),
 * a child names r2 at 11:00, and r2's own START is at 09:30. Children disagree on the job of two runs that
 * never report: p7 is named with `claimed_late` at 10:00 and with `claimed_early` at 09:00 (the earliest
 * mention decides: `claimed_early`'s), p8 with `tie_b` and `tie_a` both at 09:00 (the smaller key: `tie_a`).
 */
function stream(): Record<string, unknown>[] {
  const child = (runId: string, job: string, time: string, parentRun: string, parentJob: string) =>
    runEvent({
      runId,
      job,
      jobNamespace: 'sched',
      eventType: 'START',
      eventTime: at(time),
      runFacets: { parent: parent(parentRun, 'sched', parentJob) },
    });
  const own = (runId: string, job: string, eventType: string, time: string) =>
    runEvent({ runId, job, jobNamespace: 'sched', eventType, eventTime: at(time) });
  return [
    own(RUN.p1, 'dag', 'START', '10:00'),
    own(RUN.p1, 'dag', 'COMPLETE', '10:30'),
    child(RUN.c2, 'dag.late', '11:05', RUN.p2, 'dag'),
    child(RUN.c4, 'dag.early', '09:50', RUN.p2, 'dag'),
    child(RUN.c3, 'dag.misnamed', '12:00', RUN.p3, 'dag'),
    own(RUN.p3, 'other', 'START', '11:30'),
    child(RUN.c5, 'only_parent.a', '08:00', RUN.p5, 'only_parent'),
    child(RUN.c6, 'only_parent.b', '08:30', RUN.p6, 'only_parent'),
    own(RUN.q1, 'lowered', 'START', '10:00'),
    child(RUN.d1, 'lowered.late', '11:00', RUN.q2, 'lowered'),
    child(RUN.d2, 'lowered.early', '09:00', RUN.q2, 'lowered'),
    own(RUN.r1, 'restarted', 'START', '10:00'),
    child(RUN.e1, 'restarted.task', '11:00', RUN.r2, 'restarted'),
    own(RUN.r2, 'restarted', 'START', '09:30'),
    child(RUN.f1, 'claimed_late.task', '10:00', RUN.p7, 'claimed_late'),
    child(RUN.f2, 'claimed_early.task', '09:00', RUN.p7, 'claimed_early'),
    child(RUN.g1, 'tie_b.task', '09:00', RUN.p8, 'tie_b'),
    child(RUN.g2, 'tie_a.task', '09:00', RUN.p8, 'tie_a'),
  ];
}

const CLAIMANTS = ['claimed_late', 'claimed_early', 'tie_b', 'tie_a'];

describe('read API: jobs known only as parents, and parent runs', () => {
  const t = useTestApp();
  const post = async (events: Record<string, unknown>[]) => {
    for (const e of events) expect((await t().post('/api/v1/lineage', e)).status, JSON.stringify(e)).to.equal(201);
  };
  const get = async <T = any>(path: string) => {
    const res = await t().get<T>(path);
    expect(res.status, `${path}: ${res.text}`).to.equal(200);
    return res.body;
  };
  const names = (jobs: Job[]) => jobs.map((j) => `${j.namespace}/${j.name}`);

  it('a job known only as a parent has the parent run as its latest run, as its runs list says', async () => {
    await post([
      runEvent({
        runId: RUN.c2,
        job: 'unknown_dag.child',
        jobNamespace: 'sched',
        eventType: 'START',
        runFacets: { parent: parent(RUN.p2, 'sched', 'unknown_dag') },
      }),
    ]);
    const runs = await get<{ runs: Run[] }>('/api/v1/namespaces/sched/jobs/unknown_dag/runs');
    expect(runs.runs.map((r) => [r.id, r.state])).to.deep.equal([[RUN.p2, 'NEW']]);
    const job = await get<Job>('/api/v1/namespaces/sched/jobs/unknown_dag');
    expect(job.latestRun).to.deep.equal(runs.runs[0]);
    expect(job.latestRuns).to.deep.equal(runs.runs);
    expect(names((await get('/api/v1/jobs?lastRunStates=NEW')).jobs)).to.deep.equal(['sched/unknown_dag']);
    expect(names((await get('/api/v1/namespaces/sched/jobs?lastRunStates=NEW')).jobs)).to.deep.equal([
      'sched/unknown_dag',
    ]);
  });

  it("a child's simpleName is its name less its parent's name and a dot, else its whole name, as Marquez", async () => {
    const id = (n: number) => `0190b000-0000-4000-8000-0000000001${String(n).padStart(2, '0')}`;
    const child = (i: number, job: string, parentJob: string) =>
      runEvent({
        runId: id(i),
        job,
        jobNamespace: 'sched',
        runFacets: { parent: parent(id(50 + i), 'sched', parentJob) },
      });
    const cases: [job: string, parentJob: string, simpleName: string][] = [
      ['etl.extract', 'etl', 'extract'], // an Airflow task
      ['etl.group.load', 'etl', 'group.load'], // an Airflow task in a task group
      [
        'app.execute_insert_into_hadoop_fs_relation_command.tmp_out',
        'app',
        'execute_insert_into_hadoop_fs_relation_command.tmp_out',
      ], // Spark
      ['db.public.jaffle.orders.build.test', 'dbt-run-jaffle', 'db.public.jaffle.orders.build.test'], // dbt
    ];
    for (const [i, [job, parentJob]] of cases.entries()) await post([child(i, job, parentJob)]);
    for (const [job, parentJob, simpleName] of cases) {
      const got = await get<Job>(`/api/v1/namespaces/sched/jobs/${encodeURIComponent(job)}`);
      expect([got.simpleName, got.parentJobName], job).to.deep.equal([simpleName, parentJob]);
    }
  });

  /** What the jobs of the stream answer, and each job's stored latest run state against its LATEST_RUN. */
  async function snapshot(): Promise<string> {
    const out: unknown[] = [];
    for (const job of ['dag', 'other', 'only_parent', 'lowered', 'restarted', ...CLAIMANTS]) {
      out.push(await get(`/api/v1/namespaces/sched/jobs/${job}`));
      out.push(await get(`/api/v1/namespaces/sched/jobs/${job}/runs`));
    }
    out.push(await get('/api/v1/jobs?lastRunStates=NEW'));
    out.push(await get('/api/v1/namespaces/sched/jobs'));
    const jobs = await rows(
      t().db,
      `MATCH (j:Job {namespace: 'sched'}) OPTIONAL MATCH (j)-[:LATEST_RUN]->(r:Run)
       RETURN j.name AS job, j.latestRunState AS stored, r.state AS latest, COUNT { (j)-[:LATEST_RUN]->() } AS n
       ORDER BY job`,
    );
    for (const j of jobs) {
      expect(j.stored ?? null, `${j.job}: latestRunState`).to.equal(j.latest ?? null);
      expect(Number(j.n), `${j.job}: one LATEST_RUN at most`).to.be.at.most(1);
    }
    out.push(jobs);
    return JSON.stringify(out);
  }

  it('each job keeps the latest of its runs, parent runs included, in any order and number of deliveries', async () => {
    await post(stream());
    const latest = async (job: string) => (await get<Job>(`/api/v1/namespaces/sched/jobs/${job}`)).latestRun;
    // p2 was named at 09:50 first: it sorts before p1. p3 is `other`'s, as its own events say.
    expect(await latest('dag')).to.include({ id: RUN.p1, state: 'COMPLETED' });
    const dagRuns = await get<{ runs: Run[] }>('/api/v1/namespaces/sched/jobs/dag/runs');
    expect(dagRuns.runs.map((r) => r.id)).to.deep.equal([RUN.p1, RUN.p2]);
    expect(await latest('other')).to.include({ id: RUN.p3, state: 'RUNNING' });
    expect(await latest('only_parent')).to.include({ id: RUN.p6, state: 'NEW' });
    expect(await latest('lowered')).to.include({ id: RUN.q1, state: 'RUNNING' });
    expect(await latest('restarted')).to.include({ id: RUN.r1, state: 'RUNNING' });
    // A run named with two jobs is the earliest mention's (on a tie, the smaller key's); the other has none.
    const runsOf = async (job: string) =>
      (await get<{ runs: Run[] }>(`/api/v1/namespaces/sched/jobs/${job}/runs`)).runs.map((r) => r.id);
    expect(await latest('claimed_early')).to.include({ id: RUN.p7, state: 'NEW' });
    expect(await latest('claimed_late')).to.equal(null);
    expect(await runsOf('claimed_late')).to.deep.equal([]);
    expect(await latest('tie_a')).to.include({ id: RUN.p8, state: 'NEW' });
    expect(await latest('tie_b')).to.equal(null);
    expect(await runsOf('tie_b')).to.deep.equal([]);
    const links = await rows(
      t().db,
      `UNWIND $ids AS id MATCH (r:Run {id: id})-[:RUN_OF]->(j:Job)
       RETURN r.id AS run, collect(j.name) AS jobs, r.jobName AS jobName ORDER BY run`,
      { ids: [RUN.p7, RUN.p8] },
    );
    expect(links).to.deep.equal([
      { run: RUN.p7, jobs: ['claimed_early'], jobName: 'claimed_early' },
      { run: RUN.p8, jobs: ['tie_a'], jobName: 'tie_a' },
    ]);
    const inOrder = await snapshot();

    const orders = [[...stream()].reverse(), ...[1, 2, 3, 4, 5].map((seed) => shuffled(stream(), seed))];
    for (const [i, events] of orders.entries()) {
      await wipe(t().db);
      await t().app.services.namespaces.ensureDefault();
      await post([...events, ...events.slice(0, i + 1)]);
      expect(await snapshot(), `order ${i}`).to.equal(inOrder);
    }
    // Several events a transaction.
    await wipe(t().db);
    await t().app.services.namespaces.ensureDefault();
    const mixed = shuffled(stream(), 9);
    for (let i = 0; i < mixed.length; i += 3) {
      const res = await t().post('/api/v1/lineage/batch', mixed.slice(i, i + 3));
      expect(res.body.summary.failed, res.text).to.equal(0);
    }
    expect(await snapshot(), 'in batches').to.equal(inOrder);
  });
});
