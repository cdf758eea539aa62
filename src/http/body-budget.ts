/**
 * A process-wide cap on request-body bytes in flight (BODY_BYTES_IN_FLIGHT). BODY_LIMIT bounds one
 * body; the committer's queue and query admission bound how many requests wait; neither bounds the
 * bytes: 256 producers each POSTing an 8 MB event would hold gigabytes at once (the raw bytes, the
 * decoded string, the parsed event, the normalized event in the committer's queue until commit).
 *
 * A request that carries a body reserves its size before the body is read (after its auth, path and
 * Content-Type checks), and holds the reservation until both its handler has finished with the body
 * (a 201 means committed: the event is alive in the committer until then) and its answer is sent or
 * its connection closed. A reservation that would take the total past the budget is refused at once
 * with 503 `overloaded` + Retry-After and `Connection: close` (the unread body must not be read as the
 * next request). One body is always admitted while nothing else is reserved, so a body up to
 * BODY_LIMIT can always get through an idle service (config.ts also requires the budget to be at least
 * BODY_LIMIT).
 */
import type { Context } from 'koa';
import { HttpError } from './errors.js';

/**
 * 64 MiB: six bodies at the 10 MB BODY_LIMIT, or thousands of ordinary 1-15 KB events, at once. Each
 * body byte costs several bytes of memory while it is in flight (the raw buffers, the string, the
 * parsed object graph, the normalized event): measured with bench:overload's large-events phase
 * (docs/operations.md#memory), this keeps the service's resident memory near its 300 MiB target
 * where the uncapped service grew past a gigabyte.
 */
export const DEFAULT_BODY_BYTES_IN_FLIGHT = 64 * 1024 * 1024;

export interface BodyBudgetStats {
  /** Requests that reserved body bytes. */
  reserved: number;
  /** Requests refused with 503 because the budget was taken. */
  refused: number;
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

  /**
   * Reserves `bytes` and returns its release (idempotent), or null when they would take the total
   * past the budget while something else is reserved.
   */
  tryReserve(bytes: number): (() => void) | null {
    if (this.bytes > 0 && this.bytes + bytes > this.limitBytes) {
      this.stats.refused++;
      return null;
    }
    this.bytes += bytes;
    this.stats.reserved++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.bytes -= bytes;
    };
  }
}

/**
 * The bytes a request's body may occupy once read. An identity body with a Content-Length: that
 * length (declaredLengthLimit has already answered 413 past BODY_LIMIT). A chunked body, or one with
 * a Content-Encoding (gzip, deflate, br): BODY_LIMIT, the most the parser lets it inflate to. Counting
 * bytes as they are read instead would let such a body in and then refuse it half-read (its transfer
 * wasted), and concurrent large bodies would grow into each other until none could finish; the worst
 * case up front refuses before anything is read. The OpenLineage clients and curl send identity bodies
 * with a Content-Length unless compression is turned on (docs/operations.md#memory).
 */
export function bodyBytesToReserve(ctx: Context, bodyLimitBytes: number): number {
  const encoding = ctx.get('content-encoding').trim().toLowerCase();
  if (encoding !== '' && encoding !== 'identity') return bodyLimitBytes;
  const declared = ctx.get('content-length');
  if (/^\d+$/.test(declared)) return Math.min(Number(declared), bodyLimitBytes);
  if (ctx.get('transfer-encoding') !== '') return bodyLimitBytes;
  return 0;
}

/** A body's reservation, as the route reports its progress (route.ts). */
export interface BodyHold {
  /** The body is read and parsed: the handler holds it from now on. */
  read(): void;
  /** The handler is done with the body, whatever the outcome (called on every path). */
  done(): void;
}

const NOTHING_HELD: BodyHold = { read: () => undefined, done: () => undefined };

/**
 * Reserves the bytes of `ctx`'s body in `budget` before the body is read; throws 503 when the budget is
 * taken. The reservation is released once the handler is done with the body and the answer is
 * finished (or the connection closed): a client that leaves while its event waits for its transaction
 * does not free the event, which the committer still holds. A client that leaves while its body is
 * still being read frees it at once: the read ends there (or never ends: the gzip inflater the body
 * parser pipes the request into is not told of an aborted request), and nothing parsed is held.
 */
export function reserveBody(budget: BodyBudget, bodyLimitBytes: number, ctx: Context): BodyHold {
  if (budget.limitBytes === 0) return NOTHING_HELD;
  const bytes = bodyBytesToReserve(ctx, bodyLimitBytes);
  if (bytes === 0) return NOTHING_HELD;
  const release = budget.tryReserve(bytes);
  if (release === null) {
    throw new HttpError(
      503,
      'overloaded',
      `The service is overloaded: request bodies in flight hold ${budget.inFlight} of the ${budget.limitBytes} ` +
        `bytes allowed (BODY_BYTES_IN_FLIGHT), and this one may need ${bytes}; retry later`,
      { bodyBytesInFlight: budget.limitBytes },
      // The body is left unread: closing the connection keeps it from being parsed as the next request.
      { Connection: 'close' },
    );
  }
  let read = false;
  let handled = false;
  let answered = false;
  let leftUnread = false;
  const settle = () => {
    if ((answered && handled) || leftUnread) release();
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
    read: () => {
      read = true;
    },
    done: () => {
      handled = true;
      settle();
    },
  };
}
