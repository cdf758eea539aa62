/**
 * The web UI end to end: the real service (built as in test/helper.ts, serving a fresh build of web/)
 * on the test Neo4j, a known event stream ingested through POST /api/v1/lineage, and Debian's
 * Chromium driven by playwright-core. Each test asserts what the page shows; screenshots of the main
 * pages go to test-output/screenshots/ (git-ignored).
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { build, wipe, type TestApp } from '../helper.js';
import { buildWebUi, chromiumPath, launchChromium, outputDir } from '../support/browser.js';
import { completedRun, facet } from '../support/events.js';
import { DS_NS, JOB_NS, shopStream, type Stream } from './stream.js';

const enc = encodeURIComponent;
const datasetPath = (name: string, tab?: string) => `/datasets/${enc(DS_NS)}/${enc(name)}${tab ? `?tab=${tab}` : ''}`;
const jobPath = (name: string, tab?: string) => `/jobs/${enc(JOB_NS)}/${enc(name)}${tab ? `?tab=${tab}` : ''}`;
const dsNode = (name: string) => `dataset:${DS_NS}:${name}`;
const jobNode = (name: string) => `job:${JOB_NS}:${name}`;
const lineagePath = (node: string, extra = '') => `/lineage?node=${enc(node)}${extra}`;

// Callbacks run in the page: the test program has no DOM types, so they reach the page's globals
// through this shape.
interface PageGlobals {
  document: { querySelector(s: string): { getAttribute(n: string): string | null; textContent: string | null } | null };
  lineageGraph?: {
    clientPoint(id: string): { x: number; y: number } | null;
    pathIds(): string[];
    model: { nodes: { label: string }[] };
  };
}

describe('web UI in Chromium', function () {
  this.timeout(120_000);
  let t: TestApp;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let stream: Stream;
  let errors: string[] = [];
  const shots = outputDir('screenshots');

  before(async function () {
    if (!chromiumPath()) {
      console.log(
        '    SKIPPED: no Chromium on this machine (apt-get install chromium, or set CHROMIUM_PATH); .ci/run ' +
          'installs it',
      );
      this.skip();
    }
    const webRoot = await buildWebUi();
    t = await build({ webRoot });
    await wipe(t.db);
    await t.app.services.namespaces.ensureDefault();
    stream = shopStream();
    for (const event of stream.events) {
      const res = await t.post('/api/v1/lineage', event);
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
    }
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1280, height: 800 }, acceptDownloads: true });
  });

  after(async () => {
    await context?.close();
    await browser?.close();
    await t?.close();
  });

  beforeEach(async () => {
    errors = [];
    page = await context.newPage();
    page.on('pageerror', (err) => errors.push(`pageerror: ${err.message}`));
    page.on('console', (msg) => {
      if (msg.type() === 'error') errors.push(`console: ${msg.text()}`);
    });
  });

  afterEach(async () => {
    await page.close();
    expect(errors, 'errors in the page').to.deep.equal([]);
  });

  const open = (p: string) => page.goto(t.baseUrl + p, { waitUntil: 'domcontentloaded' });
  const texts = (selector: string) => page.locator(selector).allTextContents();
  const shot = (name: string) => page.screenshot({ path: path.join(shots, `${name}.png`) });

  async function graphReady(): Promise<{ nodes: number; edges: number; labels: string[] }> {
    await page.waitForSelector('[data-testid=graph][data-state=ready]', { timeout: 30_000 });
    const graph = page.getByTestId('graph');
    const labels = (await texts('[data-testid=node-list] button .node-name')).map((s) => s.trim()).sort();
    return {
      nodes: Number(await graph.getAttribute('data-node-count')),
      edges: Number(await graph.getAttribute('data-edge-count')),
      labels,
    };
  }

  /** Waits until the graph on screen was drawn for a different answer than `before` (a new canvas). */
  async function nextGraph(before: number) {
    await page.waitForFunction((n) => {
      const el = (globalThis as unknown as PageGlobals).document.querySelector('[data-testid=graph]');
      return el?.getAttribute('data-state') === 'ready' && Number(el.getAttribute('data-node-count')) !== n;
    }, before);
    return graphReady();
  }

  async function clickNode(id: string, shift = false) {
    const point = await page.evaluate(
      (nodeId) => (globalThis as unknown as PageGlobals).lineageGraph?.clientPoint(nodeId) ?? null,
      id,
    );
    expect(point, `node ${id} is drawn`).to.not.equal(null);
    if (shift) await page.keyboard.down('Shift');
    await page.mouse.click(point!.x, point!.y);
    if (shift) await page.keyboard.up('Shift');
  }

  it('browses namespaces; lists a namespace’s jobs with their run states, sorted by the service', async () => {
    await open('/');
    await page.waitForSelector('[data-testid=namespaces] tbody tr');
    const namespaces = await texts('[data-testid=namespaces] tbody tr td:first-child');
    expect(namespaces).to.include.members(['default', JOB_NS, DS_NS]);
    await shot('home');
    await page.getByRole('link', { name: JOB_NS, exact: true }).click();
    await page.waitForSelector('[data-testid=jobs] tbody tr');
    const states = await page.$$eval('[data-testid=jobs] tbody tr', (rows) =>
      rows.map((r) => [r.getAttribute('data-job'), r.querySelector('[data-state]')?.getAttribute('data-state')]),
    );
    expect(Object.fromEntries(states)).to.deep.equal({
      'ingest.customers': 'FAILED',
      'ingest.orders': 'COMPLETED',
      'legacy.export': 'COMPLETED',
      'report.revenue_dashboard': 'RUNNING',
      // Known only as its tasks' parent: its latest run is the run they name, never reported itself.
      shop_dag: 'NEW',
      'transform.daily_revenue': 'COMPLETED',
    });
    expect(await page.getByTestId('page-info').textContent()).to.include('6 in all');
    // Sorting by name descending reverses the rows, and the choice is in the URL. The service sorts
    // (so the order holds over all pages): the page asks for it.
    const listRequests: string[] = [];
    const onRequest = (r: { url(): string }) => {
      const url = new URL(r.url());
      if (url.pathname.endsWith('/jobs') || url.pathname.endsWith('/datasets')) listRequests.push(url.search);
    };
    page.on('request', onRequest);
    await page.click('[data-sort=name]');
    await page.waitForURL(/sort=name%3Adesc/);
    await page.waitForSelector('[data-testid=jobs] tbody tr:first-child[data-job="transform.daily_revenue"]');
    expect(
      await page.$$eval('[data-testid=jobs] tbody tr', (rows) => rows.map((r) => r.getAttribute('data-job'))),
    ).to.deep.equal([
      'transform.daily_revenue',
      'shop_dag',
      'report.revenue_dashboard',
      'legacy.export',
      'ingest.orders',
      'ingest.customers',
    ]);
    await shot('namespace-jobs');
    // Newest first by updatedAt: the service's order, the same as the API's.
    await page.click('[data-sort=updatedAt]');
    await page.waitForURL(/sort=updatedAt%3Adesc/);
    const api = (await t.get(`/api/v1/namespaces/${JOB_NS}/jobs?sort=updatedAt&order=desc`)).body.jobs.map(
      (j: { name: string }) => j.name,
    );
    expect(api).not.to.deep.equal([...api].sort());
    await page.waitForSelector(`[data-testid=jobs] tbody tr:first-child[data-job="${api[0]}"]`);
    expect(
      await page.$$eval('[data-testid=jobs] tbody tr', (rows) => rows.map((r) => r.getAttribute('data-job'))),
    ).to.deep.equal(api);
    expect(await page.locator('th[aria-sort=descending] a').getAttribute('data-sort')).to.equal('updatedAt');
    page.off('request', onRequest);
    expect(listRequests).to.deep.equal([
      '?limit=25&offset=0&sort=name&order=desc',
      '?limit=25&offset=0&sort=updatedAt&order=desc',
    ]);
    await page.getByRole('link', { name: 'Datasets', exact: true }).click();
    await page.goto(`${t.baseUrl}/namespaces/${enc(DS_NS)}?tab=datasets`);
    await page.waitForSelector('[data-testid=datasets] tbody tr');
    expect(
      (
        await page.$$eval('[data-testid=datasets] tbody tr', (rows) => rows.map((r) => r.getAttribute('data-dataset')))
      ).sort(),
    ).to.deep.equal([
      'bi.revenue_dashboard',
      'legacy.orders_export',
      'mart.daily_revenue',
      'raw.customers',
      'raw.orders',
      'staging.customers',
      'staging.orders',
    ]);
  });

  it('reads a bad page number in the URL as the first page, and says when a page is past the last', async () => {
    // 1.5 and 1e9 were sent as offsets the service refuses (400: 'offset' must be an integer, at most 100000).
    for (const bad of ['1.5', '1e9', '-3', 'x']) {
      await open(`/namespaces/${JOB_NS}?page=${bad}`);
      await page.waitForSelector('[data-testid=jobs] tbody tr');
      expect(await page.getByTestId('page-info').textContent(), bad).to.equal('Page 1 of 1 · 6 in all');
    }
    await open(`/namespaces/${JOB_NS}?page=3`);
    await page.getByTestId('empty').waitFor();
    expect(await page.getByTestId('empty').textContent()).to.equal('There is no page 3 (1 in all). Last page');
    expect(await page.locator('[data-testid=jobs]').count()).to.equal(0);
    await page.getByTestId('empty').getByRole('link', { name: 'Last page' }).click();
    await page.waitForSelector('[data-testid=jobs] tbody tr');
    expect(await page.getByTestId('page-info').textContent()).to.equal('Page 1 of 1 · 6 in all');
    await open(`/namespaces/${JOB_NS}?tab=datasets`);
    await page.getByTestId('empty').waitFor();
    expect(await page.getByTestId('empty').textContent()).to.equal('No datasets in this namespace.');
  });

  it('finds a dataset with the search box (keyboard) and shows its schema, producers and consumers', async () => {
    await open('/');
    const input = page.getByTestId('search-input');
    await input.fill('revenue');
    await page.waitForSelector('[data-testid=search-results] [role=option]');
    const found = await page.$$eval('[data-testid=search-results] [role=option]', (items) =>
      items.map((i) => i.getAttribute('data-node-id')),
    );
    expect(found.sort()).to.deep.equal(
      [
        dsNode('bi.revenue_dashboard'),
        dsNode('mart.daily_revenue'),
        jobNode('report.revenue_dashboard'),
        jobNode('transform.daily_revenue'),
      ].sort(),
    );
    expect(await page.locator('[data-testid=search-results] .ns').first().textContent()).to.match(/shop|postgres/);
    await shot('search');
    // Arrow down to the mart dataset, Enter opens it.
    const target = found.indexOf(dsNode('mart.daily_revenue'));
    for (let i = 0; i < target; i++) await input.press('ArrowDown');
    await input.press('Enter');
    await page.waitForURL(`**${datasetPath('mart.daily_revenue')}`);
    await page.waitForSelector('[data-testid=schema] tbody tr');
    expect(await page.getByTestId('title').textContent()).to.equal('mart.daily_revenue');
    expect(
      await page.$$eval('[data-testid=schema] tbody tr', (rows) =>
        rows.map((r) => [r.getAttribute('data-field'), r.children[1].textContent]),
      ),
    ).to.deep.equal([
      ['day', 'DATE'],
      ['revenue', 'DECIMAL'],
    ]);
    await page.waitForSelector('[data-testid=producers] li');
    expect(
      await page.$$eval('[data-testid=producers] li', (l) => l.map((e) => e.getAttribute('data-job'))),
    ).to.deep.equal(['transform.daily_revenue']);
    expect(
      await page.$$eval('[data-testid=consumers] li', (l) => l.map((e) => e.getAttribute('data-job'))),
    ).to.deep.equal(['report.revenue_dashboard']);
    await shot('dataset');
  });

  it('shows a dataset’s versions: who wrote each, and the schema change between them', async () => {
    await open(datasetPath('staging.orders', 'versions'));
    await page.waitForSelector('[data-testid=versions] tbody tr');
    const rows = await page.$$eval('[data-testid=versions] tbody tr', (trs) =>
      trs.map((r) => ({
        version: r.getAttribute('data-version'),
        text: r.textContent ?? '',
        changes: r.querySelector('[data-testid=schema-changes]')?.textContent ?? '',
      })),
    );
    // Two runs wrote it; the oldest version is the one legacy.export read before anything wrote it.
    expect(rows).to.have.length(3);
    const current = await t.get(`/api/v1/namespaces/${enc(DS_NS)}/datasets/staging.orders`);
    expect(rows[0].version).to.equal(current.body.currentVersion);
    expect(rows[0].text).to.include('current').and.include('ingest.orders').and.include('COMPLETED');
    expect(rows[0].changes).to.include('+').and.include('discount');
    expect(rows[1].changes).to.equal('none');
    expect(rows[2].text).to.include('no run');
    expect(rows[2].changes).to.include('2 fields');
    // Each version links to the run that wrote it.
    const runLinks = await page.$$eval('[data-testid=versions] a[href^="/runs/"]', (as) =>
      as.map((a) => a.getAttribute('href')),
    );
    expect(runLinks).to.deep.equal([`/runs/${stream.runs.ingestOrders2}`, `/runs/${stream.runs.ingestOrders1}`]);
    await shot('dataset-versions');
  });

  it('adds and removes a dataset tag', async () => {
    await open(datasetPath('raw.orders'));
    const input = page.getByLabel('Add a tag (Dataset tags)');
    await input.fill('pii');
    await input.press('Enter');
    await page.waitForSelector('.tag[data-tag=pii]');
    expect((await t.get(`/api/v1/namespaces/${enc(DS_NS)}/datasets/raw.orders`)).body.tags).to.deep.equal(['pii']);
    await page.getByRole('button', { name: 'Remove tag pii' }).click();
    await page.waitForSelector('.tag[data-tag=pii]', { state: 'detached' });
    expect((await t.get(`/api/v1/namespaces/${enc(DS_NS)}/datasets/raw.orders`)).body.tags).to.deep.equal([]);
  });

  it('sums up readers’ data-quality results on a dataset; offers to try again when the service is away', async () => {
    // A checking job in namespaces of its own (the shop's lists and graphs stay as they are).
    const table = { name: 'checked.table', namespace: 'quality-ds', fields: [['id', 'BIGINT']] as [string, string][] };
    for (const e of completedRun({ job: 'write.table', jobNamespace: 'quality', outputs: [table] }))
      expect((await t.post('/api/v1/lineage', e)).status).to.equal(201);
    const check = {
      ...table,
      inputFacets: {
        dataQualityAssertions: facet({
          assertions: [
            { assertion: 'not_null', success: true, column: 'id' },
            { assertion: 'unique', success: false, column: 'id' },
          ],
        }),
        dataQualityMetrics: facet({ rowCount: 1200, columnMetrics: {} }),
      },
    };
    for (const e of completedRun({ job: 'check.table', jobNamespace: 'quality', inputs: [check] }))
      expect((await t.post('/api/v1/lineage', e)).status).to.equal(201);
    // The service answers 503 three times: the page asks twice more after Retry-After, then shows the error.
    let refused = 0;
    const api = '**/api/v1/namespaces/quality-ds/datasets/checked.table';
    await page.route(api, async (route) => {
      if (refused++ < 3)
        return route.fulfill({
          status: 503,
          headers: { 'retry-after': '1', 'content-type': 'application/json' },
          body: JSON.stringify({ code: 503, error: 'unavailable', message: 'Neo4j is not reachable' }),
        });
      return route.fallback();
    });
    await open('/datasets/quality-ds/checked.table');
    await page.waitForSelector('[data-testid=error]');
    expect(refused).to.equal(3);
    expect(await page.getByTestId('error').textContent()).to.include('Neo4j is not reachable');
    await page.getByTestId('retry').click();
    await page.waitForSelector('[data-testid=dataset-page]');
    expect(await page.getByTestId('quality').textContent()).to.equal(
      '1 of 2 assertions passed; failed: unique (id); 1,200 rows',
    );
    await page.unroute(api);
    // The refused loads are logged by the browser as failed resources: expected here.
    errors = errors.filter((e) => !e.includes('503'));
  });

  it('shows a job: latest run, run history with its chart, versions with SQL, parent and child jobs', async () => {
    await open(jobPath('ingest.orders'));
    await page.waitForSelector('[data-testid=runs] tbody tr');
    expect(await page.getByTestId('title').textContent()).to.equal('ingest.orders');
    const runs = await page.$$eval('[data-testid=runs] tbody tr', (trs) =>
      trs.map((r) => [r.getAttribute('data-run'), r.getAttribute('data-state')]),
    );
    expect(runs).to.deep.equal([
      [stream.runs.ingestOrders2, 'COMPLETED'],
      [stream.runs.ingestOrders1, 'COMPLETED'],
    ]);
    expect(await page.locator('[data-testid=run-chart] rect').count()).to.equal(2);
    expect(await page.getByTestId('latest-run').textContent())
      .to.include(stream.runs.ingestOrders2.slice(0, 8))
      .and.include('7 min');
    await shot('job');
    // A job whose only run is still running has no duration to chart: the page says so, no bars.
    await open(jobPath('report.revenue_dashboard'));
    await page.getByTestId('run-chart-empty').waitFor();
    expect(await page.getByTestId('run-chart-empty').textContent()).to.equal(
      'No finished runs to chart: 1 run without a duration (still running or never ended).',
    );
    expect(await page.getByTestId('run-chart').count()).to.equal(0);

    await open(jobPath('transform.daily_revenue', 'versions'));
    await page.waitForSelector('[data-testid=job-versions] .version');
    const version = page.locator('[data-testid=job-versions] .version').first();
    expect(await version.textContent())
      .to.include('staging.orders')
      .and.include('staging.customers')
      .and.include('mart.daily_revenue')
      .and.include('current');
    expect(await version.locator('pre.sql').textContent()).to.match(/^SELECT order_day/);
    await open(jobPath('transform.daily_revenue', 'family'));
    await page.waitForSelector('[data-testid=family] a');
    expect(await page.locator('[data-testid=family] a').first().getAttribute('href')).to.equal(jobPath('shop_dag'));
    await page.getByTestId('family').getByText('none').waitFor();
    expect(await page.getByTestId('family').textContent()).to.include('Childrennone');
    // The children come from GET .../jobs/{job}/children: the jobs whose runs name shop_dag as parent.
    const childRequests: string[] = [];
    const onRequest = (r: { url(): string }) => {
      const url = new URL(r.url());
      if (url.pathname.endsWith('/children')) childRequests.push(url.pathname + url.search);
    };
    page.on('request', onRequest);
    await open(jobPath('shop_dag', 'family'));
    await page.waitForSelector('[data-testid=children] li');
    page.off('request', onRequest);
    expect(childRequests).to.deep.equal([`/api/v1/namespaces/${JOB_NS}/jobs/shop_dag/children?limit=100`]);
    expect(
      await page.$$eval('[data-testid=children] li', (l) => l.map((li) => li.getAttribute('data-job'))),
    ).to.deep.equal([`${JOB_NS}/transform.daily_revenue`]);
    expect(await page.locator('[data-testid=children] li a').textContent()).to.equal('transform.daily_revenue');
    expect(await page.locator('[data-testid=children] li .badge').textContent()).to.equal('COMPLETED');
  });

  it('links a job to its parent in another namespace, also when its latest run names no parent', async () => {
    const dagRun = randomUUID();
    const parent = facet(
      { run: { runId: dagRun }, job: { namespace: 'orchestrator', name: 'nightly' } },
      'ParentRunFacet',
    );
    const events = [
      ...completedRun({ runId: dagRun, jobNamespace: 'orchestrator', job: 'nightly' }),
      ...completedRun({ jobNamespace: 'dbt', job: 'model.orders', runFacets: { parent } }),
      // Run again by hand: no parent facet on the job's latest run.
      ...completedRun({ jobNamespace: 'dbt', job: 'model.orders' }),
    ];
    for (const event of events) expect((await t.post('/api/v1/lineage', event)).status).to.equal(201);
    await open('/jobs/dbt/model.orders?tab=family');
    const link = page.getByTestId('family').getByRole('link', { name: 'nightly' });
    expect(await link.getAttribute('href')).to.equal('/jobs/orchestrator/nightly');
    await link.click();
    await page.waitForSelector('[data-testid=job-page] [data-testid=title]:text-is("nightly")');
    await page.getByTestId('job-page').locator('a[data-tab=family]').click();
    await page.waitForSelector('[data-testid=children] li');
    expect(
      await page.$$eval('[data-testid=children] li', (l) => l.map((li) => li.getAttribute('data-job'))),
    ).to.deep.equal(['dbt/model.orders']);
  });

  it('pages a job’s runs, 100 a page, and says when a page is past the last', async () => {
    // 101 runs: one more than a page holds. Posted as one batch (each run a START and a COMPLETE).
    const events = Array.from({ length: 101 }, (_, i) =>
      completedRun({
        jobNamespace: 'paging',
        job: 'hourly',
        eventTime: `2026-01-01T${String(i % 24).padStart(2, '0')}:00:00Z`,
      }),
    ).flat();
    const res = await t.post('/api/v1/lineage/batch', events);
    expect(res.body.summary.failed, res.text).to.equal(0);
    await open('/jobs/paging/hourly');
    await page.waitForSelector('[data-testid=runs] tbody tr');
    expect(await page.locator('[data-testid=runs] tbody tr').count()).to.equal(100);
    expect(await page.getByTestId('page-info').first().textContent()).to.equal('Page 1 of 2 · 101 in all');
    await page.getByRole('link', { name: 'Next →' }).first().click();
    await page.waitForURL(/page=2/);
    // The pager is drawn with the page's runs: once it says page 2, the table holds them.
    await page.getByText('Page 2 of 2 · 101 in all').first().waitFor();
    expect(await page.locator('[data-testid=runs] tbody tr').count()).to.equal(1);
    await open('/jobs/paging/hourly?page=9');
    await page.getByTestId('no-such-page').waitFor();
    expect(await page.getByTestId('no-such-page').textContent()).to.equal('There is no page 9 (2 in all). Last page');
  });

  it('shows a run: state, exact versions read and written, parent run and upstream runs', async () => {
    await open(`/runs/${stream.runs.transform}`);
    await page.waitForSelector('[data-testid=run-page]');
    expect(await page.getByTestId('title').textContent()).to.equal(stream.runs.transform);
    expect(await page.locator('h1 [data-state]').getAttribute('data-state')).to.equal('COMPLETED');
    const run = (await t.get(`/api/v1/jobs/runs/${stream.runs.transform}`)).body;
    const inputs = await page.$$eval('[data-testid=input-versions] li', (l) =>
      l.map((e) => [e.getAttribute('data-dataset'), e.getAttribute('data-version')]),
    );
    expect(inputs).to.deep.equal(run.inputVersions.map((v: { name: string; version: string }) => [v.name, v.version]));
    const ordersRead = inputs.find(([name]) => name === 'staging.orders')!;
    const ordersNow = (await t.get(`/api/v1/namespaces/${enc(DS_NS)}/datasets/staging.orders`)).body.currentVersion;
    expect(ordersRead[1]).to.equal(ordersNow);
    expect(
      await page.$$eval('[data-testid=output-versions] li', (l) => l.map((e) => e.getAttribute('data-dataset'))),
    ).to.deep.equal(['mart.daily_revenue']);
    expect(await page.getByTestId('parent-run').textContent())
      .to.include(stream.runs.dag.slice(0, 8))
      .and.include('shop_dag');
    const upstream = await page.$$eval('[data-testid=upstream-runs] tbody tr', (l) =>
      l.map((e) => e.getAttribute('data-run')),
    );
    // The writer of the staging.orders version it read; the staging.customers version it read is the
    // initial one (the failed ingest.customers run never made its version current).
    expect(upstream).to.deep.equal([stream.runs.ingestOrders2]);
    expect(await page.getByTestId('run-error').count()).to.equal(0);
    await shot('run');
    // Two producer hops up from the report's run, each with its distance and what it wrote for whom.
    await open(`/runs/${stream.runs.report}`);
    await page.waitForSelector('[data-testid=upstream-runs] tbody tr');
    expect(
      await page.$$eval('[data-testid=upstream-runs] tbody tr', (l) =>
        l.map((r) => [r.getAttribute('data-run'), r.getAttribute('data-hops'), r.children[3].textContent]),
      ),
    ).to.deep.equal([
      [stream.runs.transform, '1', 'mart.daily_revenue (this run)'],
      [
        stream.runs.ingestOrders2,
        '2',
        `staging.orders (run ${stream.runs.transform.slice(0, 8)}…${stream.runs.transform.slice(-4)})`,
      ],
    ]);
    // A failed run's error message next to its state; the stack trace folded.
    await open(`/runs/${stream.runs.ingestCustomers}`);
    await page.getByTestId('run-error').waitFor();
    expect(await page.getByTestId('run-error-message').textContent()).to.equal(
      'relation "raw.customers" does not exist',
    );
    expect(await page.getByTestId('run-error').locator('details').getAttribute('open')).to.equal(null);
    expect(await page.getByTestId('run-error').textContent()).to.include('Error (PYTHON):');
  });

  it('draws the lineage graph and follows depth and direction changes', async () => {
    await open(lineagePath(dsNode('mart.daily_revenue')));
    let g = await graphReady();
    expect(g.nodes).to.equal(12);
    expect(g.labels).to.deep.equal([
      'bi.revenue_dashboard',
      'ingest.customers',
      'ingest.orders',
      'legacy.export',
      'legacy.orders_export',
      'mart.daily_revenue',
      'raw.customers',
      'raw.orders',
      'report.revenue_dashboard',
      'staging.customers',
      'staging.orders',
      'transform.daily_revenue',
    ]);
    expect(g.edges).to.equal(11);
    const jobStates = await page.$$eval('[data-testid=node-list] button[data-kind=job]', (bs) =>
      Object.fromEntries(bs.map((b) => [b.querySelector('.node-name')!.textContent, b.getAttribute('data-state')])),
    );
    expect(jobStates).to.deep.equal({
      'ingest.customers': 'FAILED',
      'ingest.orders': 'COMPLETED',
      'legacy.export': 'COMPLETED',
      'report.revenue_dashboard': 'RUNNING',
      'transform.daily_revenue': 'COMPLETED',
    });
    expect(await page.getByTestId('graph-summary').textContent()).to.include('12 nodes (5 jobs, 7 datasets), 11 edges');
    await shot('lineage');

    // Upstream only: no siblings, nothing downstream.
    await page.getByText('Upstream', { exact: true }).click();
    await page.waitForURL(/direction=upstream/);
    g = await nextGraph(12);
    expect(g.labels).to.deep.equal([
      'ingest.customers',
      'ingest.orders',
      'mart.daily_revenue',
      'raw.customers',
      'raw.orders',
      'staging.customers',
      'staging.orders',
      'transform.daily_revenue',
    ]);

    // Downstream of raw.orders at depth 1, then 2 (the slider, by keyboard).
    await open(lineagePath(dsNode('raw.orders'), '&direction=downstream&depth=1'));
    g = await graphReady();
    expect(g.labels).to.deep.equal([
      'ingest.orders',
      'legacy.export',
      'legacy.orders_export',
      'mart.daily_revenue',
      'raw.orders',
      'staging.orders',
      'transform.daily_revenue',
    ]);
    const slider = page.getByTestId('depth');
    await slider.focus();
    await slider.press('ArrowRight');
    await page.waitForURL(/depth=2/);
    g = await nextGraph(7);
    expect(g.nodes).to.equal(9);
    expect(g.labels).to.include.members(['report.revenue_dashboard', 'bi.revenue_dashboard']);
    expect(await page.getByTestId('depth-value').textContent()).to.equal('2');
    await shot('lineage-downstream');
  });

  it('time travel: the graph as of four days ago', async () => {
    await open(
      lineagePath(dsNode('raw.orders'), `&direction=downstream&depth=5&asOf=${enc(stream.fourDaysAgo)}&window=all`),
    );
    const g = await graphReady();
    expect(g.labels).to.deep.equal([
      'ingest.orders',
      'legacy.export',
      'legacy.orders_export',
      'raw.orders',
      'staging.orders',
    ]);
    expect(await page.getByTestId('as-of').inputValue()).to.match(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/);
    expect(await page.getByTestId('graph-summary').textContent()).to.include('as of');
  });

  it('shows a window from the URL that the list does not offer, and names the default without a length', async () => {
    const checked = () => page.$eval('[data-testid=window] option:checked', (o) => o.textContent);
    await open(lineagePath(dsNode('mart.daily_revenue'), '&window=PT12H'));
    await graphReady();
    expect(await page.getByTestId('window').inputValue()).to.equal('PT12H');
    expect(await checked()).to.equal('PT12H');
    await page.getByTestId('window').selectOption('P7D');
    await page.waitForURL(/window=P7D/);
    expect(await checked()).to.equal('7 days');
    // The service's default is LINEAGE_WINDOW, whatever it is set to: the page does not name a length.
    await open(lineagePath(dsNode('mart.daily_revenue')));
    await graphReady();
    expect(await page.getByTestId('window').inputValue()).to.equal('');
    expect(await checked()).to.equal('Service default');
  });

  it('selects a node, highlights the path to a second one, and re-centres', async () => {
    await open(lineagePath(dsNode('mart.daily_revenue')));
    await graphReady();
    await clickNode(dsNode('raw.orders'));
    await page.waitForSelector(`[data-testid=node-details][data-node-id="${dsNode('raw.orders')}"]`);
    expect(page.url()).to.include(`selected=${enc(dsNode('raw.orders'))}`);
    await clickNode(dsNode('bi.revenue_dashboard'), true);
    await page.waitForSelector('[data-testid=path-info] li');
    expect(await texts('[data-testid=path-info] li')).to.deep.equal([
      'raw.orders',
      'ingest.orders',
      'staging.orders',
      'transform.daily_revenue',
      'mart.daily_revenue',
      'report.revenue_dashboard',
      'bi.revenue_dashboard',
    ]);
    const highlighted = await page.evaluate(() => (globalThis as unknown as PageGlobals).lineageGraph!.pathIds());
    expect(highlighted).to.have.length(13); // 7 nodes, 6 edges
    expect(highlighted).to.include.members([
      dsNode('raw.orders'),
      jobNode('ingest.orders'),
      dsNode('bi.revenue_dashboard'),
    ]);
    await shot('lineage-path');
    // The node list selects too (keyboard path), and its details offer a re-centre link.
    await page.locator(`[data-testid=node-list] button[data-node-id="${jobNode('ingest.customers')}"]`).click();
    await page.waitForSelector(`[data-testid=node-details][data-node-id="${jobNode('ingest.customers')}"]`);
    expect(await page.getByTestId('node-details').textContent()).to.include('FAILED');
    await page.getByTestId('recenter').click();
    await page.waitForURL((u) => u.searchParams.get('node') === jobNode('ingest.customers'));
    await page.waitForFunction(
      () =>
        (globalThis as unknown as PageGlobals).document.querySelector('[data-testid=lineage-start]')?.textContent ===
        'ingest.customers',
    );
    await graphReady();
  });

  it('pans and zooms the canvas with the mouse, the buttons and the keyboard', async () => {
    await open(lineagePath(dsNode('mart.daily_revenue')));
    await graphReady();
    type Point = { x: number; y: number };
    const at = (id: string) =>
      page.evaluate((nodeId) => (globalThis as unknown as PageGlobals).lineageGraph!.clientPoint(nodeId)!, id);
    const span = async () => {
      const [a, b] = [await at(dsNode('raw.orders')), await at(dsNode('bi.revenue_dashboard'))];
      return Math.hypot(a.x - b.x, a.y - b.y);
    };
    const fitted = await span();
    await page.getByRole('button', { name: 'Zoom in' }).click();
    expect((await span()) / fitted).to.be.closeTo(1.25, 0.01);
    // A drag moves the drawing with the pointer and selects nothing.
    const before: Point = await at(dsNode('raw.orders'));
    const box = (await page.getByTestId('graph').boundingBox())!;
    const [cx, cy] = [box.x + box.width / 2, box.y + box.height / 2];
    await page.mouse.move(cx, cy);
    await page.mouse.down();
    await page.mouse.move(cx + 120, cy + 40, { steps: 6 });
    await page.mouse.up();
    const dragged: Point = await at(dsNode('raw.orders'));
    expect(dragged.x - before.x).to.be.closeTo(120, 1);
    expect(dragged.y - before.y).to.be.closeTo(40, 1);
    expect(new URL(page.url()).searchParams.get('selected')).to.equal(null);
    // The wheel zooms around the pointer: the node under it stays put.
    await page.mouse.move(dragged.x, dragged.y);
    const spanBeforeWheel = await span();
    await page.mouse.wheel(0, -200);
    await page.waitForFunction(
      ([id, x]) => Math.abs((globalThis as unknown as PageGlobals).lineageGraph!.clientPoint(id)!.x - x) < 1.5,
      [dsNode('raw.orders'), dragged.x] as const,
    );
    expect(await span()).to.be.greaterThan(spanBeforeWheel * 1.2);
    // Keyboard on the focused canvas: 0 fits again, minus zooms out.
    await page.getByTestId('graph').focus();
    await page.keyboard.press('0');
    expect(await span()).to.be.closeTo(fitted, 1);
    await page.keyboard.press('-');
    expect((await span()) / fitted).to.be.closeTo(0.8, 0.01);
    await page.getByTestId('fit').click();
    expect(await span()).to.be.closeTo(fitted, 1);
  });

  it('lists the downstream impact from /api/v1/impact and downloads the service’s CSV', async () => {
    const apiRequests: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname.startsWith('/api/v1/')) apiRequests.push(new URL(r.url()).pathname);
    });
    await open(`/impact?node=${enc(dsNode('staging.orders'))}`);
    await page.waitForSelector('[data-testid=impact] tbody tr');
    const rows = await page.$$eval('[data-testid=impact] tbody tr', (l) =>
      l.map((r) => [
        r.getAttribute('data-node-id'),
        r.getAttribute('data-distance'),
        r.children[0].textContent,
        r.querySelector('[data-testid=via]')?.textContent,
      ]),
    );
    expect(rows).to.deep.equal([
      // Hops as `depth` counts them: the readers of the start and what they write show at depth 0.
      [jobNode('legacy.export'), '1', '0', 'staging.orders'],
      [jobNode('transform.daily_revenue'), '1', '0', 'staging.orders'],
      [dsNode('legacy.orders_export'), '2', '0', 'legacy.export'],
      [dsNode('mart.daily_revenue'), '2', '0', 'transform.daily_revenue'],
      [jobNode('report.revenue_dashboard'), '3', '1', 'mart.daily_revenue'],
      [dsNode('bi.revenue_dashboard'), '4', '1', 'report.revenue_dashboard'],
    ]);
    const states = await page.$$eval('[data-testid=impact] tbody tr [data-state]', (l) =>
      l.map((b) => b.getAttribute('data-state')),
    );
    expect(states).to.deep.equal(['COMPLETED', 'COMPLETED', 'RUNNING']);
    const summary = await page.getByTestId('impact-summary').textContent();
    expect(summary).to.equal('6 downstream: 3 jobs (0 failing), 3 datasets · by job hops: 0: 4, 1: 2');
    expect(apiRequests.filter((p) => p === '/api/v1/impact')).to.have.length(1);
    expect(apiRequests, 'the view asks the impact endpoint, not the lineage graph').to.not.include('/api/v1/lineage');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('csv').click()]);
    const csv = fs.readFileSync((await download.path())!, 'utf8').split('\r\n');
    expect(csv[0]).to.equal('id,type,namespace,name,distance,via,tags,owners,latestRunState,latestRunEndedAt');
    expect(csv).to.have.length(8); // header, 6 rows, and the empty string after the last CRLF
    expect(csv[5]).to.equal(
      `${jobNode('report.revenue_dashboard')},JOB,${JOB_NS},report.revenue_dashboard,3,` +
        `${dsNode('mart.daily_revenue')},[],[],RUNNING,`,
    );
    await shot('impact');

    // A list cut at the limit says so, and the CSV still has every node reached.
    await open(`/impact?node=${enc(dsNode('staging.orders'))}&limit=3`);
    await page.waitForSelector('[data-testid=impact-truncated]');
    expect(await page.locator('[data-testid=impact] tbody tr').count()).to.equal(3);
    expect(await page.getByTestId('impact-truncated').textContent()).to.include(
      'showing the nearest 3 of 6; the CSV has all of them',
    );
    expect(await page.getByTestId('impact-summary').textContent()).to.include(
      '6 downstream: 3 jobs (0 failing), 3 datasets',
    );
    const [full] = await Promise.all([page.waitForEvent('download'), page.getByTestId('csv').click()]);
    const lines = fs
      .readFileSync((await full.path())!, 'utf8')
      .trim()
      .split('\r\n');
    expect(lines.slice(1).map((l) => l.split(',')[0])).to.deep.equal(rows.map((r) => r[0]));
  });

  it('keeps a deep link’s row limit on the impact page when the depth changes', async () => {
    await open(`/impact?node=${enc(dsNode('staging.orders'))}&limit=2`);
    await page.getByTestId('impact-truncated').waitFor();
    expect(await page.getByTestId('impact-truncated').textContent()).to.include('showing the nearest 2 of 6');
    const deeper = page.waitForResponse((r) => {
      const url = new URL(r.url());
      return url.pathname === '/api/v1/impact' && url.searchParams.get('depth') === '1';
    });
    await page.getByLabel('Depth in job hops').fill('1');
    const answer = await deeper;
    expect(new URL(answer.url()).searchParams.get('limit')).to.equal('2');
    expect(new URL(page.url()).searchParams.get('limit')).to.equal('2');
    await page.waitForSelector('[data-testid=impact] tbody tr');
    expect(await page.locator('[data-testid=impact] tbody tr').count()).to.equal(2);
  });

  it('shows a dataset’s readers and what they write alone at depth 0, as hop 0', async () => {
    const shallow = page.waitForResponse((r) => {
      const url = new URL(r.url());
      return url.pathname === '/api/v1/impact' && url.searchParams.get('depth') === '0';
    });
    await open(`/impact?node=${enc(dsNode('staging.orders'))}&depth=0`);
    await shallow;
    await page.waitForSelector('[data-testid=impact] tbody tr');
    const hops = await page.$$eval('[data-testid=impact] tbody tr', (l) => l.map((r) => r.children[0].textContent));
    expect(hops).to.deep.equal(['0', '0', '0', '0']);
    expect(await page.getByLabel('Depth in job hops').inputValue()).to.equal('0');
  });

  it('says what the impact page needs without a node, and when nothing is downstream', async () => {
    await open('/impact');
    await page.getByText('Search for a job or dataset above, then open its impact.').waitFor();
    expect(await page.locator('main h1').textContent()).to.equal('Impact');
    expect(await page.getByRole('link', { name: 'Show as a graph' }).count()).to.equal(0);
    expect(await page.getByTestId('csv').count()).to.equal(0);
    await open(`/impact?node=${enc(dsNode('bi.revenue_dashboard'))}`);
    await page.getByTestId('impact-empty').waitFor();
    expect(await page.getByTestId('impact-empty').textContent()).to.equal('Nothing downstream within 20 job hops.');
    expect(await page.getByTestId('impact').count()).to.equal(0);
  });

  it('shows column lineage as a graph, a table of mappings and each column with its impact link', async () => {
    await open(`/column-lineage?node=${enc(dsNode('mart.daily_revenue'))}`);
    const g = await graphReady();
    expect(g.nodes).to.equal(5); // day, revenue ← id, amount, discount
    // Each column drawn with its dataset (two datasets' `id` columns read apart).
    const drawn = await page.evaluate(() =>
      (globalThis as unknown as PageGlobals).lineageGraph!.model.nodes.map((n) => n.label),
    );
    expect(drawn.sort()).to.deep.equal([
      'mart.daily_revenue.day',
      'mart.daily_revenue.revenue',
      'staging.orders.amount',
      'staging.orders.discount',
      'staging.orders.id',
    ]);
    const mappings = await page.$$eval('[data-testid=column-mappings] tbody tr', (l) =>
      l.map((r) => `${r.children[1].textContent} → ${r.children[0].textContent} (${r.children[3].textContent})`),
    );
    expect(mappings.sort()).to.deep.equal([
      'staging.orders.amount → mart.daily_revenue.revenue (DIRECT/AGGREGATION)',
      'staging.orders.discount → mart.daily_revenue.revenue (DIRECT/AGGREGATION)',
      'staging.orders.id → mart.daily_revenue.day (DIRECT/IDENTITY)',
    ]);
    // The summary counts what the table lists: one row a mapping.
    expect(await page.getByTestId('graph-summary').textContent()).to.match(/^5 columns, 3 mappings \(input column/);
    await shot('column-lineage');
    // Each column links to its impact (GET /api/v1/impact from a datasetField id).
    expect(await texts('[data-testid=columns] tbody tr td:first-child')).to.deep.equal([
      'mart.daily_revenue.day',
      'mart.daily_revenue.revenue',
      'staging.orders.amount',
      'staging.orders.discount',
      'staging.orders.id',
    ]);
    const amount = `datasetField:${DS_NS}:staging.orders:amount`;
    const link = page.locator(
      '[data-testid=columns] tr[data-column="staging.orders.amount"] [data-testid=column-impact]',
    );
    expect(await link.getAttribute('href')).to.equal(`/impact?node=${enc(amount)}`);
    await link.click();
    await page.waitForSelector('[data-testid=impact] tbody tr');
    expect(await page.getByTestId('impact-start').textContent()).to.include('staging.orders.amount');
    expect(
      await page.$$eval('[data-testid=impact] tbody tr', (l) => l.map((r) => r.getAttribute('data-node-id'))),
    ).to.deep.equal([`datasetField:${DS_NS}:mart.daily_revenue:revenue`]);
  });

  it('tells same-named nodes apart; shows a dataset opened through a symlink alias, and its other names', async () => {
    // `orders` in two namespaces; the written one is also known as hive://meta's sales.orders.
    const symlinks = facet({ identifiers: [{ namespace: 'hive://meta', name: 'sales.orders', type: 'TABLE' }] });
    const events = completedRun({
      job: 'load.orders',
      jobNamespace: 'aliases',
      inputs: [{ namespace: 'landing', name: 'orders' }],
      outputs: [{ namespace: 'warehouse', name: 'orders', facets: { symlinks } }],
    });
    for (const e of events) expect((await t.post('/api/v1/lineage', e)).status).to.equal(201);
    await open(lineagePath('dataset:warehouse:orders', '&window=all'));
    await graphReady();
    const list = page.getByTestId('node-list');
    for (const name of ['orders, dataset in landing', 'orders, dataset in warehouse', 'load.orders, job in aliases'])
      expect(await list.getByRole('button', { name, exact: true }).count(), name).to.equal(1);
    expect(await list.locator('button[data-node-id="dataset:landing:orders"] .node-meta').textContent()).to.equal(
      'dataset · landing',
    );
    // Opened under the alias: the API answers with the primary; the page says so and links to it.
    await open(`/datasets/${enc('hive://meta')}/sales.orders`);
    await page.getByTestId('opened-via-alias').waitFor();
    expect(await page.getByTestId('title').textContent()).to.equal('orders');
    expect(await page.getByTestId('opened-via-alias').textContent()).to.include('hive://meta sales.orders');
    expect(await page.getByTestId('canonical').getAttribute('href')).to.equal('/datasets/warehouse/orders');
    await page.getByTestId('canonical').click();
    await page.waitForURL('**/datasets/warehouse/orders');
    await page.getByTestId('aliases').waitFor();
    expect(await page.getByTestId('opened-via-alias').count()).to.equal(0);
    expect(await page.getByTestId('aliases').textContent()).to.equal('hive://meta sales.orders (TABLE)');
  });

  it('follows the system’s dark theme', async () => {
    const dark = await browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: 'dark' });
    try {
      const p = await dark.newPage();
      await p.goto(`${t.baseUrl}${lineagePath(dsNode('mart.daily_revenue'))}`);
      await p.waitForSelector('[data-testid=graph][data-state=ready]');
      const [body, text] = (await p.evaluate(
        `[getComputedStyle(document.body).backgroundColor, getComputedStyle(document.body).color]`,
      )) as [string, string];
      expect(body).to.equal('rgb(13, 17, 23)');
      expect(text).to.equal('rgb(230, 237, 243)');
      await p.screenshot({ path: path.join(shots, 'lineage-dark.png') });
    } finally {
      await dark.close();
    }
  });

  it('opens deep links directly, and back/forward restore the graph state', async () => {
    await open(datasetPath('staging.orders', 'versions'));
    await page.waitForSelector('[data-testid=versions] tbody tr');
    expect(await page.locator('.tabs a.active').getAttribute('data-tab')).to.equal('versions');
    await open(lineagePath(dsNode('staging.orders'), '&direction=downstream&depth=1'));
    let g = await graphReady();
    expect(g.nodes).to.equal(7);
    await page.getByText('Both', { exact: true }).click();
    await page.waitForURL((u) => !u.searchParams.has('direction'));
    g = await nextGraph(7);
    expect(g.nodes).to.equal(12);
    await page.goBack();
    await page.waitForURL(/direction=downstream/);
    g = await nextGraph(12);
    expect(g.nodes).to.equal(7);
    await open('/no/such/page');
    expect(await page.locator('h1').textContent()).to.equal('Not found');
  });
});
