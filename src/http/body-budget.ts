/**
 * A process-wide cap on request-body bytes in flight (BODY_BYTES_IN_FLIGHT). BODY_LIMIT bounds one
 * body; the committer's queue and query admission bound how many requests wait; neither bounds the
 * bytes: 256 producers each POSTing an 8 MB event would hold gigabytes at once (the raw bytes, the
 * decoded string, the parsed event, the normalized event in the committer's queue until commit).
 *
 * A request that carries a body reserves its size before the body is read (after its auth, path and
 * Content-Type checks), and holds the reservation until both its handler has finished with the body
 * (a 201 means committed: the event is alive in the committer until then) and its answer is sent or
 * its connection closed. A reservation that would take the total past the budget is refused with
 * 503 `overloaded` + Retry-After and `Connection: close` (the unread body must not be read as the next
 * request). One body is always admitted while nothing else is reserved, so a body up to BODY_LIMIT can
 * always get through an idle service (config.ts also requires the budget to be at least BODY_LIMIT).
 *
 * What a body reserves:
 * - identity with a Content-Length: that length, up front (declaredLengthLimit has already answered
 *   413 past BODY_LIMIT). This is what the OpenLineage clients and curl send by default.
 * - a Content-Encoding (gzip, deflate, br): its compressed Content-Length up front (0 if chunked), then
 *   its inflated bytes as the parser reads them, growing the reservation; a body that cannot grow is
 *   refused there, half-read. Reserving the worst case (BODY_LIMIT, what it may inflate to) up front
 *   would have let only a handful of compressed requests in at once, however small: the Java client
 *   with compression on sends every event gzipped.
 * - identity and chunked (no length; rare: streaming uploads): BODY_LIMIT up front, the most the
 *   parser reads. Counting it as it came would mean failing the parser's read of the request itself,
 *   which can only be done by destroying the socket, so without an answer.
 */
import type { Readable } from 'node:stream';
import type { Context } from 'koa';
import { HttpError } from './errors.js';

/**
 * 12 MiB: one body at the 10 MB BODY_LIMIT, or hundreds of ordinary 1-15 KB events (256 producers hold
 * about 4 MB), at once. A body costs several times its size in memory while it is in flight (the
 * string, the parsed object graph, the facets' JSON, the driver's buffers). With 48 producers of 4 MB
 * events (bench:overload:large; docs/operations.md#memory) 12 MiB peaked at 253 MiB resident, 16 MiB
 * at 302-306, 32 MiB at 420-455, 64 MiB at 773, no cap at 1,225-1,515; no fewer events were accepted
 * with a lower cap (Neo4j's pace bounds them), and accepted events waited less the lower the cap.
 */
export const DEFAULT_BODY_BYTES_IN_FLIGHT = 12 * 1024 * 1024;

export interface BodyBudgetStats {
  /** Requests that reserved body bytes. */
  reserved: number;
  /** Requests refused with 503 because the budget was taken (before or while their body was read). */
  refused: number;
}

/** Bytes held in a BodyBudget by one request. */
export interface Reservation {
  readonly bytes: number;
  /** Takes `more` bytes; false (and nothing taken) when they do not fit, unless `force`d. */
  grow(more: number, force?: boolean): boolean;
  /** Gives every byte back (idempotent). */
  release(): void;
}

export class BodyBudget {
  private bytes = 0;
  readonly stats: BodyBudgetStats = { reserved: 0, refused: 0 };

  /** `limitBytes`: the budget (BODY_BYTES_IN_FLIGHT); 0 turns the cap off (nothing is counted). */
  constructor(readonly limitBytes: number) {}

  /** Body bytes reserved now. */
  get inFlight(): number {
    return this.bytes;
  }

  /** `more` bytes fit beside the `own` already held by the asker: within the budget, or nothing else is held. */
  private fits(more: number, own: number): boolean {
    if (this.bytes === own || this.bytes + more <= this.limitBytes) return true;
    this.stats.refused++;
    return false;
  }

  /** Reserves `bytes`, or null when they would take the total past the budget while something else is held. */
  tryReserve(bytes: number): Reservation | null {
    if (!this.fits(bytes, 0)) return null;
    this.bytes += bytes;
    this.stats.reserved++;
    let held = bytes;
    let released = false;
    return {
      get bytes() {
        return held;
      },
      grow: (more, force = false) => {
        if (released || (!force && !this.fits(more, held))) return false;
        this.bytes += more;
        held += more;
        return true;
      },
      release: () => {
        if (released) return;
        released = true;
        this.bytes -= held;
      },
    };
  }
}

/** The encodings the body parser inflates (the `inflation` package). */
const INFLATED = new Set(['gzip', 'deflate', 'br']);

