/**
 * Idempotency of every read: a stream posted again, shuffled, or posted in another order into an
 * empty database must give byte-identical answers on every read endpoint (every timestamp and
 * pointer is derived from the set of events, never from arrival order or count).
 */
import { expect } from 'chai';
import { writeFileSync } from 'node:fs';
import { useTestApp, wipe, type TestApp } from '../../helper.js';
import { REPLAY_RUN_IDS, replayStream, shuffled } from '../../support/replay-stream.js';
import { rows } from '../../support/graph.js';

const enc = encodeURIComponent;

/** Every read endpoint over everything the stream created: path → response text. */
async function snapshot(t: TestApp): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  // A point in time before a node existed answers 404, which must be just as stable.
  const get = async (path: string, statuses = [200]): Promise<any> => {
    const res = await t.get(path);
    expect(statuses, `${path}: ${res.status} ${res.text}`).to.include(res.status);
    out.set(path, `${res.status} ${res.text}`);
    return res.body;
  };
  const { namespaces } = await get('/api/v1/namespaces');
  const { sources } = await get('/api/v1/sources');
  for (const s of sources) await get(`/api/v1/sources/${enc(s.name)}`);
  await get('/api/v1/tags');
  await get('/api/v1/jobs');
  await get('/api/v1/jobs?lastRunStates=FAILED&lastRunStates=COMPLETED');
  for (const ns of namespaces) {
    const n = enc(ns.name);
    await get(`/api/v1/namespaces/${n}`);
    const { datasets } = await get(`/api/v1/namespaces/${n}/datasets`);
    for (const d of datasets) {
      const base = `/api/v1/namespaces/${n}/datasets/${enc(d.name)}`;
      await get(base);
      const { versions } = await get(`${base}/versions`);
      for (const v of versions) await get(`${base}/versions/${v.version}`);
      const node = enc(`dataset:${ns.name}:${d.name}`);
      await get(`/api/v1/lineage?nodeId=${node}`);
      await get(`/api/v1/lineage?nodeId=${node}&window=all&include=facets,latestRuns`);
      await get(`/api/v1/lineage?nodeId=${node}&asOf=2024-03-02T12:00:00Z&window=PT12H`, [200, 404]);
      await get(
        `/api/v1/lineage?nodeId=${node}&asOf=2024-03-02T12:00:00Z&window=PT12H&include=facets,latestRuns`,
        [200, 404],
      );
      await get(`/api/v1/column-lineage?nodeId=${node}&withDownstream=true`);
      // Impact now reads jobs' stored latestRunState (summary.failedJobs, latestRunState): a fold like the rest.
      await get(`/api/v1/impact?nodeId=${node}&window=all`);
      await get(`/api/v1/impact?nodeId=${node}&direction=upstream`);
      await get(`/api/v1/impact?nodeId=${node}&asOf=2024-03-02T12:00:00Z&window=PT12H`, [200, 404]);
      for (const f of d.fields)
        await get(
          `/api/v1/column-lineage?nodeId=${enc(`datasetField:${ns.name}:${d.name}:${f.name}`)}&withDownstream=true`,
        );
    }
    const { jobs } = await get(`/api/v1/namespaces/${n}/jobs`);
    for (const j of jobs) {
      const base = `/api/v1/namespaces/${n}/jobs/${enc(j.name)}`;
      await get(base);
      const { versions } = await get(`${base}/versions`);
      for (const v of versions) await get(`${base}/versions/${v.version}`);
      await get(`${base}/runs`);
      const node = enc(`job:${ns.name}:${j.name}`);
      await get(`/api/v1/lineage?nodeId=${node}&direction=downstream&window=all`);
      await get(`/api/v1/lineage?nodeId=${node}&asOf=2024-03-01T12:00:00Z&include=latestRuns`, [200, 404]);
      await get(`/api/v1/impact?nodeId=${node}&window=all`);
      await get(`/api/v1/impact?nodeId=${node}&direction=upstream&state=FAILED`);
    }
  }
  for (const id of REPLAY_RUN_IDS) {
    const run = await get(`/api/v1/jobs/runs/${enc(id)}`);
    await get(`/api/v1/jobs/runs/${run.id}/facets?type=run`);
    await get(`/api/v1/jobs/runs/${run.id}/facets?type=job`);
    await get(`/api/v1/runlineage/upstream?runId=${enc(id)}`);
  }
  for (const q of ['orders', 'customers', 'revenue', 'etl']) {
    await get(`/api/v1/search?q=${q}`);
    await get(`/api/v1/search?q=${q}&sort=updated_at&limit=100`);
  }
  await get('/api/v1/events/lineage?after=2024-01-01T00:00:00Z&limit=1000&sortDirection=asc');
  await get('/api/v1/events/lineage?after=2024-01-01T00:00:00Z&limit=1000');
  // The stored mirror the impact walk reads for "now": each job's latestRunState and latestRunEndedAt are its
  // LATEST_RUN's state and end.
  const jobs = await rows(
    t.db,
    `MATCH (j:Job) OPTIONAL MATCH (j)-[:LATEST_RUN]->(r:Run)
     RETURN j.namespace + ':' + j.name AS job, j.latestRunState AS stored, r.state AS latest,
       toString(j.latestRunEndedAt) AS storedEnd, toString(r.endedAt) AS latestEnd ORDER BY job`,
  );
  for (const j of jobs) {
    expect(j.stored ?? null, `${j.job}: latestRunState`).to.equal(j.latest ?? null);
    expect(j.storedEnd ?? null, `${j.job}: latestRunEndedAt`).to.equal(j.latestEnd ?? null);
  }
  expect(jobs.filter((j) => j.storedEnd !== null).length, 'jobs whose latest run ended').to.be.greaterThan(0);
  out.set('graph: Job.latestRunState, latestRunEndedAt', `200 ${JSON.stringify(jobs)}`);
  return out;
}

