/** GET /tags, PUT /tags/{tag} {description?}. (Tagging datasets, fields and jobs: datasets.ts, jobs.ts.) */
import Router from '@koa/router';
import { Type } from '@sinclair/typebox';
import type { Services } from '../../services.js';
import { pageQuery } from '../pagination.js';
import { routes, type RouteRuntime } from '../route.js';
import { Nullable, Tag, TagList } from '../../api/schemas.js';

export const TagParams = { tag: Type.String({ description: 'The tag name' }) };

export function tagsRouter({ tags }: Services, runtime: RouteRuntime): Router {
  const router = new Router();
  const declare = routes(runtime, router);
  declare({
    method: 'GET',
    path: '/tags',
    operationId: 'listTags',
    summary: 'List tags',
    tags: ['Tags'],
    scope: 'read',
    query: pageQuery(),
    success: { status: 200, description: 'One page of tags, by name', schema: TagList },
    handler: async ({ query }) => {
      const page = await tags.list(query.offset, query.limit);
      return { tags: page.items, totalCount: page.totalCount };
    },
  });
  declare({
    method: 'PUT',
    path: '/tags/:tag',
    operationId: 'putTag',
    summary: 'Create a tag or replace its description',
    tags: ['Tags'],
    scope: 'admin',
    params: TagParams,
    // The body is optional: no body (or {}) creates the tag without a description.
    body: {
      schema: Type.Object({ description: Type.Optional(Nullable(Type.String())) }),
      required: false,
      what: 'a JSON object such as {"description": "..."}',
    },
    success: { status: 200, description: 'The tag as stored', schema: Tag },
    handler: async ({ params, body }) => tags.upsert(params.tag, body?.description ?? null),
  });
  return router;
}
