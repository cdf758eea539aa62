/**
 * npm run bench:ui — the web UI in headless Chromium (Debian's, driven by playwright-core): time from
 * navigation to a rendered, interactive lineage graph of about 200 and 2,000 nodes, and the size of
 * what the first page downloads.
 *
 * Setup: a private Neo4j, the real app in this process serving a fresh build of web/, and two
 * layered graphs ingested through POST /api/v1/lineage/batch (one COMPLETE event per job):
 * `layers` layers of `width` datasets, each job of layer k reading dataset i and one random dataset
 * of layer k-1 and writing dataset i of layer k, so 200 ≈ 10 layers × 10, 2,000 ≈ 20 layers × 49.
 *
 * Each measurement opens a new browser context (empty cache) and navigates to
 * /lineage?node=<a dataset of the middle layer>&depth=20 (both directions: the whole graph):
 *   readyMs  navigation start → the graph's `lineage-graph-ready` mark (first frame drawn after
 *            layout, the canvas answering input);
 *   apiMs    the GET /api/v1/lineage request alone (resource timing), inside readyMs;
 *   clickMs  then a click on a node → its details panel shown (the graph is interactive).
 * Baseline in the same run: the first page (`/`, namespaces listed). Results: bench/results/ui.json.
 * The unmeasured warm-up round saves a screenshot of each graph in test-output/bench/.
 * Also, from Node (no browser), the lineage request of the 2,000-node graph alone, with the full node
 * data and with `fields=minimal` (what the page asks for), interleaved.
 * Env: BENCH_UI_RUNS (default 5 per case); BENCH_UI_BASELINE_WEB: a build of another version of web/
 * (e.g. `git stash; npx vite build --config web/vite.config.ts --outDir /tmp/web-before`), served by a
 * second app on the same database and measured interleaved with this one (cases `<n>-baseline`), so a
 * before/after ratio comes from one run on the same machine load.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { cpuSpeedProbe, machine, startBenchNeo4j, summarize, writeResult } from './support.js';
import { rng } from './traffic.js';
import { createApp } from '../src/app.js';
import { createLogger } from '../src/logger.js';
import { createDriver } from '../src/neo4j/runtime.js';
import { Db } from '../src/store/db.js';
import { applySchema } from '../src/store/schema.js';
import { buildWebUi, launchChromium, outputDir } from '../test/support/browser.js';

const RUNS = Number(process.env.BENCH_UI_RUNS ?? 5);
const PRODUCER = 'https://example.com/bench-ui';
const SCHEMA = 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent';

interface Shape {
  name: string;
  layers: number;
  width: number;
}

const SHAPES: Shape[] = [
  { name: '200', layers: 10, width: 10 },
  { name: '2000', layers: 20, width: 49 },
];

function graphEvents(shape: Shape): { events: Record<string, unknown>[]; start: string } {
  const ns = `bench-ui-${shape.name}`;
  const next = rng(shape.layers * 1000 + shape.width);
  const ds = (k: number, i: number) => ({
    namespace: ns,
    name: `l${String(k).padStart(2, '0')}.table_${String(i).padStart(3, '0')}`,
    facets: {},
  });
  const events: Record<string, unknown>[] = [];
  const now = Date.now();
  for (let k = 1; k <= shape.layers; k++) {
    for (let i = 0; i < shape.width; i++) {
      const other = Math.floor(next() * shape.width);
      const inputs = other === i ? [ds(k - 1, i)] : [ds(k - 1, i), ds(k - 1, other)];
      events.push({
        eventType: 'COMPLETE',
        eventTime: new Date(now - (shape.layers - k) * 60_000).toISOString(),
        producer: PRODUCER,
        schemaURL: SCHEMA,
        run: { runId: crypto.randomUUID(), facets: {} },
        job: { namespace: ns, name: `l${String(k).padStart(2, '0')}.job_${String(i).padStart(3, '0')}`, facets: {} },
        inputs,
        outputs: [ds(k, i)],
      });
    }
  }
  const mid = ds(Math.floor(shape.layers / 2), Math.floor(shape.width / 2));
  return { events, start: `dataset:${mid.namespace}:${mid.name}` };
}

async function post(base: string, pathname: string, body: unknown): Promise<{ status: number; text: string }> {
  const res = await fetch(base + pathname, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, text: await res.text() };
}

/**
 * Posts a batch; events refused as overloaded (a loaded shared machine) are posted again after a pause,
 * any other refusal fails the bench.
 */
