import Router from '@koa/router';
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

  return router;
}
