/**
 * An AbortSignal for a request's work that the client stops waiting for: it aborts when the
 * connection closes before the response was sent (the client disconnected or timed out), so the
 * query behind it is ended in Neo4j instead of running on for nobody.
 */
import type { Context } from 'koa';

export function clientGone(ctx: Context): AbortSignal {
  const controller = new AbortController();
  const res = ctx.res;
  const onClose = () => {
    if (!res.writableFinished) controller.abort(new Error('the client closed the request'));
  };
  if (res.closed || ctx.req.destroyed) onClose();
  else res.once('close', onClose);
  return controller.signal;
}