/** What a request's body reserves before it is read, and whether it grows as it is read; null: no body. */
export function bodyReservation(
  ctx: Context,
  bodyLimitBytes: number,
): { bytes: number; growsWhileRead: boolean } | null {
  const encoding = ctx.get('content-encoding').trim().toLowerCase();
  const declared = ctx.get('content-length');
  const length = /^\d+$/.test(declared) ? Math.min(Number(declared), bodyLimitBytes) : null;
  const chunked = ctx.get('transfer-encoding') !== '';
  if (length === 0 || (length === null && !chunked)) return null;
  if (INFLATED.has(encoding)) return { bytes: length ?? 0, growsWhileRead: true };
  // Any other encoding is refused (415) by the parser before a byte is read.
  if (encoding !== '' && encoding !== 'identity') return { bytes: length ?? 0, growsWhileRead: false };
  return { bytes: length ?? bodyLimitBytes, growsWhileRead: false };
}

function overloaded(budget: BodyBudget, what: string): HttpError {
  return new HttpError(
    503,
    'overloaded',
    `The service is overloaded: request bodies in flight hold ${budget.inFlight} of the ${budget.limitBytes} ` +
      `bytes allowed (BODY_BYTES_IN_FLIGHT), and this one ${what}; retry later`,
    { bodyBytesInFlight: budget.limitBytes },
    // The body is left (partly) unread: closing the connection keeps it from being parsed as the next request.
    { Connection: 'close' },
  );
}

/** A body's reservation, as the route reads the body (body-reading.ts) and handles the request (route.ts). */
export interface BodyHold {
  /** Sees the stream the parser inflates an encoded body through (null: none), before a byte is read. */
  readonly inflating: (inflater: Readable | null) => void;
  /** The body has been read and parsed. */
  read(): void;
  /** The handler is done with the body, whatever the outcome (called on every path). */
  done(): void;
}

const NOTHING_HELD: BodyHold = { inflating: () => undefined, read: () => undefined, done: () => undefined };

/**
 * Reserves the bytes of `ctx`'s body in `budget` before the body is read; throws 503 when the budget is
 * taken. The reservation is released once the handler is done with the body and the answer is
 * finished (or the connection closed): a client that leaves while its event waits for its transaction
 * does not free the event, which the committer still holds. A client that leaves while its body is
 * still being read frees it at once: the read ends there with a 400 nobody reads (for an encoded body
 * too: see body-reading.ts), and nothing parsed is held.
 */
export function reserveBody(budget: BodyBudget, bodyLimitBytes: number, ctx: Context): BodyHold {
  if (budget.limitBytes === 0) return NOTHING_HELD;
  const wanted = bodyReservation(ctx, bodyLimitBytes);
  if (wanted === null) return NOTHING_HELD;
  const reservation = budget.tryReserve(wanted.bytes);
  if (reservation === null) throw overloaded(budget, `needs ${wanted.bytes}`);

  let read = false;
  let handled = false;
  let answered = false;
  let leftUnread = false;
  const settle = () => {
    if ((answered && handled) || leftUnread) reservation.release();
  };
  const res = ctx.res;
  // 'close' follows 'finish', and comes alone when the connection ends first (the client went away,
  // the request timed out).
  const onClose = () => {
    answered = true;
    if (!read && !res.writableFinished) leftUnread = true;
    settle();
  };
  if (res.writableFinished || res.closed) onClose();
  else {
    res.once('finish', () => {
      answered = true;
      settle();
    });
    res.once('close', onClose);
  }
  return {
    inflating: (inflater) => {
      if (wanted.growsWhileRead) countInflated(inflater, reservation, budget, bodyLimitBytes);
    },
    read: () => {
      read = true;
    },
    done: () => {
      handled = true;
      settle();
    },
  };
}

/**
 * Counts the bytes `inflater` inflates as the parser reads them, growing `reservation` with them. A body
 * that cannot grow is refused there: the inflater is destroyed with the 503, which the parser rejects
 * with. When the parser was not seen inflating (inflater null), the body takes BODY_LIMIT at once
 * instead, past the budget if need be.
 */
function countInflated(
  inflater: Readable | null,
  reservation: Reservation,
  budget: BodyBudget,
  bodyLimitBytes: number,
): void {
  if (inflater === null) {
    reservation.grow(Math.max(0, bodyLimitBytes - reservation.bytes), true);
    return;
  }
  let inflated = 0;
  inflater.on('data', (chunk: Buffer) => {
    inflated += chunk.length;
    // Past BODY_LIMIT the parser answers 413 itself.
    const more = Math.min(inflated, bodyLimitBytes) - reservation.bytes;
    if (more > 0 && !reservation.grow(more))
      inflater.destroy(overloaded(budget, `has inflated to ${inflated} bytes so far`));
  });
}
