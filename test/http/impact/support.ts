/** Helpers shared by the impact tests: request paths, CSV round trips, compact views of answers. */
import { expect } from 'chai';
import type { TestApp } from '../../helper.js';
import { csvValue, parseCsv } from '../../../src/http/csv.js';

export { NS, JOB_NS, ds, job, runJob, columnLineageFacet } from '../lineage/support.js';

export function impactPath(params: Record<string, string | number | boolean>, base = '/api/v1/impact'): string {
  return `${base}?${new URLSearchParams(Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)])))}`;
}

/** GET that must answer 200 JSON. */
export async function getImpact(t: TestApp, path: string): Promise<any> {
  const res = await t.get(path);
  expect(res.status, `${decodeURIComponent(path)}: ${res.text}`).to.equal(200);
  return res.body;
}

/** `[id, distance, via]` of every node, in answer order. */
export const tree = (body: any): [string, number, string | null][] =>
  body.nodes.map((n: any) => [n.id, n.distance, n.via]);

/** The CSV answer of `path` as objects keyed by its header (list cells parsed back from JSON). */
export async function getCsv(
  t: TestApp,
  path: string,
  headers: Record<string, string> = { accept: 'text/csv' },
): Promise<{
  header: string[];
  rows: Record<string, unknown>[];
  text: string;
  contentType: string | null;
  /** X-Total-Count and X-Truncated, as sent (null when absent). */
  totals: { total: string | null; truncated: string | null };
}> {
  const res = await t.request('GET', path, { headers });
  expect(res.status, res.text).to.equal(200);
  const [header, ...lines] = parseCsv(res.text);
  const rows = lines.map((line) => Object.fromEntries(header.map((h, i) => [h, decodeCell(line[i])])));
  return {
    header,
    rows,
    text: res.text,
    contentType: res.headers.get('content-type'),
    totals: { total: res.headers.get('x-total-count'), truncated: res.headers.get('x-truncated') },
  };
}

function decodeCell(written: string): unknown {
  const cell = csvValue(written);
  if (cell === '') return null;
  if (/^[[{]/.test(cell)) return JSON.parse(cell);
  if (/^-?\d+$/.test(cell)) return Number(cell);
  return cell;
}

/** A JSON item as it reads back from CSV: lists, numbers and nulls survive; an empty string reads as null. */
export function asCsvRow(item: Record<string, unknown>, columns: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(columns.map((c) => [c, item[c] === undefined || item[c] === '' ? null : item[c]]));
}

/** The cypher/examples/ files tested in examples-shell.test.ts against the endpoints they mirror. */
export const IMPACT_EXAMPLES = ['impact-blast-radius', 'impact-paths', 'impact-root-cause', 'impact-schema-changes'];
