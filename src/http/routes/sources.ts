/** GET /sources, GET /sources/{source}: the data sources datasets come from; PUT (legacy): legacy.ts. */
import Router from '@koa/router';
import { Type } from '@sinclair/typebox';
import type { Services } from '../../services.js';
import { notFound } from '../errors.js';
import { pageQuery } from '../pagination.js';
import { routes, type RouteRuntime } from '../route.js';
import { Source, SourceList } from '../../api/schemas.js';

export const SourceParams = { source: Type.String({ description: 'The source name' }) };

export function sourcesRouter({ sources }: Services, runtime: RouteRuntime): Router {
  const router = new Router();
  const declare = routes(runtime, router);
  declare({
    method: 'GET',
    path: '/sources',
    operationId: 'listSources',
    summary: 'List data sources',
    description: 'The sources named by `dataSource` facets, and `default`: the source of datasets that name none.',
    tags: ['Sources'],
    scope: 'read',
    query: pageQuery(),
    success: { status: 200, description: 'One page of sources, by name', schema: SourceList },
    handler: async ({ query }) => {
      const page = await sources.list(query.offset, query.limit);
      return { sources: page.items, totalCount: page.totalCount };
    },
  });
  declare({
    method: 'GET',
    path: '/sources/:source',
    operationId: 'getSource',
    summary: 'Get a data source',
    tags: ['Sources'],
    scope: 'read',
    params: SourceParams,
    success: { status: 200, description: 'The source', schema: Source },
    errors: { 404: 'No such source' },
    handler: async ({ params }) => {
      const source = await sources.get(params.source);
      if (!source) throw notFound(`Source '${params.source}' not found.`);
      return source;
    },
  });
  return router;
}
