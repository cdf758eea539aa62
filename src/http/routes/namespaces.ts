import Router from '@koa/router';
import type { Context } from 'koa';
import type { Services } from '../context.js';
import { HttpError, badRequest, notFound, unprocessable } from '../errors.js';
import { pageParams } from '../pagination.js';

/**
 * The JSON object body of a PUT: 415 for another content type, 400 when absent or not an object.
 * (Malformed JSON is answered 400 by the body parser.)
 */
export function jsonObjectBody(ctx: Context, example: string): Record<string, unknown> {
  if (!ctx.is('application/json', '+json')) {
    throw new HttpError(415, 'unsupported_media_type', `Content-Type must be application/json, got '${ctx.get('content-type') || 'none'}'`);
  }
  const raw = (ctx.request as unknown as { rawBody?: string }).rawBody;
  const body = (ctx.request as unknown as { body?: unknown }).body;
  if (raw === undefined || raw.trim() === '') throw badRequest(`The request body is empty; expected a JSON object such as ${example}`);
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw badRequest(`The request body must be a JSON object such as ${example}`);
  return body as Record<string, unknown>;
}

/** An optional string field of a body: absent or null → null; anything but a string → 422. */
export function optionalString(body: Record<string, unknown>, field: string): string | null {
  const v = body[field];
  if (v === undefined || v === null) return null;
  if (typeof v !== 'string') throw unprocessable(`Field '${field}' must be a string or null`, { errors: [`${field} must be a string`] });
  return v;
}

export function namespacesRouter({ namespaces }: Services): Router {
  const router = new Router();
  router.get('/namespaces', async (ctx) => {
    const { limit, offset } = pageParams(ctx.query);
    const page = await namespaces.list(offset, limit);
    ctx.body = { namespaces: page.items, totalCount: page.totalCount };
  });
  router.get('/namespaces/:namespace', async (ctx) => {
    const ns = await namespaces.get(ctx.params.namespace);
    if (!ns) throw notFound(`Namespace '${ctx.params.namespace}' not found.`);
    ctx.body = ns;
  });
  router.put('/namespaces/:namespace', async (ctx) => {
    const body = jsonObjectBody(ctx, '{"ownerName": "me", "description": "..."}');
    const ownerName = body.ownerName;
    if (typeof ownerName !== 'string' || ownerName.trim() === '') {
      throw unprocessable("Field 'ownerName' is required and must be a non-empty string", { errors: ['ownerName must not be blank'] });
    }
    const description = optionalString(body, 'description');
    ctx.body = await namespaces.upsert(ctx.params.namespace, ownerName, description);
  });
  router.delete('/namespaces/:namespace', async (ctx) => {
    const ns = await namespaces.softDelete(ctx.params.namespace);
    if (!ns) throw notFound(`Namespace '${ctx.params.namespace}' not found.`);
    ctx.body = ns;
  });
  return router;
}