async function ingest(base: string, batch: Record<string, unknown>[]): Promise<void> {
  let pending = batch;
  for (let attempt = 0; pending.length > 0; attempt++) {
    const res = await post(base, '/api/v1/lineage/batch', pending);
    if (res.status !== 200) throw new Error(`ingest failed: ${res.status} ${res.text.slice(0, 300)}`);
    const failed = (JSON.parse(res.text) as { failed_events: { index: number; reason: string }[] }).failed_events;
    if (failed.some((f) => !/overloaded/i.test(f.reason)) || attempt >= 30)
      throw new Error(`ingest failed: ${res.text.slice(0, 300)}`);
    pending = failed.map((f) => pending[f.index]);
    if (pending.length > 0) await new Promise((resolve) => setTimeout(resolve, 2_000));
  }
}

/** The lineage request alone (Node's fetch, brotli like a browser): ms to the last byte, and bytes. */
async function measureApi(base: string, start: string, extra: string) {
  const t0 = performance.now();
  const res = await fetch(`${base}/api/v1/lineage?nodeId=${encodeURIComponent(start)}&depth=20${extra}`, {
    headers: { 'accept-encoding': 'br' },
  });
  const body = await res.text();
  if (res.status !== 200) throw new Error(`lineage answered ${res.status}`);
  return { ms: performance.now() - t0, jsonBytes: body.length };
}

function gz(file: string): { bytes: number; gzip: number } {
  const body = fs.readFileSync(file);
  return { bytes: body.length, gzip: zlib.gzipSync(body, { level: 9 }).length };
}

/** What a cold first page downloads: index.html and what it references (JS, CSS), plus lazy chunks per page. */
function bundleSizes(webRoot: string) {
  const assets = fs.readdirSync(path.join(webRoot, 'assets'));
  const html = fs.readFileSync(path.join(webRoot, 'index.html'), 'utf8');
  const entry = assets.filter((a) => html.includes(`/assets/${a}`));
  const lazy = assets.filter((a) => !entry.includes(a) && a.endsWith('.js'));
  const files: Record<string, { bytes: number; gzip: number }> = { 'index.html': gz(path.join(webRoot, 'index.html')) };
  for (const a of assets) files[a] = gz(path.join(webRoot, 'assets', a));
  const sum = (names: string[]) =>
    names.reduce((acc, n) => ({ bytes: acc.bytes + files[n].bytes, gzip: acc.gzip + files[n].gzip }), {
      bytes: 0,
      gzip: 0,
    });
  return {
    files,
    firstPage: { files: ['index.html', ...entry], ...sum(['index.html', ...entry]) },
    lineagePage: { files: ['index.html', ...entry, ...lazy], ...sum(['index.html', ...entry, ...lazy]) },
  };
}

// Scripts run in the page, as source text: this program has no DOM types.
const TRANSFERRED = `(() => {
  const nav = performance.getEntriesByType('navigation')[0];
  const res = performance.getEntriesByType('resource');
  const assets = res.filter((r) => !r.name.includes('/api/'));
  return (nav ? nav.encodedBodySize : 0) + assets.reduce((s, r) => s + r.encodedBodySize, 0);
})()`;
const HOME_READY = `document.querySelector('[data-testid=namespaces] tbody tr') ? performance.now() : 0`;
const GRAPH_TIMES = `(() => {
  const mark = performance.getEntriesByName('lineage-graph-ready')[0];
  const api = performance.getEntriesByType('resource').find((r) => r.name.includes('/api/v1/lineage?'));
  const el = document.querySelector('[data-testid=graph]');
  return {
    readyMs: mark ? mark.startTime : NaN,
    apiStartMs: api ? api.startTime : NaN,
    apiMs: api ? api.responseEnd - api.startTime : NaN,
    apiBytes: api ? api.encodedBodySize : NaN,
    nodes: Number(el.getAttribute('data-node-count')),
    edges: Number(el.getAttribute('data-edge-count')),
    drawMs: Number(el.getAttribute('data-render-ms')),
    timings: JSON.parse(el.getAttribute('data-timings') || '{}'),
  };
})()`;
// A node drawn well inside the canvas (not under the zoom buttons).
const CLICK_TARGET = `(() => {
  const g = window.lineageGraph;
  for (const n of g.model.nodes) {
    const p = g.clientPoint(n.id);
    if (p && p.x > 40 && p.y > 250 && p.x < 900 && p.y < 700) return { id: n.id, x: p.x, y: p.y };
  }
  return null;
})()`;

async function transferred(page: Page): Promise<number> {
  return page.evaluate<number>(TRANSFERRED);
}

async function measureHome(browser: Browser, base: string) {
  // bypassCSP: the page's policy forbids eval, which Playwright's string predicates use.
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, bypassCSP: true });
  const page = await context.newPage();
  await page.goto(`${base}/`, { waitUntil: 'commit' });
  const handle = await page.waitForFunction(HOME_READY, undefined, { polling: 'raf', timeout: 60_000 });
  const readyMs = Number(await handle.jsonValue());
  const bytes = await transferred(page);
  await context.close();
  return { readyMs, transferredBytes: bytes };
}

