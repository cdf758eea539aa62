import { expect } from 'chai';
import { applyEvent, durationMs, NO_TIMES, stateOf, type RunTimes } from '../../src/domain/run-state.js';
import type { EventType } from '../../src/domain/openlineage/types.js';

type Step = [EventType | null, string];

function replay(steps: Step[]): RunTimes {
  return steps.reduce((times, [type, at]) => applyEvent(times, type, at), NO_TIMES);
}

function permutations<T>(items: T[]): T[][] {
  if (items.length <= 1) return [items];
  return items.flatMap((x, i) =>
    permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [x, ...rest]),
  );
}

describe('run state machine', () => {
  it('START → RUNNING → COMPLETED with times from the events', () => {
    const t = replay([
      ['START', '2024-01-01T00:00:00.000Z'],
      ['COMPLETE', '2024-01-01T00:00:05.000Z'],
    ]);
    expect(stateOf(t)).to.equal('COMPLETED');
    expect(t).to.deep.equal({
      startedAt: '2024-01-01T00:00:00.000Z',
      endedAt: '2024-01-01T00:00:05.000Z',
      terminalState: 'COMPLETED',
    });
    expect(durationMs(t)).to.equal(5000);
  });

  it('maps FAIL → FAILED, ABORT → ABORTED, RUNNING → RUNNING, and OTHER/absent → no change', () => {
    expect(stateOf(replay([['FAIL', '2024-01-01T00:00:00.000Z']]))).to.equal('FAILED');
    expect(stateOf(replay([['ABORT', '2024-01-01T00:00:00.000Z']]))).to.equal('ABORTED');
    expect(stateOf(replay([['RUNNING', '2024-01-01T00:00:00.000Z']]))).to.equal('RUNNING');
    expect(
      stateOf(
        replay([
          ['OTHER', '2024-01-01T00:00:00.000Z'],
          [null, '2024-01-01T00:00:01.000Z'],
        ]),
      ),
    ).to.equal('NEW');
  });

  it('terminal states are final: a late START or RUNNING does not reopen', () => {
    const t = replay([
      ['START', '2024-01-01T00:00:00.000Z'],
      ['COMPLETE', '2024-01-01T00:01:00.000Z'],
      ['START', '2024-01-01T00:02:00.000Z'],
      ['RUNNING', '2024-01-01T00:03:00.000Z'],
    ]);
    expect(stateOf(t)).to.equal('COMPLETED');
    expect(t.startedAt).to.equal('2024-01-01T00:00:00.000Z');
  });

  it('gives the same result for every arrival order', () => {
    const steps: Step[] = [
      ['START', '2024-01-01T00:00:00.000Z'],
      ['RUNNING', '2024-01-01T00:00:30.000Z'],
      ['OTHER', '2024-01-01T00:00:40.000Z'],
      ['FAIL', '2024-01-01T00:01:00.000Z'],
      ['COMPLETE', '2024-01-01T00:02:00.000Z'],
    ];
    const results = new Set(permutations(steps).map((p) => JSON.stringify(replay(p))));
    expect([...results]).to.deep.equal([
      JSON.stringify({
        startedAt: '2024-01-01T00:00:00.000Z',
        endedAt: '2024-01-01T00:01:00.000Z',
        terminalState: 'FAILED',
      }),
    ]);
  });

  it('breaks a tie between terminal events at the same instant the same way in any order', () => {
    const a = replay([
      ['COMPLETE', '2024-01-01T00:00:00.000Z'],
      ['FAIL', '2024-01-01T00:00:00.000Z'],
    ]);
    const b = replay([
      ['FAIL', '2024-01-01T00:00:00.000Z'],
      ['COMPLETE', '2024-01-01T00:00:00.000Z'],
    ]);
    expect(a).to.deep.equal(b);
  });

  it('has no duration until both ends are known', () => {
    expect(durationMs(replay([['COMPLETE', '2024-01-01T00:00:00.000Z']]))).to.equal(null);
  });
});
