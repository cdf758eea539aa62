/**
 * The history of a dataset-level lineage edge: a dataset `INPUT_TO` a job, or a job `PRODUCES` a
 * dataset. Edges accumulate over every run and JobEvent of the job; nothing a run did not mention
 * removes one. What an edge remembers is enough to answer "was this edge part of the graph at time T,
 * looking back a window W?" with a predicate on the edge alone (so the lineage walk stays a pruning
 * breadth-first expand), and every value is a pure function of the set of events: the same whatever
 * the order or the number of deliveries.
 *
 * Observation. A run observes each of its inputs (outputs) from the first event of the run that
 * mentions it until the run's last event, so a run that is still alive keeps its I/O observed, and
 * a COMPLETE that does not repeat the inputs of the START still counts them (the spec's rule). A
 * JobEvent observes its declared I/O at its eventTime.
 *
 * Spans. The observed times of an edge are kept as spans: observations less than SPAN_GAP_MS apart
 * are one span. Spans only grow (an event can only add observations), so they do not depend on order.
 *
 * The rule at time T with window W: the edge counts when a span overlaps [T - W, T] (seen in the
 * window), or when the edge was among the job's latest known I/O at T: no other edge of the job in the
 * same direction was observed after the edge's last observation up to T. The second part keeps a
 * monthly job's edges between its runs, and keeps a predecessor's outputs when a run fails before
 * knowing its own (a run with no outputs observes no output edge, so it displaces none). It is stored
 * as `heldUntil`, one time per span: until when the edge stays the job's latest I/O after that span
 * (FOREVER: still is). Both parts are exact for windows of at least SPAN_GAP_MS; a shorter window
 * sees an edge observed within a day of it.
 */

/** Observations this close (ms) are one span: one day. */
export const SPAN_GAP_MS = 24 * 60 * 60 * 1000;
/** `heldUntil` of a span after which the edge is still among its job's latest I/O (Neo4j lists hold no null). */
export const FOREVER = Date.parse('9999-12-31T23:59:59.999Z');

export interface Span {
  /** Epoch ms. */
  from: number;
  to: number;
}

export interface EdgeHistory {
  firstSeenAt: number;
  lastSeenAt: number;
  /** The run of the latest observation (null: a JobEvent), ties to the greater run id. */
  lastRunId: string | null;
  lastRunState: string | null;
  /** Sorted, disjoint, more than SPAN_GAP_MS apart. */
  spans: Span[];
  /** One per span. */
  heldUntil: number[];
}

/** `spans` (sorted, merged) with `add` merged in. */
export function addSpan(spans: readonly Span[], add: Span): Span[] {
  return merged([...spans, add]);
}

/** Any spans, sorted and merged. */
function merged(spans: Span[]): Span[] {
  const all = spans.sort((a, b) => a.from - b.from || a.to - b.to);
  const out: Span[] = [];
  for (const s of all) {
    const last = out[out.length - 1];
    if (last && s.from - last.to <= SPAN_GAP_MS) last.to = Math.max(last.to, s.to);
    else out.push({ ...s });
  }
  return out;
}

const runOrder = (id: string | null) => id ?? '';

/**
 * The edge after one more observation by `runId` (null: a JobEvent). `lastRunState` is left to the
 * caller, who knows the state of the runs it observed with (`heldUntil` too: see withHeldUntil).
 */
export function observe(prev: EdgeHistory | null, span: Span, runId: string | null): EdgeHistory {
  if (!prev)
    return {
      firstSeenAt: span.from,
      lastSeenAt: span.to,
      lastRunId: runId,
      lastRunState: null,
      spans: [{ ...span }],
      heldUntil: [],
    };
  const later =
    span.to > prev.lastSeenAt || (span.to === prev.lastSeenAt && runOrder(runId) > runOrder(prev.lastRunId));
  return {
    firstSeenAt: Math.min(prev.firstSeenAt, span.from),
    lastSeenAt: Math.max(prev.lastSeenAt, span.to),
    lastRunId: later ? runId : prev.lastRunId,
    lastRunState: later ? null : prev.lastRunState,
    spans: addSpan(prev.spans, span),
    heldUntil: prev.heldUntil,
  };
}

/**
 * `heldUntil` of every span of every edge of one job in one direction. The job's own observed time
 * (all its edges' spans merged) says when it last reported I/O in that direction: a span that ends
 * inside a stretch of the job's activity was followed by other observations within SPAN_GAP_MS, so it
 * is held no further (its own end); a span ending a stretch is held until the next stretch starts.
 */
export function withHeldUntil<T extends EdgeHistory>(edges: T[]): T[] {
  const activity = merged(edges.flatMap((e) => e.spans));
  return edges.map((e) => ({
    ...e,
    heldUntil: e.spans.map((s) => {
      const i = activity.findIndex((a) => a.from <= s.to && s.to <= a.to);
      if (i >= 0 && s.to < activity[i].to) return s.to;
      return activity[i + 1]?.from ?? FOREVER;
    }),
  }));
}

/** True when the edge is among its job's latest known I/O now. */
export function isCurrent(e: EdgeHistory): boolean {
  return e.heldUntil[e.heldUntil.length - 1] === FOREVER;
}

/**
 * The rule itself, as the lineage query evaluates it (cypher/lineage/graph.cypher): does the edge
 * belong to the graph at `asOf`, looking back to `windowStart` (asOf - W; -Infinity for all history)?
 */
export function inView(e: Pick<EdgeHistory, 'spans' | 'heldUntil'>, asOf: number, windowStart: number): boolean {
  return e.spans.some((s, i) => s.from <= asOf && (s.to >= windowStart || e.heldUntil[i] > asOf));
}

/** Order-independent equality of two histories (to write only the edges that changed). */
export function sameHistory(a: EdgeHistory, b: EdgeHistory): boolean {
  return (
    a.firstSeenAt === b.firstSeenAt &&
    a.lastSeenAt === b.lastSeenAt &&
    a.lastRunId === b.lastRunId &&
    a.lastRunState === b.lastRunState &&
    a.spans.length === b.spans.length &&
    a.spans.every((s, i) => s.from === b.spans[i].from && s.to === b.spans[i].to) &&
    a.heldUntil.length === b.heldUntil.length &&
    a.heldUntil.every((h, i) => h === b.heldUntil[i])
  );
}
