/**
 * X-Request-Id: the one a client or proxy sent (if it is a sane token), or a new UUID. Echoed in the
 * response and kept for the request's async context, so every log line of the request names it
 * (logger.ts), and error answers can be matched with the logs.
 */
import crypto from 'node:crypto';
import type { Middleware } from 'koa';
import { requestContext } from '../../logger.js';

/** Printable, no spaces, at most 128 characters: anything else is replaced, never logged as sent. */
const ACCEPTABLE = /^[A-Za-z0-9._:@/+=-]{1,128}$/;

export function requestId(): Middleware {
  return (ctx, next) => {
    const sent = ctx.get('x-request-id');
    const id = ACCEPTABLE.test(sent) ? sent : crypto.randomUUID();
    ctx.state.requestId = id;
    ctx.set('X-Request-Id', id);
    return requestContext.run({ requestId: id }, next);
  };
}
