/**
 * The kinds of path and query parameters, declared as JSON Schema (TypeBox) so one declaration gives
 * the parameter's validation, its TypeScript type, its decoded value and its OpenAPI description.
 *
 * Query strings are text: route.ts reads each declared parameter as its schema says (an integer is
 * `-?\d+`, a boolean `true`/`false`, an enum any case, a list comma-separated or repeated; empty means
 * absent, and a parameter given twice is a 400 unless it is a list), fills in defaults, validates the
 * result with ajv, and finally decodes formatted strings (times, durations, node ids) into the values
 * handlers use, with the `decode` function attached to the schema here.
 */
import { Type, type TSchema, type TUnsafe } from '@sinclair/typebox';
import { NodeIdError, parseNodeId, type ParsedNodeId } from '../domain/node-id.js';
import { minus, parseDuration, type Duration } from '../domain/duration.js';
import { serviceRunId } from '../domain/openlineage/normalize.js';
import { isUuid } from '../domain/uuid-v5.js';
import { utc } from '../domain/utc.js';

/** Symbol key of the function turning a valid formatted string into its value (never serialized). */
export const DECODE = Symbol('decode');

export interface FormatSpec {
  /** null when `raw` is valid; otherwise what is wrong, to follow "Query parameter 'x' ". */
  problem(raw: string): string | null;
}

const DATE_TIME = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?)(Z|[+-]\d{2}:?\d{2})?)?$/i;

/** An ISO 8601 time (an offset or Z; none means UTC, as for event times; a bare date is its midnight UTC). */
export function parseInstant(raw: string): Date | null {
  const m = DATE_TIME.exec(raw.trim());
  // A day the month does not have (30 February) is refused: Date.parse would roll it into March.
  if (!m || parseCalendarDate(m[1]) === null) return null;
  // Sub-millisecond digits are dropped: Date does not parse them everywhere.
  const time = Date.parse(`${m[1]}T${(m[2] ?? '00:00:00').replace(/(\.\d{3})\d+/, '$1')}${m[3] ?? 'Z'}`);
  return Number.isNaN(time) ? null : new Date(time);
}

/** A `YYYY-MM-DD` calendar date → its midnight UTC, or null. */
export function parseCalendarDate(raw: string): Date | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(raw);
  if (!m) return null;
  const d = new Date(utc(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3])
    ? d
    : null;
}

/** An IANA zone id in its canonical spelling (`europe/paris` → `Europe/Paris`; UTC for Etc/UTC), or null. */
export function canonicalTimeZone(raw: string): string | null {
  try {
    const zone = new Intl.DateTimeFormat('en-US', { timeZone: raw.trim() }).resolvedOptions().timeZone;
    return zone === 'Etc/UTC' || zone === 'Etc/GMT' ? 'UTC' : zone;
  } catch {
    return null;
  }
}

/** `since`: a time, or a duration back from now (P1D). */
function parseSince(raw: string, now = Date.now()): Date | null {
  if (/^P/i.test(raw.trim())) {
    const d = parseDuration(raw);
    return d ? new Date(minus(now, d)) : null;
  }
  return parseInstant(raw);
}

/** Custom string formats, by name (registered with route.ts's ajv; named as such in the OpenAPI document). */
/** A time with a space where its offset's `+` was: a `+` in a URL query is read as a space. */
function plusHint(raw: string): string {
  return /\d \d{2}(:?\d{2})?$/.test(raw) ? ` (a '+' in a URL query reads as a space: write it %2B)` : '';
}

export const FORMATS: Record<string, FormatSpec> = {
  uuid: { problem: (raw) => (isUuid(raw) ? null : `must be a UUID, got '${raw}'`) },
  'node-id': {
    problem(raw) {
      try {
        parseNodeId(raw);
        return null;
      } catch (err) {
        if (err instanceof NodeIdError) return `is not a node id: ${err.message}`;
        throw err;
      }
    },
  },
  instant: {
    problem: (raw) =>
      parseInstant(raw) ? null : `must be an ISO 8601 time such as 2024-05-01T12:00:00Z, got '${raw}'${plusHint(raw)}`,
  },
  'calendar-date': { problem: (raw) => (parseCalendarDate(raw) ? null : `must be a date YYYY-MM-DD, got '${raw}'`) },
  window: {
    problem: (raw) =>
      raw.toLowerCase() === 'all' || parseDuration(raw)
        ? null
        : `must be an ISO 8601 duration such as P30D or PT12H, or 'all', got '${raw}'`,
  },
  since: {
    problem: (raw) =>
      parseSince(raw)
        ? null
        : `must be an ISO 8601 time (2024-05-01T12:00:00Z) or duration (P1D, PT6H), got '${raw}'${plusHint(raw)}`,
  },
  'time-zone': {
    problem: (raw) =>
      canonicalTimeZone(raw) ? null : `must be a time zone id such as UTC or Europe/Paris, got '${raw}'`,
  },
};

