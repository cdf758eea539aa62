/**
 * CSV answers (RFC 4180): a header row, then one row per item; fields holding a comma, a double quote,
 * CR or LF are quoted, with quotes doubled; lines end with CRLF. null is an empty field; lists and
 * objects are their JSON text (so a list column parses back exactly). Rows are written to the response
 * as they are produced, waiting for the socket to drain, so an answer of any size holds only what is
 * in flight.
 *
 * A text cell that a spreadsheet would run as a formula (it starts with `=`, `+`, `-`, `@`, a tab or a
 * CR) is written with a leading apostrophe, as OWASP advises against CSV injection: dataset and job names
 * come from any producer, and an analyst opening the export in Excel must not run `=HYPERLINK(...)`. A
 * text starting with an apostrophe gets one more, so a client reading the file back removes one leading
 * apostrophe from every text cell (`csvValue`) and has exactly what was sent.
 */
import { PassThrough } from 'node:stream';
import { drained } from './streamed-json.js';
import type { Context } from 'koa';

export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text =
    typeof value === 'string'
      ? value
      : typeof value === 'number' || typeof value === 'boolean'
        ? String(value)
        : JSON.stringify(value);
  const safe = typeof value === 'string' && FORMULA_START.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/**
 * What a spreadsheet reads as the start of a formula (OWASP CSV injection), and the apostrophe itself, so
 * that a text that starts with one is escaped too and `csvValue` is exact.
 */
const FORMULA_START = /^[=+\-@\t\r']/;

/** A text cell as the service meant it: the apostrophe `csvCell` put before a formula start removed. */
export function csvValue(cell: string): string {
  return cell.startsWith(`'`) ? cell.slice(1) : cell;
}

export function csvLine(values: readonly unknown[]): string {
  return `${values.map(csvCell).join(',')}\r\n`;
}

/**
 * Parses CSV text (RFC 4180) into rows of fields: for tests and clients' round trips. Cells are as written;
 * `csvValue` undoes the formula neutralisation.
 */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += c;
  }
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

/**
 * True when the request asks for CSV: `format=csv`, or an Accept header preferring text/csv (`format=json` wins over
 * Accept).
 */
export function wantsCsv(ctx: Context, format: 'json' | 'csv' | undefined): boolean {
  if (format) return format === 'csv';
  return ctx.accepts('application/json', 'text/csv') === 'text/csv';
}

/** What the rows are out of, sent as headers when known before the first row. */
export interface CsvTotals {
  /** `X-Total-Count`: the items there are, of which the answer holds at most its limit. */
  total?: number;
  /** `X-Truncated`: true when the answer holds fewer items than there are. */
  truncated: boolean;
}

export interface CsvWriter<T> {
  /**
   * Writes the header row; the response starts (status 200) when the first write happens. With `totals`,
   * the answer says how many items there are and whether it was cut at its limit (CSV has no room for it).
   */
  begin(totals?: CsvTotals): void;
  row(item: T): void | Promise<void>;
}

/**
 * Answers with CSV produced by `produce`. Errors before `begin()` propagate (the error middleware
 * answers them as JSON with their status: 404, 504, ...); after it the status is sent, so an error
 * ends the stream abruptly and the client sees an incomplete transfer rather than a partial file
 * passed off as whole.
 */
export async function respondCsv<T>(
  ctx: Context,
  filename: string,
  columns: readonly string[],
  toRow: (item: T) => unknown[],
  produce: (out: CsvWriter<T>) => Promise<void>,
): Promise<void> {
  const stream = new PassThrough();
  let begun = false;
  let signalBegun: () => void = () => undefined;
  const started = new Promise<void>((resolve) => (signalBegun = resolve));
  const write = (text: string) => (stream.write(text) ? undefined : drained(stream));
  let totals: CsvTotals | undefined;
  const writer: CsvWriter<T> = {
    begin(given) {
      if (begun) return;
      begun = true;
      totals = given;
      stream.write(csvLine(columns));
      signalBegun();
    },
    row(item) {
      if (!begun) this.begin();
      return write(csvLine(toRow(item)));
    },
  };
  const done = produce(writer).then(() => writer.begin());
  // Whichever comes first: the first row (answer 200 and stream the rest) or the end (success or error).
  await Promise.race([started, done]);
  ctx.status = 200;
  ctx.type = 'text/csv; charset=utf-8; header=present';
  ctx.set('Content-Disposition', `inline; filename="${filename}"`);
  if (totals) {
    if (totals.total !== undefined) ctx.set('X-Total-Count', String(totals.total));
    ctx.set('X-Truncated', String(totals.truncated));
  }
  ctx.body = stream;
  done.then(
    () => stream.end(),
    (err: unknown) => stream.destroy(err instanceof Error ? err : new Error(String(err))),
  );
}
