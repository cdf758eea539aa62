/**
 * Access to neo4j-driver's internal modules, for the patches in this folder and their guards.
 */
import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * `require` as seen from neo4j-driver's own location, so a driver-internal module it loads is the
 * instance the driver uses (also used by the tests and bench:pack to reach the same internals).
 */
export const requireFromDriver = createRequire(createRequire(import.meta.url).resolve('neo4j-driver'));

/** `require` as seen from the neo4j-driver installed under `nodeModulesParent` (another version's guards). */
export function requireFromDriverAt(nodeModulesParent: string): NodeJS.Require {
  return createRequire(path.join(nodeModulesParent, 'node_modules', 'neo4j-driver', 'package.json'));
}

/**
 * A patched driver function keeps the driver's own under this key, so guards check the driver's code, not the patch.
 */
export const ORIGINAL = Symbol.for('lineage-service.driver-patch.original');

/** The driver's own function behind `fn` (itself when it is not patched). */
export function unpatched<T>(fn: T): T {
  return ((fn as { [ORIGINAL]?: T } | null)?.[ORIGINAL] ?? fn) as T;
}
