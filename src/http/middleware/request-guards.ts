/**
 * Checks made on a request's headers before anything reads its body: cheap refusals of requests
 * that could only waste a socket or change state on a browser's say-so.
 */
import type { Middleware } from 'koa';
import { HttpError } from '../errors.js';
import { EVENT_LIMITS } from '../../domain/openlineage/limits.js';

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * A declared Content-Length above the body limit is refused at once (413, connection closed),
 * without waiting for a body that may never come: the body parser would truncate a length such as
 * 2^40 to 32 bits and hold the socket until the request timeout.
 */
export function declaredLengthLimit(limitBytes: number): Middleware {
  return async (ctx, next) => {
    const declared = ctx.get('content-length');
    if (declared !== '' && /^\d+$/.test(declared) && Number(declared) > limitBytes) {
      // The unread body must not be taken for the next request on this connection.
      ctx.set('Connection', 'close');
      throw new HttpError(
        413,
        'payload_too_large',
        `Request body of ${declared} bytes exceeds the limit of ${limitBytes} bytes (BODY_LIMIT)`,
        {
          limit: limitBytes,
        },
      );
    }
    await next();
  };
}

/** `application/json` or `application/<anything>+json`, with any parameters (charset). */
export function isJsonType(contentType: string): boolean {
  const media = contentType.split(';')[0].trim().toLowerCase();
  return media === 'application/json' || (media.startsWith('application/') && media.endsWith('+json'));
}

const hasBody = (ctx: Parameters<Middleware>[0]) => {
  const length = ctx.get('content-length');
  return (length !== '' && length !== '0') || ctx.get('transfer-encoding') !== '';
};

/**
 * Whether a browser sends this state-changing request only after a CORS preflight: a method other
 * than POST, a JSON Content-Type, or a key header (none of them CORS-safelisted). A bodiless POST
 * without a key can be sent by any page (`mode: 'no-cors'`), preflight or not.
 */
const preflighted = (ctx: Parameters<Middleware>[0]) =>
  ctx.method !== 'POST' ||
  isJsonType(ctx.get('content-type')) ||
  ctx.get('authorization') !== '' ||
  ctx.get('x-api-key') !== '';

/**
 * State-changing requests (POST, PUT, PATCH, DELETE) carry JSON or nothing. A cross-site HTML form
 * or `fetch(…, {mode: 'no-cors'})` can only send form or text content types, and a browser says
 * where a request comes from in `Sec-Fetch-Site`: without this, any web page a user of the service
 * visits could tag a dataset `PII` or delete a job. Tools (curl, the OpenLineage clients) send no
 * `Sec-Fetch-Site`; a page served from this service's own origin sends `same-origin`.
 *
 * A page on an origin of `corsOrigins` (CORS_ORIGINS, `*`: any) is let through when its request is
 * one a browser sends only after a CORS preflight, which the service answers for those origins
 * alone: such a page may call the API, writes included, as CORS_ORIGINS says.
 */
export function stateChangingRequests(corsOrigins: readonly string[] = []): Middleware {
  const corsAllows = (origin: string) => origin !== '' && (corsOrigins.includes('*') || corsOrigins.includes(origin));
  return async (ctx, next) => {
    if (STATE_CHANGING.has(ctx.method)) {
      const site = ctx.get('sec-fetch-site').toLowerCase();
      if ((site === 'cross-site' || site === 'same-site') && !(corsAllows(ctx.get('origin')) && preflighted(ctx))) {
        throw new HttpError(
          403,
          'forbidden',
          `${ctx.method} requests from another site's web page are refused (Sec-Fetch-Site: ${site})`,
        );
      }
      const type = ctx.get('content-type');
      if (type !== '' ? !isJsonType(type) : hasBody(ctx)) {
        throw new HttpError(
          415,
          'unsupported_media_type',
          `${ctx.method} takes a JSON body (Content-Type: application/json) or none, got ` +
            `'${type || 'a body without Content-Type'}'`,
        );
      }
      // Names in the path (namespace, tag) become index keys: Neo4j cannot index one past about 8 KB.
      for (const segment of ctx.path.split('/')) {
        if (segment.length <= EVENT_LIMITS.nameBytes / 3) continue;
        let decoded: string;
        try {
          decoded = decodeURIComponent(segment);
        } catch {
          throw new HttpError(400, 'bad_request', 'The path is not valid percent-encoded UTF-8');
        }
        if (Buffer.byteLength(decoded) > EVENT_LIMITS.nameBytes) {
          throw new HttpError(
            422,
            'limit_exceeded',
            `A name in the path is ${Buffer.byteLength(decoded)} bytes long; names may have at most ` +
              `${EVENT_LIMITS.nameBytes} bytes (UTF-8) (limit: nameBytes)`,
            {
              limits: ['nameBytes'],
            },
          );
        }
      }
    }
    await next();
  };
}