async function measureGraph(browser: Browser, base: string, start: string, screenshot?: string) {
  // bypassCSP: the page's policy forbids eval, which Playwright's string predicates use.
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, bypassCSP: true });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${base}/lineage?node=${encodeURIComponent(start)}&depth=20`, { waitUntil: 'commit' });
  await page.waitForSelector('[data-testid=graph][data-state=ready]', { timeout: 120_000 });
  const t = await page.evaluate<{
    readyMs: number;
    apiStartMs: number;
    apiMs: number;
    apiBytes: number;
    nodes: number;
    edges: number;
    drawMs: number;
    timings: Record<string, number>;
  }>(GRAPH_TIMES);
  // Interactive: click a node far from the start, wait for its details.
  const target = await page.evaluate<{ id: string; x: number; y: number } | null>(CLICK_TARGET);
  let clickMs = NaN;
  if (target) {
    const t0 = performance.now();
    await page.mouse.click(target.x, target.y);
    await page.waitForSelector(`[data-testid=node-details][data-node-id="${target.id.replace(/"/g, '\\"')}"]`, {
      timeout: 30_000,
    });
    clickMs = performance.now() - t0;
  }
  if (screenshot) await page.screenshot({ path: screenshot });
  const bytes = await transferred(page);
  await context.close();
  if (errors.length) throw new Error(`errors in the page: ${errors.join('; ')}`);
  return { ...t, clickMs, transferredBytes: bytes };
}

const med = (xs: number[]) => summarize(xs);

