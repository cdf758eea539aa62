import Router from '@koa/router';
import { Type } from '@sinclair/typebox';
import type { Services } from '../../services.js';
import { notFound } from '../errors.js';
import { pageQuery } from '../pagination.js';
import { routes, type RouteRuntime } from '../route.js';
import { Namespace, NamespaceList, Nullable } from '../../api/schemas.js';

export const NamespaceParams = {
  namespace: Type.String({ description: 'The namespace name (URL-encoded: names hold slashes and colons)' }),
};

/** PUT /namespaces/{namespace}: the owner is required and not blank; the description may be null. */
export const NamespaceMeta = Type.Object(
  { ownerName: Type.String({ minLength: 1, pattern: '\\S' }), description: Type.Optional(Nullable(Type.String())) },
  { examples: [{ ownerName: 'data-team', description: 'Analytics jobs' }] },
);

export function namespacesRouter({ namespaces }: Services, runtime: RouteRuntime): Router {
  const router = new Router();
  const declare = routes(runtime, router);
  const missing = (name: string) => notFound(`Namespace '${name}' not found.`);
  declare({
    method: 'GET',
    path: '/namespaces',
    operationId: 'listNamespaces',
    summary: 'List namespaces',
    tags: ['Namespaces'],
    scope: 'read',
    query: pageQuery(),
    success: { status: 200, description: 'One page of namespaces, by name', schema: NamespaceList },
    handler: async ({ query }) => {
      const page = await namespaces.list(query.offset, query.limit);
      return { namespaces: page.items, totalCount: page.totalCount };
    },
  });
  declare({
    method: 'GET',
    path: '/namespaces/:namespace',
    operationId: 'getNamespace',
    summary: 'Get a namespace',
    tags: ['Namespaces'],
    scope: 'read',
    params: NamespaceParams,
    success: { status: 200, description: 'The namespace', schema: Namespace },
    errors: { 404: 'No such namespace' },
    handler: async ({ params }) => {
      const ns = await namespaces.get(params.namespace);
      if (!ns) throw missing(params.namespace);
      return ns;
    },
  });
  declare({
    method: 'PUT',
    path: '/namespaces/:namespace',
    operationId: 'putNamespace',
    summary: 'Create a namespace or replace its owner and description',
    description: 'Also un-hides a deleted namespace.',
    tags: ['Namespaces'],
    scope: 'admin',
    params: NamespaceParams,
    body: { schema: NamespaceMeta, what: 'a JSON object such as {"ownerName": "me", "description": "..."}' },
    success: { status: 200, description: 'The namespace as stored', schema: Namespace },
    handler: async ({ params, body }) => namespaces.upsert(params.namespace, body.ownerName, body.description ?? null),
  });
  declare({
    method: 'DELETE',
    path: '/namespaces/:namespace',
    operationId: 'deleteNamespace',
    summary: 'Hide a namespace with its datasets and jobs (soft delete)',
    description: 'A later event that mentions it brings back what it mentions.',
    tags: ['Namespaces'],
    scope: 'admin',
    params: NamespaceParams,
    success: { status: 200, description: 'The hidden namespace', schema: Namespace },
    errors: { 404: 'No such namespace' },
    handler: async ({ params }) => {
      const ns = await namespaces.softDelete(params.namespace);
      if (!ns) throw missing(params.namespace);
      return ns;
    },
  });
  return router;
}
