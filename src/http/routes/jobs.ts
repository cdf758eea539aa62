import Router from '@koa/router';
import type { ParsedUrlQuery } from 'node:querystring';
import type { Services } from '../context.js';
import { badRequest, notFound } from '../errors.js';
import { pageParams, enumParam } from '../pagination.js';
import { runIdParam, uuidParam } from '../params.js';
import { RUN_STATES } from '../../domain/run-state.js';

function lastRunStates(query: ParsedUrlQuery): string[] | null {
  const raw = query.lastRunStates;
  if (raw === undefined) return null;
  const values = (Array.isArray(raw) ? raw : [raw]).flatMap((v) => v.split(',')).map((v) => v.trim().toUpperCase()).filter(Boolean);
  for (const v of values) {
    if (!(RUN_STATES as readonly string[]).includes(v)) throw badRequest(`Query parameter 'lastRunStates' must be among ${RUN_STATES.join(', ')}, got '${v}'`);
  }
  return values.length ? values : null;
}

export function jobsRouter({ jobs, runs }: Services): Router {
  const router = new Router();
  const missing = (ns: string, name: string) => notFound(`Job '${name}' not found in namespace '${ns}'.`);

  router.get('/jobs', async (ctx) => {
    const { limit, offset } = pageParams(ctx.query);
    const page = await jobs.list({ namespace: null, lastRunStates: lastRunStates(ctx.query) }, offset, limit);
    ctx.body = { jobs: page!.items, totalCount: page!.totalCount };
  });

  router.get('/namespaces/:namespace/jobs', async (ctx) => {
    const { limit, offset } = pageParams(ctx.query);
    const page = await jobs.list({ namespace: ctx.params.namespace, lastRunStates: lastRunStates(ctx.query) }, offset, limit);
    if (!page) throw notFound(`Namespace '${ctx.params.namespace}' not found.`);
    ctx.body = { jobs: page.items, totalCount: page.totalCount };
  });

  router.get('/namespaces/:namespace/jobs/:job', async (ctx) => {
    const { namespace, job } = ctx.params;
    const found = await jobs.get(namespace, job);
    if (!found) throw missing(namespace, job);
    ctx.body = found;
  });

  router.delete('/namespaces/:namespace/jobs/:job', async (ctx) => {
    const { namespace, job } = ctx.params;
    const deleted = await jobs.softDelete(namespace, job);
    if (!deleted) throw missing(namespace, job);
    ctx.body = deleted;
  });

  router.get('/namespaces/:namespace/jobs/:job/versions', async (ctx) => {
    const { namespace, job } = ctx.params;
    const { limit, offset } = pageParams(ctx.query);
    const page = await jobs.versions(namespace, job, offset, limit);
    if (!page) throw missing(namespace, job);
    ctx.body = { versions: page.items, totalCount: page.totalCount };
  });

  router.get('/namespaces/:namespace/jobs/:job/versions/:version', async (ctx) => {
    const { namespace, job } = ctx.params;
    const version = uuidParam('job version', ctx.params.version);
    const found = await jobs.version(namespace, job, version);
    if (!found) {
      if (!(await jobs.get(namespace, job))) throw missing(namespace, job);
      throw notFound(`Version '${version}' of job '${job}' in namespace '${namespace}' not found.`);
    }
    ctx.body = found;
  });

  router.get('/namespaces/:namespace/jobs/:job/runs', async (ctx) => {
    const { namespace, job } = ctx.params;
    const { limit, offset } = pageParams(ctx.query);
    const page = await jobs.runs(namespace, job, offset, limit);
    if (!page) throw missing(namespace, job);
    ctx.body = { runs: page.items, totalCount: page.totalCount };
  });

  router.get('/jobs/runs/:runId', async (ctx) => {
    const run = await runs.get(runIdParam(ctx.params.runId));
    if (!run) throw notFound(`Run '${ctx.params.runId}' not found.`);
    ctx.body = run;
  });

  router.get('/jobs/runs/:runId/facets', async (ctx) => {
    const type = enumParam(ctx.query, 'type', ['run', 'job'] as const, 'run');
    const facets = await runs.facets(runIdParam(ctx.params.runId), type);
    if (!facets) throw notFound(`Run '${ctx.params.runId}' not found.`);
    ctx.body = { runId: runIdParam(ctx.params.runId), facets };
  });

  router.post('/namespaces/:namespace/jobs/:job/tags/:tag', async (ctx) => {
    const { namespace, job, tag } = ctx.params;
    const tagged = await jobs.tag(namespace, job, tag);
    if (!tagged) throw missing(namespace, job);
    ctx.body = tagged;
  });

  router.delete('/namespaces/:namespace/jobs/:job/tags/:tag', async (ctx) => {
    const { namespace, job, tag } = ctx.params;
    const untagged = await jobs.untag(namespace, job, tag);
    if (!untagged) throw missing(namespace, job);
    ctx.body = untagged;
  });

  return router;
}