async function main() {
  const probeBefore = cpuSpeedProbe();
  const load = os.loadavg();
  console.log(`building the web UI; cpu probe ${probeBefore} ops/s, load ${load.map((l) => l.toFixed(2)).join(' ')}`);
  const webRoot = await buildWebUi();
  const neo4j = await startBenchNeo4j('ui');
  const driver = createDriver(neo4j.uri, 'neo4j', '');
  const db = new Db(driver, 'neo4j', 60_000);
  let server: http.Server | null = null;
  let baselineServer: http.Server | null = null;
  const baselineWeb = process.env.BENCH_UI_BASELINE_WEB;
  let browser: Browser | null = null;
  try {
    await applySchema(db);
    const app = createApp({ db, logger: createLogger('silent'), bodyLimitBytes: 50 * 1024 * 1024, webRoot });
    await app.services.namespaces.ensureDefault();
    server = http.createServer(app.koa.callback());
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', () => resolve()));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    let baselineBase: string | null = null;
    if (baselineWeb) {
      const other = createApp({
        db,
        logger: createLogger('silent'),
        bodyLimitBytes: 1024 * 1024,
        webRoot: baselineWeb,
      });
      baselineServer = http.createServer(other.koa.callback());
      await new Promise<void>((resolve) => baselineServer!.listen(0, '127.0.0.1', () => resolve()));
      baselineBase = `http://127.0.0.1:${(baselineServer.address() as AddressInfo).port}`;
    }

    const starts: Record<string, string> = {};
    for (const shape of SHAPES) {
      const { events, start } = graphEvents(shape);
      for (let i = 0; i < events.length; i += 200) await ingest(base, events.slice(i, i + 200));
      starts[shape.name] = start;
      console.log(`graph ${shape.name}: ${events.length} jobs ingested`);
    }

    browser = await launchChromium();
    // One unmeasured round warms the service (query plans) and Chromium's own start-up.
    await measureHome(browser, base);
    // ... and leaves a screenshot of each graph (node selected) in test-output/bench/.
    for (const shape of SHAPES)
      await measureGraph(browser, base, starts[shape.name], path.join(outputDir('bench'), `ui-${shape.name}.png`));

    // Each graph case: this build, and the baseline build when one is given.
    const variants: { suffix: string; base: string }[] = [{ suffix: '', base }];
    if (baselineBase) {
      variants.push({ suffix: '-baseline', base: baselineBase });
      for (const shape of SHAPES) await measureGraph(browser, baselineBase, starts[shape.name]);
    }
    const caseNames = SHAPES.flatMap((s) => variants.map((v) => s.name + v.suffix));
    const home: Awaited<ReturnType<typeof measureHome>>[] = [];
    const graphs: Record<string, Awaited<ReturnType<typeof measureGraph>>[]> = Object.fromEntries(
      caseNames.map((name) => [name, []]),
    );
    const api: Record<'full' | 'minimal', { ms: number; jsonBytes: number }[]> = { full: [], minimal: [] };
    const loads: number[] = [];
    for (let r = 0; r < RUNS; r++) {
      // Interleaved, so a slow moment of the shared machine hits every case alike.
      loads.push(os.loadavg()[0]);
      home.push(await measureHome(browser, base));
      for (const shape of SHAPES) {
        for (const v of variants) {
          const m = await measureGraph(browser, v.base, starts[shape.name]);
          graphs[shape.name + v.suffix].push(m);
          console.log(
            `run ${r + 1} (load ${os.loadavg()[0].toFixed(1)}): ${shape.name}${v.suffix}: ${m.nodes} nodes, ready ` +
              `${Math.round(m.readyMs)} ms (api ${Math.round(m.apiMs)} ms; graph ${JSON.stringify(m.timings)}), ` +
              `click → details ${Math.round(m.clickMs)} ms`,
          );
        }
      }
      api.full.push(await measureApi(base, starts['2000'], ''));
      api.minimal.push(await measureApi(base, starts['2000'], '&fields=minimal'));
      console.log(
        `run ${r + 1}: lineage request of 2000 from Node: full ${Math.round(api.full[r].ms)} ms, minimal ` +
          `${Math.round(api.minimal[r].ms)} ms`,
      );
    }
    const homeReady = med(home.map((h) => h.readyMs));
    const cases = Object.fromEntries(
      caseNames.map((name) => {
        const ms = graphs[name];
        const ready = med(ms.map((m) => m.readyMs));
        return [
          name,
          {
            nodes: ms[0].nodes,
            edges: ms[0].edges,
            readyMs: ready,
            apiMs: med(ms.map((m) => m.apiMs)),
            apiStartMs: med(ms.map((m) => m.apiStartMs)),
            apiResponseBytes: ms[0].apiBytes,
            drawMs: med(ms.map((m) => m.drawMs)),
            clickToDetailsMs: med(ms.map((m) => m.clickMs)),
            transferredBytes: ms[0].transferredBytes,
            readyOverFirstPage: Math.round((ready.p50 / homeReady.p50) * 100) / 100,
            raw: ms,
          },
        ];
      }),
    );
    const apiOnly = {
      what: 'GET /api/v1/lineage of the 2,000-node graph from Node (brotli), full node data vs fields=minimal',
      fullMs: med(api.full.map((a) => a.ms)),
      minimalMs: med(api.minimal.map((a) => a.ms)),
      fullJsonBytes: api.full[0].jsonBytes,
      minimalJsonBytes: api.minimal[0].jsonBytes,
    };
    const ratio = (a: string, b: string) =>
      cases[a] && cases[b] ? Math.round((cases[a].readyMs.p50 / cases[b].readyMs.p50) * 100) / 100 : null;
    const bundle = bundleSizes(webRoot);
    const probeAfter = cpuSpeedProbe();
    const result = {
      bench: 'ui',
      what:
        'navigation → rendered interactive lineage graph in headless Chromium (cold cache each run); first page ' +
        '= / with the namespaces listed (baseline)',
      machine: {
        ...machine(),
        nproc: os.cpus().length,
        loadavgAtStart: load,
        loadavgAtEnd: os.loadavg(),
        cpuProbeOpsPerSec: { before: probeBefore, after: probeAfter },
        chromium: browser.version(),
      },
      runs: RUNS,
      targets: { '200': 'readyMs p50 < 1500', '2000': 'readyMs p50 < 4000', firstPageGzip: '< 500 KB' },
      firstPage: { readyMs: homeReady, transferredBytes: home[0].transferredBytes },
      graphs: cases,
      loadavg1PerRun: loads,
      ratio2000over200: ratio('2000', '200'),
      // This build over the baseline build, same run (null without BENCH_UI_BASELINE_WEB).
      ratioOverBaseline: { '200': ratio('200', '200-baseline'), '2000': ratio('2000', '2000-baseline') },
      baselineWeb: baselineWeb ?? null,
      apiOnly,
      bundle,
    };
    const file = writeResult('ui', result);
    console.log(
      JSON.stringify(
        {
          firstPage: result.firstPage,
          graphs: Object.fromEntries(
            Object.entries(cases).map(([k, v]) => [
              k,
              { nodes: v.nodes, readyMs: v.readyMs, apiMs: v.apiMs, clickToDetailsMs: v.clickToDetailsMs },
            ]),
          ),
          ratioOverBaseline: result.ratioOverBaseline,
          apiOnly: { fullMs: apiOnly.fullMs.p50, minimalMs: apiOnly.minimalMs.p50 },
          firstPageGzip: bundle.firstPage.gzip,
          lineagePageGzip: bundle.lineagePage.gzip,
        },
        null,
        2,
      ),
    );
    console.log(`→ ${file}`);
  } finally {
    await browser?.close();
    if (server) await new Promise<void>((resolve) => server!.close(() => resolve()));
    if (baselineServer) await new Promise<void>((resolve) => baselineServer!.close(() => resolve()));
    await driver.close();
    await neo4j.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
