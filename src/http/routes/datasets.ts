import Router from '@koa/router';
import type { Middleware } from 'koa';
import type { Services } from '../context.js';
import { notFound } from '../errors.js';
import { pageParams } from '../pagination.js';
import { uuidParam } from '../params.js';

export function datasetsRouter({ datasets }: Services): Router {
  const router = new Router();
  const missing = (ns: string, name: string) => notFound(`Dataset '${name}' not found in namespace '${ns}'.`);

  router.get('/namespaces/:namespace/datasets', async (ctx) => {
    const { limit, offset } = pageParams(ctx.query);
    const page = await datasets.list(ctx.params.namespace, offset, limit);
    if (!page) throw notFound(`Namespace '${ctx.params.namespace}' not found.`);
    ctx.body = { datasets: page.items, totalCount: page.totalCount };
  });

  router.get('/namespaces/:namespace/datasets/:dataset', async (ctx) => {
    const { namespace, dataset } = ctx.params;
    const found = await datasets.get(namespace, dataset);
    if (!found) throw missing(namespace, dataset);
    ctx.body = found;
  });

  router.delete('/namespaces/:namespace/datasets/:dataset', async (ctx) => {
    const { namespace, dataset } = ctx.params;
    const deleted = await datasets.softDelete(namespace, dataset);
    if (!deleted) throw missing(namespace, dataset);
    ctx.body = deleted;
  });

  router.get('/namespaces/:namespace/datasets/:dataset/versions', async (ctx) => {
    const { namespace, dataset } = ctx.params;
    const { limit, offset } = pageParams(ctx.query);
    const page = await datasets.versions(namespace, dataset, offset, limit);
    if (!page) throw missing(namespace, dataset);
    ctx.body = { versions: page.items, totalCount: page.totalCount };
  });

  router.get('/namespaces/:namespace/datasets/:dataset/versions/:version', async (ctx) => {
    const { namespace, dataset } = ctx.params;
    const version = uuidParam('dataset version', ctx.params.version);
    const found = await datasets.version(namespace, dataset, version);
    if (!found) {
      if (!(await datasets.get(namespace, dataset))) throw missing(namespace, dataset);
      throw notFound(`Version '${version}' of dataset '${dataset}' in namespace '${namespace}' not found.`);
    }
    ctx.body = found;
  });

  router.post('/namespaces/:namespace/datasets/:dataset/tags/:tag', async (ctx) => {
    const { namespace, dataset, tag } = ctx.params;
    const tagged = await datasets.tag(namespace, dataset, tag);
    if (!tagged) throw missing(namespace, dataset);
    ctx.body = tagged;
  });

  router.delete('/namespaces/:namespace/datasets/:dataset/tags/:tag', async (ctx) => {
    const { namespace, dataset, tag } = ctx.params;
    const untagged = await datasets.untag(namespace, dataset, tag);
    if (!untagged) throw missing(namespace, dataset);
    ctx.body = untagged;
  });

  const fieldTag = (op: 'tagField' | 'untagField'): Middleware => async (ctx) => {
    const { namespace, dataset, field, tag } = ctx.params as Record<string, string>;
    const result = await datasets[op](namespace, dataset, field, tag);
    if (result === 'no-dataset') throw missing(namespace, dataset);
    if (result === 'no-field') throw notFound(`Field '${field}' not found in dataset '${dataset}' in namespace '${namespace}'.`);
    ctx.body = result;
  };
  router.post('/namespaces/:namespace/datasets/:dataset/fields/:field/tags/:tag', fieldTag('tagField'));
  router.delete('/namespaces/:namespace/datasets/:dataset/fields/:field/tags/:tag', fieldTag('untagField'));

  return router;
}
