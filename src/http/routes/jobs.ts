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
import { RUN_STATES } from '../../domain/run-state.js';
import { Job, JobList, JobVersion, JobVersionList, Run, RunFacets, RunList } from '../../api/schemas.js';

export const JobParams = { ...NamespaceParams, job: Type.String({ description: 'The job name (URL-encoded)' }) };
/** A run id as its producer sent it: a UUID, or any other string (looked up the way ingestion stored it). */
export const RunParams = {
  runId: Param.runId({ description: 'The run id: a UUID, or the non-UUID id its producer sent' }),
};

const jobsQuery = {
  ...pageQuery(),
  ...sortQuery(),
  lastRunStates: Type.Optional(
    Param.listOf(RUN_STATES, { description: 'Only jobs whose latest run is in one of these states.' }),
  ),
};

export function jobsRouter({ jobs, runs }: Services, runtime: RouteRuntime): Router {
  const router = new Router();
  const declare = routes(runtime, router);
  const missing = (ns: string, name: string) => notFound(`Job '${name}' not found in namespace '${ns}'.`);
  const tags = ['Jobs'];

  declare({
    method: 'GET',
    path: '/jobs',
    operationId: 'listAllJobs',
    summary: 'List the jobs of every namespace',
    tags,
    scope: 'read',
    query: jobsQuery,
    success: { status: 200, description: 'One page of jobs', schema: JobList },
    handler: async ({ query }) => {
      const page = await jobs.list(
        { namespace: null, lastRunStates: query.lastRunStates ?? null },
        query.offset,
        query.limit,
        listOrder(query.sort, query.order),
      );
      return { jobs: page!.items, totalCount: page!.totalCount };
    },
  });

  declare({
    method: 'GET',
    path: '/namespaces/:namespace/jobs',
    operationId: 'listJobs',
    summary: 'List the jobs of a namespace',
    tags,
    scope: 'read',
    params: NamespaceParams,
    query: jobsQuery,
    success: { status: 200, description: 'One page of jobs', schema: JobList },
    errors: { 404: 'No such namespace' },
    handler: async ({ params, query }) => {
      const page = await jobs.list(
        { namespace: params.namespace, lastRunStates: query.lastRunStates ?? null },
        query.offset,
        query.limit,
        listOrder(query.sort, query.order),
      );
      if (!page) throw notFound(`Namespace '${params.namespace}' not found.`);
      return { jobs: page.items, totalCount: page.totalCount };
    },
  });

  declare({
    method: 'GET',
    path: '/namespaces/:namespace/jobs/:job',
    operationId: 'getJob',
    summary: 'Get a job',
    tags,
    scope: 'read',
    params: JobParams,
    success: { status: 200, description: 'The job, with its latest run', schema: Job },
    errors: { 404: 'No such job' },
    handler: async ({ params: { namespace, job } }) => {
      const found = await jobs.get(namespace, job);
      if (!found) throw missing(namespace, job);
      return found;
    },
  });

  declare({
    method: 'DELETE',
    path: '/namespaces/:namespace/jobs/:job',
    operationId: 'deleteJob',
    summary: 'Hide a job (soft delete)',
    tags,
    scope: 'admin',
    params: JobParams,
    success: { status: 200, description: 'The hidden job', schema: Job },
    errors: { 404: 'No such job' },
    handler: async ({ params: { namespace, job } }) => {
      const deleted = await jobs.softDelete(namespace, job);
      if (!deleted) throw missing(namespace, job);
      return deleted;
    },
  });

  declare({
    method: 'GET',
    path: '/namespaces/:namespace/jobs/:job/children',
    operationId: 'listChildJobs',
    summary: 'List the child jobs of a job (jobs whose runs name it as parent), by namespace and name',
    tags,
    scope: 'read',
    params: JobParams,
    query: pageQuery(),
    success: { status: 200, description: 'One page of child jobs', schema: JobList },
    errors: { 404: 'No such job' },
    handler: async ({ params: { namespace, job }, query }) => {
      const page = await jobs.children(namespace, job, query.offset, query.limit);
      if (!page) throw missing(namespace, job);
      return { jobs: page.items, totalCount: page.totalCount };
    },
  });

  declare({
    method: 'GET',
    path: '/namespaces/:namespace/jobs/:job/versions',
    operationId: 'listJobVersions',
    summary: 'List the versions of a job, newest first',
    tags,
    scope: 'read',
    params: JobParams,
    query: pageQuery(),
    success: { status: 200, description: 'One page of versions', schema: JobVersionList },
    errors: { 404: 'No such job' },
    handler: async ({ params: { namespace, job }, query }) => {
      const page = await jobs.versions(namespace, job, query.offset, query.limit);
      if (!page) throw missing(namespace, job);
      return { versions: page.items, totalCount: page.totalCount };
    },
  });

  declare({
    method: 'GET',
    path: '/namespaces/:namespace/jobs/:job/versions/:version',
    operationId: 'getJobVersion',
    summary: 'Get a version of a job',
    tags,
    scope: 'read',
    params: { ...JobParams, version: Param.uuid('The version id') },
    success: { status: 200, description: 'The job version', schema: JobVersion },
    errors: { 404: 'No such job or version' },
    handler: async ({ params: { namespace, job, version } }) => {
      const found = await jobs.version(namespace, job, version);
      if (!found) {
        if (!(await jobs.get(namespace, job))) throw missing(namespace, job);
        throw notFound(`Version '${version}' of job '${job}' in namespace '${namespace}' not found.`);
      }
      return found;
    },
  });

  declare({
    method: 'GET',
    path: '/namespaces/:namespace/jobs/:job/runs',
    operationId: 'listRuns',
    summary: 'List the runs of a job, latest first',
    tags: ['Runs'],
    scope: 'read',
    params: JobParams,
    query: pageQuery(),
    success: { status: 200, description: 'One page of runs', schema: RunList },
    errors: { 404: 'No such job' },
    handler: async ({ params: { namespace, job }, query }) => {
      const page = await jobs.runs(namespace, job, query.offset, query.limit);
      if (!page) throw missing(namespace, job);
      return { runs: page.items, totalCount: page.totalCount };
    },
  });

  declare({
    method: 'GET',
    path: '/jobs/runs/:runId',
    operationId: 'getRun',
    summary: 'Get a run',
    tags: ['Runs'],
    scope: 'read',
    params: RunParams,
    success: { status: 200, description: 'The run', schema: Run },
    errors: { 404: 'No such run' },
    handler: async ({ params }, ctx) => {
      const run = await runs.get(params.runId);
      if (!run) throw notFound(`Run '${ctx.params.runId}' not found.`);
      return run;
    },
  });

  declare({
    method: 'GET',
    path: '/jobs/runs/:runId/facets',
    operationId: 'getRunFacets',
    summary: "Get a run's facets, or its job's as the run reported them",
    tags: ['Runs'],
    scope: 'read',
    params: RunParams,
    query: {
      type: Param.oneOf(['run', 'job'] as const, {
        default: 'run',
        description: "Which facets: the run's or its job's",
      }),
    },
    success: { status: 200, description: 'The facets', schema: RunFacets },
    errors: { 404: 'No such run' },
    handler: async ({ params, query }, ctx) => {
      const facets = await runs.facets(params.runId, query.type);
      if (!facets) throw notFound(`Run '${ctx.params.runId}' not found.`);
      return { runId: params.runId, facets };
    },
  });

  for (const [method, op] of [
    ['POST', 'tag'],
    ['DELETE', 'untag'],
  ] as const) {
    declare({
      method,
      path: '/namespaces/:namespace/jobs/:job/tags/:tag',
      operationId: op === 'tag' ? 'tagJob' : 'untagJob',
      summary: op === 'tag' ? 'Tag a job (an unknown tag is created)' : 'Remove a tag from a job',
      tags,
      scope: 'admin',
      params: { ...JobParams, ...TagParams },
      success: { status: 200, description: 'The job', schema: Job },
      errors: { 404: 'No such job' },
      handler: async ({ params: { namespace, job, tag } }) => {
        const result = await jobs[op](namespace, job, tag);
        if (!result) throw missing(namespace, job);
        return result;
      },
    });
  }

  return router;
}
