/**
 * The impact view's data: GET /api/v1/impact (the service's blast radius, docs/impact.md) for the
 * table, and the same question as CSV for the download.
 */
import { api, type ImpactQuery } from './client';
import { impactRows, impactSummary, type ImpactRow, type ImpactSummaryView } from '../impact';
import type { BlastRadius } from './types';

/** Rows the table shows at most (the nearest); the CSV download has every node reached. */
export const VIEW_LIMIT = 1000;
/** The service's largest `limit`. */
const MAX_LIMIT = 1_000_000;

export interface ImpactAnswer {
  answer: BlastRadius;
  rows: ImpactRow[];
  summary: ImpactSummaryView;
}

export type ImpactRequest = Omit<ImpactQuery, 'limit'>;

/** `limit`: rows for the table (the nearest), at most VIEW_LIMIT. */
export async function fetchImpact(q: ImpactRequest, limit = VIEW_LIMIT, signal?: AbortSignal): Promise<ImpactAnswer> {
  const answer = await api.impact({ ...q, limit: Math.min(Math.max(limit, 1), VIEW_LIMIT) }, signal);
  return { answer, rows: impactRows(answer), summary: impactSummary(answer) };
}

/** The service's CSV of the same question, sized to hold every node the table's answer counted. */
export function fetchImpactCsv(q: ImpactRequest, total: number): Promise<string> {
  return api.impactCsv({ ...q, limit: Math.min(Math.max(total, 1), MAX_LIMIT) });
}
