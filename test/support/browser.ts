/**
 * What the browser tests and `npm run bench:ui` share: a fresh build of the web UI (once per process,
 * into a temporary folder, so a stale dist/web never decides a test) and Debian's Chromium driven by
 * playwright-core (no browser download: CHROMIUM_PATH, else /usr/bin/chromium).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { projectRoot } from '../../src/paths.js';

let built: Promise<string> | null = null;

/** Builds web/ with its Vite config into a temporary folder; the same folder for the whole process. */
export function buildWebUi(): Promise<string> {
  built ??= (async () => {
    const { build } = await import('vite');
    const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lineage-web-'));
    await build({
      configFile: path.join(projectRoot, 'web', 'vite.config.ts'),
      logLevel: 'warn',
      build: { outDir, emptyOutDir: true },
    });
    process.once('exit', () => fs.rmSync(outDir, { recursive: true, force: true }));
    return outDir;
  })();
  return built;
}

export function chromiumPath(): string | null {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(
    (p): p is string => Boolean(p),
  );
  return candidates.find((p) => fs.existsSync(p)) ?? null;
}

// As the machine notes say: without the background-networking flags Chromium keeps trying hosts this
// network refuses. Playwright gives it a fresh, empty user data dir per launch.
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export async function launchChromium(): Promise<Browser> {
  const executablePath = chromiumPath();
  if (!executablePath) throw new Error('no Chromium found (install Debian chromium, or set CHROMIUM_PATH)');
  const { chromium } = await import('playwright-core');
  return chromium.launch({ executablePath, headless: true, args: CHROMIUM_ARGS });
}

/** Where tests and benches put screenshots (git-ignored). */
export function outputDir(...parts: string[]): string {
  const dir = path.join(projectRoot, 'test-output', ...parts);
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}
