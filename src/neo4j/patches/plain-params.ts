/**
 * A fast path in the Neo4j JavaScript driver's parameter packing, which the driver offers no option for.
 *
 * Before packing each parameter value (every string, number, list and map inside every row of an
 * ingest batch: a few hundred per event), the driver asks each of its ~12 type transformers whether
 * the value is a Node, Point, Duration, Date, DateTime and so on; each answer is a property lookup or
 * an `instanceof` on the value. Under ingest load these checks were about 8% of the service's CPU,
 * and packing a batch took 2.5 times as long with them as without (`npm run bench:pack`).
 *
 * Every one of those types is a class instance (the driver's graph, spatial and temporal classes),
 * so a primitive, an array or a plain object (prototype Object.prototype or null) is never one, and
 * the fast path returns it unchanged, as the driver's own checks would. Anything else (driver types,
 * other class instances) still goes through the driver's checks. The one difference: a plain object
 * dressed up with a driver type's marker property (`{__isDate__: true, ...}`) is sent as a map rather
 * than misread as that type; no parameter of this service looks like that.
 *
 * The patched function is internal to neo4j-driver-bolt-connection (pinned through neo4j-driver in
 * package-lock.json). If a driver upgrade moves it, `installPlainParamsFastPath` returns false,
 * the driver keeps its own behaviour, and test/neo4j/patches/plain-params.test.ts fails to say so.
 */
import { ORIGINAL, requireFromDriver, unpatched } from './driver-internals.js';

export { requireFromDriver };

type ToStructure = (this: unknown, value: unknown) => unknown;

/** The driver module whose `toStructure` the fast path patches. */
export const TRANSFORMER_MODULE = 'neo4j-driver-bolt-connection/lib/bolt/transformer.js';

/** Why the patch cannot apply to a given driver's transformer module (null: it can). */
export function plainParamsGuard(transformerModule: unknown): string | null {
  const Transformer = (transformerModule as { default?: unknown } | null)?.default;
  if (typeof Transformer !== 'function') return `${TRANSFORMER_MODULE} has no default export class (Transformer)`;
  const toStructure = unpatched((Transformer.prototype as { toStructure?: unknown } | undefined)?.toStructure);
  if (typeof toStructure !== 'function' || toStructure.length !== 1)
    return 'Transformer.prototype.toStructure(value) is gone or changed arity';
  return null;
}

/** A plain object (prototype Object.prototype or null): never one of the driver's types. */
export function isPlainObject(value: object): boolean {
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

let installed: boolean | null = null;

/**
 * Installs the fast path (once; later calls only report). True when it is in place. Call it before
 * the driver opens connections: each connection's transformer binds `toStructure` when it is built,
 * so connections opened earlier keep the driver's own checks (createDriver installs it first).
 */
export function installPlainParamsFastPath(): boolean {
  if (installed !== null) return installed;
  installed = false;
  try {
    const transformer = requireFromDriver(TRANSFORMER_MODULE) as {
      default?: { prototype: { toStructure?: ToStructure } };
    };
    if (plainParamsGuard(transformer) !== null) return false;
    const proto = transformer.default!.prototype;
    const original = proto.toStructure!;
    proto.toStructure = function (this: unknown, value: unknown) {
      if (value === null || typeof value !== 'object' || Array.isArray(value) || isPlainObject(value)) return value;
      return original.call(this, value);
    };
    Object.defineProperty(proto.toStructure, ORIGINAL, { value: original });
    installed = true;
  } catch {
    /* layout changed: keep the driver's own path */
  }
  return installed;
}