/** Fields the service sets from its own clock by design: when it received an event, the seeded namespace. */
function withoutArrivalTimes(snap: Map<string, string>): Map<string, string> {
  const out = new Map<string, string>();
  for (const [path, answer] of snap) {
    const [status, text] = [answer.slice(0, 3), answer.slice(4)];
    out.set(
      path,
      status +
        JSON.stringify(JSON.parse(text), (key, value) => {
          if (key === 'receivedAt') return '<arrival>';
          if (value && typeof value === 'object' && value.name === 'default' && 'ownerName' in value)
            return { ...value, createdAt: '<seed>', updatedAt: '<seed>' };
          return value;
        }),
    );
  }
  return out;
}

function differences(a: Map<string, string>, b: Map<string, string>): string[] {
  const diffs: string[] = [];
  for (const path of new Set([...a.keys(), ...b.keys()])) {
    const x = a.get(path);
    const y = b.get(path);
    if (x === y) continue;
    if (x === undefined || y === undefined) {
      diffs.push(`${path}: only in the ${x === undefined ? 'second' : 'first'} snapshot`);
      continue;
    }
    let i = 0;
    while (i < x.length && x[i] === y[i]) i++;
    diffs.push(
      `${path}\n    first:  …${x.slice(Math.max(0, i - 80), i + 80)}\n    second: ` +
        `…${y.slice(Math.max(0, i - 80), i + 80)}`,
    );
  }
  return diffs;
}

describe('read API: replayed and reordered streams answer byte-identically', function () {
  this.timeout(180_000);
  const t = useTestApp();
  const postAll = async (events: Record<string, unknown>[]) => {
    for (const e of events) {
      const res = await t().post('/api/v1/lineage', e);
      expect(res.status, res.text).to.equal(201);
    }
  };
  // The stream posted in order into an empty database, without the arrival times: what every reordering
  // must answer. Taken once (by the first test that posts the stream in order) rather than again by each
  // test that compares with it; a test run on its own takes it itself, then starts again from empty.
  let inOrderSnapshot: Map<string, string> | null = null;
  const inOrder = async (): Promise<Map<string, string>> => {
    if (inOrderSnapshot === null) {
      await postAll(replayStream());
      inOrderSnapshot = withoutArrivalTimes(await snapshot(t()));
      await wipe(t().db);
      await t().app.services.namespaces.ensureDefault();
    }
    return inOrderSnapshot;
  };

  it('the stream covers what it should (a sanity check of the snapshot itself)', async () => {
    await postAll(replayStream());
    const snap = await snapshot(t());
    inOrderSnapshot ??= withoutArrivalTimes(snap);
    expect(snap.size).to.be.greaterThan(150);
    const paths = [...snap.keys()];
    for (const part of [
      '/versions/',
      '/runs',
      '/facets?type=job',
      '/column-lineage?nodeId=datasetField',
      '/runlineage/upstream',
      '/sources/',
    ]) {
      expect(
        paths.some((p) => p.includes(part)),
        part,
      ).to.equal(true);
    }
  });

  it('posting the stream again, shuffled and every event twice, changes no answer', async () => {
    const events = replayStream();
    await postAll(events);
    const first = await snapshot(t());
    // (It keeps the arrival times, so it takes its own snapshot: which answers as the shared one.)
    if (inOrderSnapshot === null) inOrderSnapshot = withoutArrivalTimes(first);
    else expect(differences(inOrderSnapshot, withoutArrivalTimes(first))).to.deep.equal([]);
    const again = shuffled(events, 7);
    await postAll([...again, ...shuffled(events, 8)]);
    const second = await snapshot(t());
    if (process.env.REPLAY_DIFFS)
      writeFileSync(`${process.env.REPLAY_DIFFS}-repost.json`, JSON.stringify([[...first], [...second]]));
    expect(differences(first, second)).to.deep.equal([]);
  });

  it('the stream shuffled into batches (several events per transaction) answers as in order', async () => {
    const events = replayStream();
    const expected = await inOrder();
    const mixed = shuffled(events, 11);
    for (let i = 0; i < mixed.length; i += 7) {
      const res = await t().post('/api/v1/lineage/batch', mixed.slice(i, i + 7));
      expect(res.status, res.text).to.equal(200);
      expect(res.body.summary.failed, res.text).to.equal(0);
    }
    expect(differences(expected, withoutArrivalTimes(await snapshot(t())))).to.deep.equal([]);
  });

  // REPLAY_SEEDS=1-40 tries more orders (a deeper check than the suite's five).
  const [lo, hi] = (process.env.REPLAY_SEEDS ?? '1-5').split('-').map(Number);
  for (let seed = lo; seed <= hi; seed++) {
    it(`shuffled order ${seed} (with duplicates) into an empty database answers as in order`, async () => {
      const events = replayStream();
      const expected = await inOrder();
      const mixed = shuffled(events, seed);
      await postAll([...mixed, ...mixed.slice(0, seed * 4)]);
      const shuffledSnapshot = withoutArrivalTimes(await snapshot(t()));
      if (process.env.REPLAY_DIFFS)
        writeFileSync(
          `${process.env.REPLAY_DIFFS}-${seed}.json`,
          JSON.stringify([[...expected], [...shuffledSnapshot]]),
        );
      expect(differences(expected, shuffledSnapshot)).to.deep.equal([]);
    });
  }
});