/** A string parameter of a custom format, typed and decoded as T. */
function formatted<T>(
  format: keyof typeof FORMATS & string,
  decode: (raw: string) => T,
  options: Record<string, unknown> = {},
): TUnsafe<T> {
  return Type.Unsafe<T>({ type: 'string', format, ...options, [DECODE]: decode });
}

const unwrap = <T>(v: T | null): T => v as T;

export const Param = {
  /** An integer within bounds; `default` when absent or empty. */
  integer: (options: { minimum: number; maximum: number; default?: number; description?: string }) =>
    Type.Integer(options),
  /** `true` or `false`, any case. */
  boolean: (options: { default?: boolean; description?: string } = {}) => Type.Boolean(options),
  /** One of `values`, in any case (answered in the case declared). */
  oneOf: <const V extends readonly string[]>(values: V, options: { default?: V[number]; description?: string } = {}) =>
    Type.Unsafe<V[number]>({ type: 'string', enum: [...values], ...options }),
  /** Any of `values`, comma-separated or repeated, in any case. */
  listOf: <const V extends readonly string[]>(values: V, options: { description?: string } = {}) =>
    Type.Unsafe<V[number][]>({
      type: 'array',
      items: { type: 'string', enum: [...values] },
      ...options,
      description: `${options.description ?? ''} Comma-separated or repeated.`.trim(),
    }),
  /** A string with no other rule than its length; blank counts as absent. */
  text: (options: { maxLength?: number; description?: string; examples?: string[] } = {}) =>
    Type.String({ ...options }),
  uuid: (description?: string) => formatted('uuid', (raw) => raw.toLowerCase(), { description }),
  nodeId: (
    description = 'A lineage node id: `dataset:<namespace>:<name>`, `job:<namespace>:<name>` or ' +
      '`datasetField:<namespace>:<dataset>:<field>`, optionally `#<version>`',
  ) => formatted<ParsedNodeId>('node-id', parseNodeId, { description, examples: ['dataset:<namespace>:<name>'] }),
  instant: (description: string) =>
    formatted<Date>('instant', (raw) => unwrap(parseInstant(raw)), { description, examples: ['2024-05-01T12:00:00Z'] }),
  calendarDate: (description: string) =>
    formatted<Date>('calendar-date', (raw) => unwrap(parseCalendarDate(raw)), {
      description,
      examples: ['2024-05-01'],
    }),
  /** `window`: a duration, or `all` (decoded as null). */
  window: () =>
    formatted<Duration | null>('window', (raw) => (raw.toLowerCase() === 'all' ? null : unwrap(parseDuration(raw))), {
      description:
        "How far back edges count: an ISO 8601 duration (P30D, PT12H) or `all`. Default: the service's LINEAGE_WINDOW.",
      examples: ['P30D'],
    }),
  since: (description: string) =>
    formatted<Date>('since', (raw) => unwrap(parseSince(raw)), { description, examples: ['P1D'] }),
  timeZone: (description: string) =>
    formatted<string>('time-zone', (raw) => unwrap(canonicalTimeZone(raw)), {
      description,
      examples: ['Europe/Paris'],
    }),
  /** A run id as its producer sent it: a UUID, or any other string (stored under a name-based UUID). */
  runId: (options: { maxLength?: number; description?: string } = {}) =>
    Type.Unsafe<string>({ type: 'string', minLength: 1, pattern: '\\S', ...options, [DECODE]: serviceRunId }),
};

/** True when the schema is one that `Param` decodes into another value. */
export const decoderOf = (schema: TSchema): ((raw: string) => unknown) | undefined =>
  (schema as { [DECODE]?: (raw: string) => unknown })[DECODE];
