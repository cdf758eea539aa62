import Router from '@koa/router';
import { Type } from '@sinclair/typebox';
import type { Services } from '../../services.js';
import { notFound } from '../errors.js';
import { pageQuery, sortQuery } from '../pagination.js';
import { listOrder } from '../../store/list-order.js';
import { Param } from '../params.js';
import { routes, type RouteRuntime } from '../route.js';
import { NamespaceParams } from './namespaces.js';
import { TagParams } from './tags.js';
import { Dataset, DatasetList, DatasetVersion, DatasetVersionList } from '../../api/schemas.js';

export const DatasetParams = {
  ...NamespaceParams,
  dataset: Type.String({ description: 'The dataset name (URL-encoded); a symlink alias finds its dataset' }),
};

export function datasetsRouter({ datasets }: Services, runtime: RouteRuntime): Router {
  const router = new Router();
  const declare = routes(runtime, router);
  const missing = (ns: string, name: string) => notFound(`Dataset '${name}' not found in namespace '${ns}'.`);
  const tags = ['Datasets'];

  declare({
    method: 'GET',
    path: '/namespaces/:namespace/datasets',
    operationId: 'listDatasets',
    summary: 'List the datasets of a namespace',
    tags,
    scope: 'read',
    params: NamespaceParams,
    query: { ...pageQuery(), ...sortQuery() },
    success: { status: 200, description: 'One page of datasets, by name unless `sort` says', schema: DatasetList },
    errors: { 404: 'No such namespace' },
    handler: async ({ params, query }) => {
      const order = listOrder(query.sort, query.order);
      const page = await datasets.list(params.namespace, query.offset, query.limit, order);
      if (!page) throw notFound(`Namespace '${params.namespace}' not found.`);
      return { datasets: page.items, totalCount: page.totalCount };
    },
  });

  declare({
    method: 'GET',
    path: '/namespaces/:namespace/datasets/:dataset',
    operationId: 'getDataset',
    summary: 'Get a dataset',
    tags,
    scope: 'read',
    params: DatasetParams,
    success: { status: 200, description: 'The dataset', schema: Dataset },
    errors: { 404: 'No such dataset' },
    handler: async ({ params: { namespace, dataset } }) => {
      const found = await datasets.get(namespace, dataset);
      if (!found) throw missing(namespace, dataset);
      return found;
    },
  });

  declare({
    method: 'DELETE',
    path: '/namespaces/:namespace/datasets/:dataset',
    operationId: 'deleteDataset',
    summary: 'Hide a dataset (soft delete)',
    description: 'A later event that mentions it brings it back.',
    tags,
    scope: 'admin',
    params: DatasetParams,
    success: { status: 200, description: 'The hidden dataset', schema: Dataset },
    errors: { 404: 'No such dataset' },
    handler: async ({ params: { namespace, dataset } }) => {
      const deleted = await datasets.softDelete(namespace, dataset);
      if (!deleted) throw missing(namespace, dataset);
      return deleted;
    },
  });

  declare({
    method: 'GET',
    path: '/namespaces/:namespace/datasets/:dataset/versions',
    operationId: 'listDatasetVersions',
    summary: 'List the versions of a dataset, newest first',
    tags,
    scope: 'read',
    params: DatasetParams,
    query: pageQuery(),
    success: { status: 200, description: 'One page of versions', schema: DatasetVersionList },
    errors: { 404: 'No such dataset' },
    handler: async ({ params: { namespace, dataset }, query }) => {
      const page = await datasets.versions(namespace, dataset, query.offset, query.limit);
      if (!page) throw missing(namespace, dataset);
      return { versions: page.items, totalCount: page.totalCount };
    },
  });

  declare({
    method: 'GET',
    path: '/namespaces/:namespace/datasets/:dataset/versions/:version',
    operationId: 'getDatasetVersion',
    summary: 'Get a version of a dataset',
    tags,
    scope: 'read',
    params: { ...DatasetParams, version: Param.uuid('The version id') },
    success: { status: 200, description: 'The dataset version', schema: DatasetVersion },
    errors: { 404: 'No such dataset or version' },
    handler: async ({ params: { namespace, dataset, version } }) => {
      const found = await datasets.version(namespace, dataset, version);
      if (!found) {
        if (!(await datasets.get(namespace, dataset))) throw missing(namespace, dataset);
        throw notFound(`Version '${version}' of dataset '${dataset}' in namespace '${namespace}' not found.`);
      }
      return found;
    },
  });

  for (const [method, op] of [
    ['POST', 'tag'],
    ['DELETE', 'untag'],
  ] as const) {
    declare({
      method,
      path: '/namespaces/:namespace/datasets/:dataset/tags/:tag',
      operationId: op === 'tag' ? 'tagDataset' : 'untagDataset',
      summary: op === 'tag' ? 'Tag a dataset (an unknown tag is created)' : 'Remove a tag from a dataset',
      tags,
      scope: 'admin',
      params: { ...DatasetParams, ...TagParams },
      success: { status: 200, description: 'The dataset', schema: Dataset },
      errors: { 404: 'No such dataset' },
      handler: async ({ params: { namespace, dataset, tag } }) => {
        const result = await datasets[op](namespace, dataset, tag);
        if (!result) throw missing(namespace, dataset);
        return result;
      },
    });
  }

  for (const [method, op] of [
    ['POST', 'tagField'],
    ['DELETE', 'untagField'],
  ] as const) {
    declare({
      method,
      path: '/namespaces/:namespace/datasets/:dataset/fields/:field/tags/:tag',
      operationId: op === 'tagField' ? 'tagDatasetField' : 'untagDatasetField',
      summary: op === 'tagField' ? 'Tag a column of a dataset' : 'Remove a tag from a column of a dataset',
      tags,
      scope: 'admin',
      params: {
        ...DatasetParams,
        field: Type.String({
          description:
            'The column name; a nested column (a STRUCT member) by its dotted path, `addr.geo.lat` ' +
            '(a top-level column named with a dot keeps its name: docs/lineage.md)',
        }),
        ...TagParams,
      },
      success: { status: 200, description: 'The dataset', schema: Dataset },
      errors: { 404: 'No such dataset or column' },
      handler: async ({ params: { namespace, dataset, field, tag } }) => {
        const result = await datasets[op](namespace, dataset, field, tag);
        if (result === 'no-dataset') throw missing(namespace, dataset);
        if (result === 'no-field')
          throw notFound(`Field '${field}' not found in dataset '${dataset}' in namespace '${namespace}'.`);
        return result;
      },
    });
  }

  return router;
}
