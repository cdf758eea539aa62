/**
 * The lineage edges' histories are a function of the set of events: folding one job's run events and
 * JobEvents through the planner in any order, each delivered once or twice, stores the same edges.
 */
import { expect } from 'chai';
import { rng } from '../../bench/traffic.js';
import { refKey } from '../../src/domain/ingest/keys.js';
import {
  jobEventObservations,
  planEdges,
  runEventObservations,
  type EdgeObservation,
  type EdgeProps,
  type StoredEdge,
} from '../../src/domain/edge-plan.js';
import { inView } from '../../src/domain/edge-history.js';

const DAY = 86_400_000;
const JOB = { namespace: 'sched', name: 'job' };
const KEY = refKey(JOB);

interface Event {
  runId: string | null;
  time: number;
  inputs: string[];
  outputs: string[];
  state: string;
}

/** A database of one job's edges plus, per run, what runs-prepare would return (accumulated I/O, newest event). */
function fold(events: Event[]) {
  const edges = new Map<string, StoredEdge>();
  const runs = new Map<string, { inputs: string[]; outputs: string[]; last: number | null; state: string }>();
  let eid = 0;
  const ref = (name: string) => ({ namespace: 'wh', name });
  for (const ev of events) {
    let observations: EdgeObservation[];
    const states = new Map<string, string>();
    if (ev.runId === null) {
      observations = jobEventObservations(JOB, ev.time, ev.inputs.map(ref), ev.outputs.map(ref));
    } else {
      const run = runs.get(ev.runId) ?? { inputs: [], outputs: [], last: null, state: 'NEW' };
      observations = runEventObservations({
        job: JOB,
        runId: ev.runId,
        eventTime: ev.time,
        lastEventAt: run.last,
        inputs: ev.inputs.map(ref),
        outputs: ev.outputs.map(ref),
        earlierInputs: run.inputs.map(ref),
        earlierOutputs: run.outputs.map(ref),
      });
      // The run's state is a function of its events' set: the state of its latest event here.
      const state = run.last === null || ev.time >= run.last ? ev.state : run.state;
      runs.set(ev.runId, {
        inputs: [...new Set([...run.inputs, ...ev.inputs])],
        outputs: [...new Set([...run.outputs, ...ev.outputs])],
        last: run.last === null ? ev.time : Math.max(run.last, ev.time),
        state,
      });
      states.set(ev.runId, state);
    }
    const rows = planEdges(new Map([[KEY, [...edges.values()]]]), observations, states);
    for (const row of rows) {
      const k = `${row.input} ${row.name}`;
      const prev = edges.get(k);
      expect(row.eid, `${k}'s element id`).to.equal(prev?.eid ?? null);
      const props: EdgeProps = { ...(prev ? toProps(prev) : ({} as EdgeProps)), ...row.set };
      edges.set(k, {
        eid: prev?.eid ?? `e${eid++}`,
        input: row.input,
        namespace: row.namespace,
        name: row.name,
        firstSeenAt: props.firstSeenAt,
        lastSeenAt: props.lastSeenAt,
        lastRunId: props.lastRunId ?? null,
        lastRunState: props.lastRunState ?? null,
        spans: props.seenFrom.map((from, i) => ({ from, to: props.seenTo[i] })),
        heldUntil: props.heldUntil,
      });
    }
  }
  return new Map([...edges].map(([k, e]) => [k, { ...toProps(e), lastRunState: undefined }]));
}

function toProps(e: StoredEdge): EdgeProps {
  return {
    firstSeenAt: e.firstSeenAt,
    lastSeenAt: e.lastSeenAt,
    lastRunId: e.lastRunId,
    lastRunState: e.lastRunState,
    seenFrom: e.spans.map((s) => s.from),
    seenTo: e.spans.map((s) => s.to),
    heldUntil: e.heldUntil,
    current: e.heldUntil[e.heldUntil.length - 1] === Date.parse('9999-12-31T23:59:59.999Z'),
  };
}

function randomEvents(seed: number): Event[] {
  const rand = rng(seed);
  const datasets = ['a', 'b', 'c', 'd', 'e', 'f'];
  const some = () => datasets.filter(() => rand() < 0.3);
  const events: Event[] = [];
  const runs = 2 + Math.floor(rand() * 5);
  for (let r = 0; r < runs; r++) {
    const start = Math.floor(rand() * 90) * DAY + Math.floor(rand() * DAY);
    const n = 1 + Math.floor(rand() * 4);
    for (let i = 0; i < n; i++) {
      const state = i === n - 1 ? (rand() < 0.2 ? 'FAILED' : 'COMPLETED') : 'RUNNING';
      events.push({
        runId: `run-${r}`,
        time: start + Math.floor(rand() * 3 * DAY),
        inputs: some(),
        outputs: some(),
        state,
      });
    }
  }
  if (rand() < 0.5)
    events.push({ runId: null, time: Math.floor(rand() * 90 * DAY), inputs: some(), outputs: some(), state: '' });
  return events;
}

function shuffled<T>(xs: T[], rand: () => number): T[] {
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

describe('lineage edge histories do not depend on the order or number of deliveries', () => {
  it('200 random event sets, each folded in order, shuffled twice and with every event delivered twice', function () {
    this.timeout(60_000);
    for (let seed = 1; seed <= 200; seed++) {
      // Events with one time per run and state are what the run state machine sees; the same event twice is a retry.
      const events = randomEvents(seed);
      const ordered = [...events].sort((a, b) => a.time - b.time);
      const expected = fold(ordered);
      const rand = rng(seed * 7919);
      for (const variant of [shuffled(events, rand), shuffled(events, rand), shuffled([...events, ...events], rand)]) {
        expect(Object.fromEntries(fold(variant)), `seed ${seed}`).to.deep.equal(Object.fromEntries(expected));
      }
    }
  });

  it('the failed run: a later run that observed no output keeps the outputs in view with no window', () => {
    const edges = fold([
      { runId: 'r1', time: 0, inputs: ['in'], outputs: ['out'], state: 'COMPLETED' },
      { runId: 'r2', time: 10 * DAY, inputs: ['in'], outputs: [], state: 'RUNNING' },
      { runId: 'r2', time: 10 * DAY + 60_000, inputs: [], outputs: [], state: 'FAILED' },
    ]);
    const out = edges.get('false out')!;
    const spans = out.seenFrom.map((from, i) => ({ from, to: out.seenTo[i] }));
    expect(inView({ spans, heldUntil: out.heldUntil }, 100 * DAY, 100 * DAY)).to.equal(true);
    const input = edges.get('true in')!;
    expect(input.lastRunId).to.equal('r2');
  });
});
