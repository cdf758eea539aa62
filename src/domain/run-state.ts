/**
 * The run state machine. A run's state is a function of the *set* of events seen for it, not of their
 * arrival order: `startedAt` is the earliest START/RUNNING time, and the earliest terminal event (by
 * eventTime) decides the final state. A late START therefore never reopens a finished run, and
 * COMPLETE-before-START ends in the same place as in-order delivery.
 */
import type { EventType } from './openlineage/types.js';

export type TerminalState = 'COMPLETED' | 'FAILED' | 'ABORTED';
export type RunState = 'NEW' | 'RUNNING' | TerminalState;
export const RUN_STATES: readonly RunState[] = ['NEW', 'RUNNING', 'COMPLETED', 'FAILED', 'ABORTED'];

export interface RunTimes {
  /** ISO-8601 UTC, earliest START/RUNNING eventTime. */
  startedAt: string | null;
  /** ISO-8601 UTC, eventTime of the terminal event that decided the state. */
  endedAt: string | null;
  terminalState: TerminalState | null;
}

export const NO_TIMES: RunTimes = { startedAt: null, endedAt: null, terminalState: null };

const TERMINAL: Partial<Record<EventType, TerminalState>> = { COMPLETE: 'COMPLETED', FAIL: 'FAILED', ABORT: 'ABORTED' };
/** Tie-break for two terminal events with the same eventTime, so the result never depends on order. */
const TERMINAL_RANK: Record<TerminalState, number> = { FAILED: 3, ABORTED: 2, COMPLETED: 1 };

export function isTerminal(eventType: EventType | null): boolean {
  return eventType !== null && TERMINAL[eventType] !== undefined;
}

const ms = (iso: string) => Date.parse(iso);

export function applyEvent(prev: RunTimes, eventType: EventType | null, eventTime: string): RunTimes {
  if (eventType === 'START' || eventType === 'RUNNING') {
    if (prev.startedAt === null || ms(eventTime) < ms(prev.startedAt)) return { ...prev, startedAt: eventTime };
    return prev;
  }
  const terminal = eventType ? TERMINAL[eventType] : undefined;
  if (terminal) {
    if (prev.endedAt === null || prev.terminalState === null)
      return { ...prev, endedAt: eventTime, terminalState: terminal };
    const t = ms(eventTime);
    const p = ms(prev.endedAt);
    if (t < p || (t === p && TERMINAL_RANK[terminal] > TERMINAL_RANK[prev.terminalState])) {
      return { ...prev, endedAt: eventTime, terminalState: terminal };
    }
  }
  // OTHER, absent eventType, or a later terminal event: nothing changes.
  return prev;
}

export function stateOf(times: RunTimes): RunState {
  if (times.terminalState) return times.terminalState;
  return times.startedAt ? 'RUNNING' : 'NEW';
}

export function durationMs(times: RunTimes): number | null {
  if (!times.startedAt || !times.endedAt) return null;
  return Math.max(0, ms(times.endedAt) - ms(times.startedAt));
}
