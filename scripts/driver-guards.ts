/**
 * Runs every driver patch's guard (src/neo4j/patches/) against a neo4j-driver release fetched from the
 * npm registry, so a driver upgrade is one decision: the guards say which patches still apply.
 *
 *   npm run driver:check-patches            the newest 5.x (the pinned driver's release line)
 *   npm run driver:check-patches -- 6       any npm range or tag: 6, latest, 5.27.0, ...
 *
 * The release is installed with the ordinary npm client (no install scripts) into a cache folder
 * under node_modules/.cache/driver-guards/<version>, reused while that version is the newest. A
 * registry that cannot be reached is an error saying so, never a silent pass.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { patchGuards, type GuardResult } from '../src/neo4j/patches/index.js';
import { requireFromDriverAt } from '../src/neo4j/patches/driver-internals.js';
import { projectRoot } from '../src/paths.js';

export class RegistryUnreachable extends Error {}

function npm(args: string[], cwd = projectRoot): string {
  const r = spawnSync('npm', args, { cwd, encoding: 'utf8', timeout: 180_000 });
  if (r.error || r.status !== 0) {
    const why = (r.error?.message ?? r.stderr ?? '').trim().split('\n').slice(-3).join(' | ');
    throw new RegistryUnreachable(`npm ${args.join(' ')} failed (is the npm registry reachable?): ${why}`);
  }
  return r.stdout;
}

/** The newest neo4j-driver version matching `range`, asked of the npm registry. */
export function newestDriverVersion(range: string): string {
  const out = JSON.parse(npm(['view', `neo4j-driver@${range}`, 'version', '--json'])) as string | string[];
  const versions = Array.isArray(out) ? out : [out];
  if (versions.length === 0) throw new Error(`no neo4j-driver release matches ${range}`);
  // The registry lists them in publication order, not version order (5.9.2 after 5.28.3).
  const key = (v: string) => v.split(/[.-]/).slice(0, 3).map(Number);
  const newer = (a: string, b: string) => {
    const [x, y] = [key(a), key(b)];
    for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i] - y[i];
    return 0;
  };
  return [...versions].sort(newer)[versions.length - 1];
}

/** Installs neo4j-driver@`version` (cached) and returns the folder holding its node_modules. */
export function installDriver(version: string): string {
  const dir = path.join(projectRoot, 'node_modules', '.cache', 'driver-guards', version);
  if (fs.existsSync(path.join(dir, 'node_modules', 'neo4j-driver', 'package.json'))) return dir;
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'driver-guards', private: true }));
  npm(
    [
      'install',
      '--no-save',
      '--ignore-scripts',
      '--no-audit',
      '--no-fund',
      '--no-package-lock',
      `neo4j-driver@${version}`,
    ],
    dir,
  );
  return dir;
}

export interface DriverGuards {
  version: string;
  results: GuardResult[];
}

export function checkDriverRelease(range: string): DriverGuards {
  const version = newestDriverVersion(range);
  const dir = installDriver(version);
  return { version, results: patchGuards(requireFromDriverAt(dir)) };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const range = process.argv[2] ?? '5';
  try {
    const { version, results } = checkDriverRelease(range);
    console.log(`neo4j-driver ${version} (newest of ${range}):`);
    for (const r of results)
      console.log(`  ${r.problem === null ? 'ok  ' : 'FAIL'} ${r.patch}${r.problem ? `: ${r.problem}` : ''}`);
    process.exitCode = results.every((r) => r.problem === null) ? 0 : 1;
  } catch (err) {
    console.error((err as Error).message);
    process.exitCode = 2;
  }
}
