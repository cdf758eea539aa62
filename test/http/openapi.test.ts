/** The served contract: complete (every router route), valid (an OpenAPI linter), one event schema. */
import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../../src/paths.js';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { useTestApp } from '../helper.js';
import { mountedRoutes, openApiPath } from '../../src/http/openapi.js';
import { eventSchema, EVENT_SCHEMAS } from '../../src/domain/openlineage/event-schema.js';

describe('the OpenAPI document', () => {
  const t = useTestApp();

  it('has every route of the router, with its parameters and scope', () => {
    const doc = t().app.openapi();
    const missing = mountedRoutes(t().app.router)
      .filter((r) => !doc.paths[openApiPath(r.path)]?.[r.method.toLowerCase()])
      .map((r) => `${r.method} ${r.path}`);
    expect(missing).to.deep.equal([]);
    const count = Object.values(doc.paths).reduce((n, methods) => n + Object.keys(methods).length, 0);
    expect(count).to.equal(mountedRoutes(t().app.router).length);
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        const params = ((op.parameters as { name: string; in: string }[] | undefined) ?? [])
          .filter((p) => p.in === 'path')
          .map((p) => p.name);
        expect(params, `${method} ${path}`).to.have.members([...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]));
        expect(op['x-scope'], `${method} ${path}`).to.be.oneOf(['public', 'read', 'write', 'admin']);
        expect(Object.keys(op.responses as object), `${method} ${path}`).to.include('500');
      }
    }
  });

  it("docs/api.md's table of routes and scopes is the one npm run openapi -- --routes prints", function () {
    this.timeout(60_000);
    const table = (text: string) => text.split('\n').filter((l) => /^\| (GET|PUT|POST|DELETE|Method) /.test(l));
    const generated = execFileSync(process.execPath, ['--import', 'tsx', 'scripts/openapi.ts', '--routes'], {
      cwd: projectRoot,
      encoding: 'utf8',
    });
    const documented = fs.readFileSync(path.join(projectRoot, 'docs', 'api.md'), 'utf8');
    expect(table(documented)).to.deep.equal(table(generated));
  });

  it('is served at /api/v1/openapi.json as built', async () => {
    const res = await t().get('/api/v1/openapi.json');
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal(JSON.parse(JSON.stringify(t().app.openapi())));
    expect(res.body.openapi).to.equal('3.1.0');
  });

  it('passes the Redocly linter (recommended rules) without an error', async function () {
    this.timeout(60_000);
    const config = await createConfig({ extends: ['recommended'] });
    const results = await lintFromString({
      source: JSON.stringify(t().app.openapi()),
      absoluteRef: 'openapi.json',
      config,
    });
    const errors = results
      .filter((r) => r.severity === 'error')
      .map((r) => `${r.ruleId}: ${r.message} at ${r.location?.[0]?.pointer}`);
    expect(errors).to.deep.equal([]);
  });

  it('holds the OpenLineage event schema that validation compiles: the same object', () => {
    const doc = t().app.openapi();
    expect(doc.components.schemas.OpenLineageEvent).to.equal(eventSchema);
    expect(doc.components.schemas.OpenLineageSchemaField).to.equal(EVENT_SCHEMAS.OpenLineageSchemaField);
    const body = (doc.paths['/api/v1/lineage'].post.requestBody as any).content['application/json'].schema;
    expect(body).to.deep.equal({ $ref: '#/components/schemas/OpenLineageEvent' });
    const batch = (doc.paths['/api/v1/lineage/batch'].post.requestBody as any).content['application/json'].schema;
    expect(batch.items).to.deep.equal({ $ref: '#/components/schemas/OpenLineageEvent' });
  });

  it('marks the legacy write API deprecated, and nothing else', () => {
    const doc = t().app.openapi();
    const deprecated = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods)
        .filter(([, op]) => op.deprecated)
        .map(([m]) => `${m.toUpperCase()} ${path}`),
    );
    expect(deprecated.sort()).to.deep.equal(
      [
        'PUT /api/v1/sources/{source}',
        'PUT /api/v1/namespaces/{namespace}/datasets/{dataset}',
        'PUT /api/v1/namespaces/{namespace}/jobs/{job}',
        'POST /api/v1/namespaces/{namespace}/jobs/{job}/runs',
        'POST /api/v1/jobs/runs/{runId}/start',
        'POST /api/v1/jobs/runs/{runId}/complete',
        'POST /api/v1/jobs/runs/{runId}/fail',
        'POST /api/v1/jobs/runs/{runId}/abort',
      ].sort(),
    );
  });

  it('/api/docs serves a viewer from this service only (no CDN)', async () => {
    const page = await t().request('GET', '/api/docs');
    expect(page.status).to.equal(200);
    expect(page.headers.get('content-type')).to.match(/text\/html/);
    const refs = [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(refs.length).to.be.greaterThan(2);
    for (const ref of refs) {
      expect(ref.startsWith('/api/docs/'), ref).to.equal(true);
      const file = await t().request('GET', ref);
      expect(file.status, ref).to.equal(200);
      expect(file.text.length, ref).to.be.greaterThan(10);
    }
    expect(page.headers.get('content-security-policy')).to.match(/script-src 'self'/);
    expect((await t().request('GET', '/api/docs/init.js')).text).to.include('/api/v1/openapi.json');
    expect((await t().request('GET', '/api/docs/..%2Fpackage.json')).status).to.equal(404);
  });

  it('answers malformed parameters with one error shape naming each problem', async () => {
    const res = await t().get('/api/v1/namespaces?limit=0&offset=x');
    expect(res.status).to.equal(400);
    expect(res.body).to.include({ code: 400, error: 'bad_request' });
    expect(res.body.errors).to.deep.equal([
      { path: '/offset', message: "must be an integer, got 'x'", in: 'query' },
      { path: '/limit', message: 'must be at least 1, got 0', in: 'query' },
    ]);
    const body = await t().request('PUT', '/api/v1/namespaces/x', { body: { ownerName: '  ', description: 3 } });
    expect(body.status).to.equal(422);
    expect(body.body).to.include({ code: 422, error: 'validation_failed' });
    expect(body.body.errors).to.deep.include.members([
      { path: '/ownerName', message: 'must not be blank', in: 'body' },
    ]);
    const event = await t().post('/api/v1/lineage', { eventTime: 'x', producer: 'p' });
    expect(event.status).to.equal(422);
    expect(event.body.errors.every((e: { in: string }) => e.in === 'body')).to.equal(true);
  });
});
