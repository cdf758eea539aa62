/**
 * The service's own Neo4j procedures (src/neo4j/procedures/, Java): built once per source digest and
 * Neo4j version against the server jars with the JDK's `javac`, into
 * `<dir>/dist/procedures/<digest>/lineage-procedures.jar`, and put in the local server's plugins
 * folder at each start. Without a JDK (a JRE has no javac) the server starts without them, and the
 * queries that would call them walk in Cypher instead (src/store/impact.ts).
 */
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../../paths.js';
import type { Logger } from '../../logger.js';

export const PROCEDURES_JAR = 'lineage-procedures.jar';
export const PROCEDURES_SOURCE_DIR = path.join(projectRoot, 'src', 'neo4j', 'procedures');

function javaSources(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.java'))
    .map((e) => path.join(e.parentPath, e.name))
    .sort();
}

/** A digest of the sources and the Neo4j version they are built against: a new one builds anew. */
export function proceduresDigest(version: string, sourceDir = PROCEDURES_SOURCE_DIR): string {
  const hash = createHash('sha256').update(version);
  for (const file of javaSources(sourceDir)) hash.update(path.relative(sourceDir, file)).update(fs.readFileSync(file));
  return hash.digest('hex').slice(0, 16);
}

/**
 * The procedures jar for these server jars, built on first use; null (with a warning) when it cannot
 * be built here, so that the server still starts.
 */
export function ensureProceduresJar(
  dir: string,
  libDir: string,
  version: string,
  logger?: Logger,
  sourceDir = PROCEDURES_SOURCE_DIR,
): string | null {
  const target = path.join(dir, 'dist', 'procedures', proceduresDigest(version, sourceDir));
  const jar = path.join(target, PROCEDURES_JAR);
  if (fs.existsSync(jar)) return jar;
  const staging = `${target}.partial-${process.pid}`;
  fs.rmSync(staging, { recursive: true, force: true });
  fs.mkdirSync(path.join(staging, 'classes'), { recursive: true });
  try {
    const javac = spawnSync(
      'javac',
      [
        '--release',
        '17',
        '-nowarn',
        '-cp',
        `${libDir}/*`,
        '-d',
        path.join(staging, 'classes'),
        ...javaSources(sourceDir),
      ],
      { encoding: 'utf8' },
    );
    if (javac.error || javac.status !== 0) {
      const why = javac.error ? `javac not found (${javac.error.message}): a JDK is needed` : javac.stderr.trim();
      logger?.warn(
        { why: why.slice(-2000) },
        'could not build the lineage procedures for the local Neo4j; blast radius walks in Cypher (slower)',
      );
      return null;
    }
    const classes = path.join(staging, 'classes');
    const packed = spawnSync('jar', ['cf', path.join(staging, PROCEDURES_JAR), '-C', classes, '.'], {
      encoding: 'utf8',
    });
    if (packed.error || packed.status !== 0) {
      logger?.warn({ why: packed.error?.message ?? packed.stderr.trim() }, 'could not pack the lineage procedures');
      return null;
    }
    fs.rmSync(classes, { recursive: true, force: true });
    try {
      fs.renameSync(staging, target);
    } catch (err) {
      // Another process (a test run beside the service) built the same digest meanwhile: its jar is this one.
      if (!fs.existsSync(jar)) throw err;
    }
    logger?.info({ jar }, 'built the lineage procedures for the local Neo4j');
    return jar;
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

/** Puts the jar (or, when null, no jar of ours) in a server home's plugins folder. */
export function installProcedures(pluginsDir: string, jar: string | null): void {
  const installed = path.join(pluginsDir, PROCEDURES_JAR);
  if (jar === null) fs.rmSync(installed, { force: true });
  else fs.copyFileSync(jar, installed);
}
