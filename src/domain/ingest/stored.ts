/**
 * What the read statement of an ingest batch returns, as the planner folds the batch onto it (src/store/ingest.ts
 * builds it).
 */
import type { RunTimes } from '../run-state.js';
import type { StoredEdge } from '../edge-plan.js';
import type { AliasMap } from './aliases.js';

/** A run as stored before this transaction (runs-prepare.cypher). */
export interface StoredRun {
  times: RunTimes;
  /** ISO; null for a run this batch creates. */
  createdAt: string | null;
  /** The run's newest own eventTime so far (null: no event of its own yet, e.g. only named as a parent). */
  lastEventAt: string | null;
  jobNamespace: string | null;
  jobName: string | null;
  jobVersion: string | null;
  stamps: string[] | null;
  /** The stored job facets its version depends on (JSON or null). */
  code: { sourceCodeLocation: string | null; sql: string | null; jobType: string | null };
  reads: { namespace: string; name: string; at: string | null; stamps: string[] | null }[];
  writes: { namespace: string; name: string; createdAt: string | null; stamps: string[] | null }[];
}

export const NEW_RUN: StoredRun = {
  times: { startedAt: null, endedAt: null, terminalState: null },
  createdAt: null,
  lastEventAt: null,
  jobNamespace: null,
  jobName: null,
  jobVersion: null,
  stamps: null,
  code: { sourceCodeLocation: null, sql: null, jobType: null },
  reads: [],
  writes: [],
};

export interface StoredState {
  runs: Map<string, StoredRun>;
  aliases: AliasMap;
  /** facetStamps of each mentioned primary dataset that exists, by datasetKey. */
  datasetStamps: Map<string, readonly string[]>;
  /** facetStamps of each job of the batch, by jobKey. */
  jobStamps: Map<string, readonly string[]>;
  /** Every lineage edge of each job of the batch, by jobKey. */
  edges: Map<string, StoredEdge[]>;
}
