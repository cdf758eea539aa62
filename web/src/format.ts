/** Display helpers: times in the viewer's zone, durations, short ids. */

export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return d.toLocaleString(undefined, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
}

export function formatDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || Number.isNaN(ms)) return '—';
  // Rounded to what is shown before splitting into units, so no unit reads 60 (59.6 s is 1 min 0 s).
  if (ms < 999.5) return `${Math.round(ms)} ms`;
  if (ms < 9950) return `${(ms / 1000).toFixed(1)} s`;
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${s % 60} s`;
  const h = Math.floor(m / 60);
  if (h < 48) return `${h} h ${m % 60} min`;
  return `${Math.floor(h / 24)} d ${h % 24} h`;
}

export function ago(iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return 'never';
  const ms = now - Date.parse(iso);
  if (Number.isNaN(ms)) return iso;
  if (ms < 0) return 'in the future';
  return `${formatDuration(ms).replace(/ \d+ (s|min|h)$/, '')} ago`;
}

/**
 * A UUID for people: its first 8 and last 4 hex digits (`01a21dc7…9f0a`). UUIDv7 run ids (what the
 * OpenLineage clients make) begin with a timestamp that changes about once a minute, so runs started in
 * the same minute share their first 8 digits; the last ones are random. Other ids are shown whole.
 */
export function shortId(id: string | null | undefined): string {
  if (!id) return '—';
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)
    ? `${id.slice(0, 8)}…${id.slice(-4)}`
    : id;
}

/** A count with its noun, singular for one: `1 column`, `2 columns`. */
export function counted(n: number, noun: string): string {
  return `${n.toLocaleString('en-US')} ${noun}${n === 1 ? '' : 's'}`;
}

/**
 * What data-quality tools reported on a dataset's current version, in a line: the `dataQualityAssertions`
 * facet's results (and which failed) and the `dataQualityMetrics` facet's row count; null when neither is
 * there (or neither says anything readable).
 */
export function qualitySummary(facets: Record<string, unknown> | null | undefined): string | null {
  const parts: string[] = [];
  const assertions = (facets?.dataQualityAssertions as { assertions?: unknown } | undefined)?.assertions;
  if (Array.isArray(assertions) && assertions.length > 0) {
    const checks = assertions as { assertion?: unknown; success?: unknown; column?: unknown }[];
    const failed = checks.filter((a) => a?.success !== true);
    parts.push(`${checks.length - failed.length} of ${counted(checks.length, 'assertion')} passed`);
    if (failed.length > 0) {
      const names = failed.map((a) => `${String(a?.assertion ?? '?')}${a?.column ? ` (${String(a.column)})` : ''}`);
      parts.push(`failed: ${names.join(', ')}`);
    }
  }
  const rowCount = (facets?.dataQualityMetrics as { rowCount?: unknown } | undefined)?.rowCount;
  if (typeof rowCount === 'number') parts.push(counted(rowCount, 'row'));
  return parts.length > 0 ? parts.join('; ') : null;
}

/**
 * The scale of a run duration chart: the longest duration of the finished runs (null: no run has a
 * duration, as for a streaming job that only ever runs), and how many runs have none (still running, or
 * never finished).
 */
export function durationScale(durations: (number | null | undefined)[]): { longest: number | null; open: number } {
  const finished = durations.filter((d): d is number => typeof d === 'number' && Number.isFinite(d) && d >= 0);
  return {
    longest: finished.length > 0 ? Math.max(...finished) : null,
    open: durations.length - finished.length,
  };
}

export interface DatasetName {
  namespace: string;
  name: string;
  /** The symlink identifier's `type` (`TABLE`), when it gives one. */
  type?: string | null;
}

/**
 * A dataset's other names: the `symlinks` facet's identifiers, each once, leaving out the dataset's own
 * name (`primary`).
 */
export function symlinkAliases(
  facets: Record<string, unknown> | null | undefined,
  primary: DatasetName,
): DatasetName[] {
  const ids = (facets?.symlinks as { identifiers?: unknown } | undefined)?.identifiers;
  if (!Array.isArray(ids)) return [];
  const out: DatasetName[] = [];
  for (const i of ids as { namespace?: unknown; name?: unknown; type?: unknown }[]) {
    if (typeof i?.namespace !== 'string' || typeof i.name !== 'string') continue;
    if (i.namespace === primary.namespace && i.name === primary.name) continue;
    if (out.some((o) => o.namespace === i.namespace && o.name === i.name)) continue;
    out.push({ namespace: i.namespace, name: i.name, type: typeof i.type === 'string' ? i.type : null });
  }
  return out;
}

/**
 * The name a dataset page was opened under when it is not the dataset's own (a symlink alias: the API
 * answers with the primary dataset); null when the page was opened under the dataset's name.
 */
export function openedViaAlias(asked: DatasetName, answered: DatasetName): DatasetName | null {
  return asked.namespace === answered.namespace && asked.name === answered.name
    ? null
    : { namespace: asked.namespace, name: asked.name };
}
