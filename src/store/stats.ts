/** Time-bucketed counts: lineage events by type, cumulative jobs, datasets and sources. */
import type { IntervalMetric, LineageMetric } from '../api/types.js';
import type { Db } from './db.js';
import { toMetric } from './mappers.js';

export const PERIODS = ['DAY', 'WEEK'] as const;
export type Period = (typeof PERIODS)[number];
export const STAT_KINDS = ['jobs', 'datasets', 'sources'] as const;

export class StatsRepository {
  constructor(private readonly db: Db) {}

  async lineageEvents(period: Period, timezone: string, now = new Date()): Promise<LineageMetric[]> {
    const res = await this.db.query('stats/lineage-events', { period, timezone, now: now.toISOString() });
    return res.records.map((r) => toMetric<LineageMetric>(r.toObject()));
  }

  async counts(
    kind: (typeof STAT_KINDS)[number],
    period: Period,
    timezone: string,
    now = new Date(),
  ): Promise<IntervalMetric[]> {
    const res = await this.db.query(`stats/${kind}`, { period, timezone, now: now.toISOString() });
    return res.records.map((r) => toMetric<IntervalMetric>(r.toObject()));
  }
}
