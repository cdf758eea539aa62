/**
 * Shape validation of an incoming OpenLineage event: the JSON Schema (compiled once, at module load)
 * plus the kind rule. Problems are reported as JSON pointers so a 422 names every failing value.
 */
import { Ajv, type ErrorObject } from 'ajv';
import { EVENT_SCHEMAS, EVENT_TIME_FORMAT } from './event-schema.js';
import type { EventKind, ValidationProblem } from './types.js';
import { utc } from '../utc.js';

// Offsets may be `Z`, `±hh:mm`, `±hhmm` or `±hh`, or absent (read as UTC); the fraction may have any
// number of digits. A space instead of `T` is accepted because some producers log-format their times.
const ISO_DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?\s*([Zz]|[+-]\d{2}(?::?\d{2})?)?$/;

/** Java's ZoneOffset bound; anything beyond is a typo, not a place. */
const MAX_OFFSET_MINUTES = 18 * 60;

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** `Z`, `+02:00`, `+0200`, `-05` → minutes east of UTC; absent → 0; null when out of range. */
function offsetMinutes(zone: string | undefined): number | null {
  if (!zone || zone.toUpperCase() === 'Z') return 0;
  const digits = zone.slice(1).replace(':', '');
  const hours = Number(digits.slice(0, 2));
  const minutes = Number(digits.slice(2, 4) || '0');
  if (minutes > 59) return null;
  const total = hours * 60 + minutes;
  if (total > MAX_OFFSET_MINUTES) return null;
  return zone.startsWith('-') ? -total : total;
}

/**
 * Epoch milliseconds of an ISO-8601 date-time, or null when it is not one. Stricter than Date.parse
 * where that one guesses (Feb 31 is not Mar 2) and more lenient where producers are (no offset,
 * nanosecond fractions, `+0200`). Sub-millisecond digits are truncated, never rounded, so a time
 * never moves into the next second.
 */
export function parseIsoDateTime(text: string): number | null {
  const m = ISO_DATE_TIME.exec(text.trim());
  if (!m) return null;
  const [, y, mo, d, h, mi, s = '0', fraction = '', zone] = m;
  const [year, month, day, hour, minute, second] = [y, mo, d, h, mi, s].map(Number);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  if (hour > 23 || minute > 59 || second > 59) return null;
  const offset = offsetMinutes(zone);
  if (offset === null) return null;
  const millis = Number(fraction.padEnd(3, '0').slice(0, 3));
  return utc(year, month - 1, day, hour, minute, second, millis) - offset * 60_000;
}

const ajv = new Ajv({ allErrors: true, strict: false });
// The last millisecond of year 9999 is the edge histories' "forever" (src/domain/edge-history.ts): an
// event dated then would be read as an observation that never ends, so event times end just before it.
const LAST_EVENT_TIME = Date.parse('9999-12-31T23:59:59.998Z');
ajv.addFormat(EVENT_TIME_FORMAT, {
  type: 'string',
  validate: (s: string) => {
    const at = parseIsoDateTime(s);
    return at !== null && at <= LAST_EVENT_TIME;
  },
});
// Compiled where the OpenAPI document puts it, so its component reference resolves the same way.
const DOCUMENT = 'https://lineage.local/openlineage-components.json';
ajv.addSchema({ $id: DOCUMENT, components: { schemas: EVENT_SCHEMAS } });
const validateSchema = ajv.getSchema(`${DOCUMENT}#/components/schemas/OpenLineageEvent`)!;

const escapePointerToken = (token: string) => token.replace(/~/g, '~0').replace(/\//g, '~1');

function toProblem(e: ErrorObject): ValidationProblem {
  switch (e.keyword) {
    case 'required': {
      const missing = (e.params as { missingProperty: string }).missingProperty;
      return { path: `${e.instancePath}/${escapePointerToken(missing)}`, message: 'is required' };
    }
    case 'enum': {
      const allowed = (e.params as { allowedValues: unknown[] }).allowedValues.filter((v) => v !== null);
      return { path: e.instancePath, message: `must be one of ${allowed.join(', ')}` };
    }
    case 'minLength':
      return { path: e.instancePath, message: 'must not be empty' };
    case 'format':
      return {
        path: e.instancePath,
        message: 'must be an ISO-8601 date-time before 9999-12-31T23:59:59.999Z, e.g. 2024-06-01T10:00:00.000Z',
      };
    default:
      return { path: e.instancePath, message: e.message ?? 'is invalid' };
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The spec's kind rule: run and job → RunEvent; else job without dataset → JobEvent; else dataset → DatasetEvent. */
export function eventKind(body: Record<string, unknown>): EventKind | null {
  const has = (key: string) => body[key] !== undefined;
  if (has('run') && has('job')) return 'run';
  if (has('job') && !has('dataset')) return 'job';
  if (has('dataset')) return 'dataset';
  return null;
}

function kindProblem(body: Record<string, unknown>): ValidationProblem {
  // A run without its job is the common mistake; point at what is missing rather than at the root.
  if (body.run !== undefined) return { path: '/job', message: 'is required: a RunEvent must have both run and job' };
  return { path: '', message: 'the event must have run and job (RunEvent), job (JobEvent) or dataset (DatasetEvent)' };
}

/** Every shape problem of an event body (empty when it can be normalized). */
export function validateShape(body: unknown): ValidationProblem[] {
  if (!isObject(body)) return [{ path: '', message: 'the event must be a JSON object' }];
  const problems: ValidationProblem[] = [];
  const seen = new Set<string>();
  if (!validateSchema(body)) {
    for (const error of validateSchema.errors ?? []) {
      const problem = toProblem(error);
      const key = `${problem.path}\n${problem.message}`;
      if (seen.has(key)) continue;
      seen.add(key);
      problems.push(problem);
    }
  }
  if (eventKind(body) === null) problems.push(kindProblem(body));
  return problems;
}
