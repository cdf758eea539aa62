/**
 * Turns anything thrown below into a JSON error with a 4xx/5xx status. Client mistakes never become
 * 500s; server faults are logged with their stack and answered without it.
 */
import type { Middleware } from 'koa';
import { HttpError, type ErrorKind } from '../errors.js';
import type { Logger } from '../../logger.js';
import { Neo4jUnavailable } from '../../neo4j/availability.js';
import { QueryCancelled, TransactionDeadlineExceeded } from '../../store/db.js';

interface BodyParserError extends Error {
  status?: number;
  statusCode?: number;
  type?: string;
  expose?: boolean;
  limit?: number;
}

interface Neo4jLikeError extends Error {
  code?: string;
}

const TIMEOUT_CODES = new Set([
  'Neo.ClientError.Transaction.TransactionTimedOut',
  'Neo.ClientError.Transaction.TransactionTimedOutClientConfiguration',
  'Neo.TransientError.Transaction.LockClientStopped',
]);
const UNAVAILABLE_CODES = new Set([
  'ServiceUnavailable',
  'SessionExpired',
  'Neo.TransientError.General.DatabaseUnavailable',
]);

/** The error code of a client error thrown with only a status (docs/api.md, Errors). */
const CODE_OF_STATUS: Record<number, ErrorKind> = {
  404: 'not_found',
  405: 'method_not_allowed',
  413: 'payload_too_large',
  // An unsupported Content-Encoding, from the body parser.
  415: 'unsupported_media_type',
};

export function toHttpError(err: unknown): HttpError | null {
  if (err instanceof HttpError) return err;
  if (err instanceof Neo4jUnavailable) return new HttpError(503, 'unavailable', err.message);
  // The client went away before its answer (nobody reads this one; the request log shows it).
  if (err instanceof QueryCancelled)
    return new HttpError(
      400,
      'bad_request',
      'The client closed the request before its answer; its query was cancelled',
    );
  if (err instanceof TransactionDeadlineExceeded)
    return new HttpError(503, 'unavailable', `The graph database did not answer in time: ${err.message}; retry later`);
  const e = err as BodyParserError & Neo4jLikeError;
  if (!e || typeof e !== 'object') return null;

  switch (e.type) {
    case 'entity.parse.failed':
      return new HttpError(400, 'bad_request', `Malformed JSON body: ${e.message}`);
    case 'entity.too.large':
      return new HttpError(
        413,
        'payload_too_large',
        `Request body exceeds the limit of ${e.limit ?? 'the configured'} bytes`,
      );
    case 'encoding.unsupported':
      return new HttpError(415, 'unsupported_media_type', e.message);
    case 'request.aborted':
    case 'request.size.invalid':
      return new HttpError(400, 'bad_request', e.message);
  }
  if (typeof e.code === 'string') {
    if (TIMEOUT_CODES.has(e.code)) {
      return new HttpError(
        504,
        'timeout',
        'The query took longer than the configured timeout (QUERY_TIMEOUT_MS); narrow it (e.g. a smaller depth) or ' +
          'raise the limit',
      );
    }
    if (UNAVAILABLE_CODES.has(e.code))
      return new HttpError(503, 'unavailable', 'The graph database is unavailable; retry later');
    // A value past Neo4j's index key limit (about 8 KB): the request's names are too long, for good.
    if (e.code === 'Neo.DatabaseError.Statement.ExecutionFailed' && /too large to index/i.test(e.message)) {
      return new HttpError(
        422,
        'limit_exceeded',
        'A name is too long for Neo4j to index (about 8 KB for a key); shorten it (limit: nameBytes)',
        { limits: ['nameBytes'] },
      );
    }
  }
  // zlib failures while inflating a gzip or deflate body (Z_DATA_ERROR, ...) or a brotli one (ERR__ERROR_FORMAT_...).
  if (
    typeof e.code === 'string' &&
    (e.code.startsWith('Z_') || e.code.startsWith('ERR__ERROR_') || e.code.startsWith('ERR_BROTLI'))
  ) {
    return new HttpError(400, 'bad_request', `Could not decompress the request body: ${e.message}`);
  }
  const status = e.status ?? e.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return new HttpError(
      status,
      CODE_OF_STATUS[status] ?? 'bad_request',
      e.expose === false ? 'Bad request' : e.message,
    );
  }
  return null;
}

/**
 * An error of the body parser as an HTTP error: whatever went wrong reading or decoding a request
 * body is the request's fault (400 unless the parser said otherwise), never a 500.
 */
export function bodyError(err: unknown): HttpError {
  // The parser's strict mode refuses a top-level value that is not an object or an array (co-body's words).
  if (err instanceof SyntaxError && err.message.startsWith('invalid JSON, only supports object and array')) {
    return new HttpError(
      400,
      'bad_request',
      'The request body must be a JSON object (or an array of them for a batch), not a bare null, number, string ' +
        'or boolean',
    );
  }
  const known = toHttpError(err);
  if (known) return known;
  return new HttpError(
    400,
    'bad_request',
    `Could not read the request body: ${(err as Error)?.message ?? String(err)}`,
  );
}

export function errorHandler(logger: Logger): Middleware {
  return async (ctx, next) => {
    try {
      await next();
      if (ctx.body === undefined || ctx.body === null) {
        if (ctx.status === 404) {
          throw new HttpError(404, 'not_found', `No endpoint ${ctx.method} ${ctx.path}`);
        }
        if (ctx.status === 405) {
          throw new HttpError(
            405,
            'method_not_allowed',
            `${ctx.method} is not allowed on ${ctx.path}; allowed: ${ctx.response.get('Allow')}`,
          );
        }
        if (ctx.status === 501) {
          // A method no route knows (TRACE, PROPFIND, ...): the client's mistake, not a missing feature.
          throw new HttpError(
            405,
            'method_not_allowed',
            `${ctx.method} is not ` +
              `supported${ctx.response.get('Allow') ? `; allowed on ${ctx.path}: ${ctx.response.get('Allow')}` : ''}`,
          );
        }
      }
    } catch (err) {
      let httpError = toHttpError(err);
      if (!httpError) {
        logger.error({ err, method: ctx.method, path: ctx.path }, 'unhandled error');
        httpError = new HttpError(500, 'internal', 'Internal server error');
      } else if (httpError.status >= 500 && httpError.kind !== 'overloaded') {
        // (Refusals under overload are counted in /metrics and logged by the committer, not per request.)
        logger.warn({ err, method: ctx.method, path: ctx.path }, httpError.message);
      }
      // The request's log line says why (request-log.ts): a producer's operator reads there why events were refused.
      ctx.state.refusal = { error: httpError.kind, reason: truncate(httpError.message, 500) };
      const allow = ctx.response.get('Allow');
      ctx.status = httpError.status;
      ctx.body = httpError.body();
      if (allow) ctx.set('Allow', allow);
      for (const [name, value] of Object.entries(httpError.headers)) ctx.set(name, value);
      if (httpError.status === 503) ctx.set('Retry-After', '1');
    }
  };
}

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
