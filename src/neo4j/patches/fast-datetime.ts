/**
 * A faster encoding of DateTime parameters with a zone offset (every time the service writes: event
 * times, run and version times, each lineage edge's observation spans).
 *
 * The driver turns such a DateTime into its Bolt structure (UTC seconds, nanoseconds, offset) with its
 * 64-bit `Integer` arithmetic: the epoch day from year, month and day, then seconds, each step a new
 * Integer object, after asking each of its type transformers in turn whether the value is theirs. Under
 * ingest load that was about 6% of the service's CPU (a CPU profile at c=32: `localDateTimeToEpochSecond`
 * and `dateToEpochDay`, docs/performance/driver-patches.md). A JavaScript number holds every second of
 * years within ±200,000 exactly, so this path computes the same seconds with Date arithmetic and builds
 * the driver's own Structure with the driver's Integers for its fields.
 *
 * It applies only where the result is certainly the driver's: a DateTime whose fields are plain numbers
 * (as `DateTime.fromStandardDate` makes them), with an offset and no zone id, a year within ±200,000, on
 * a connection whose transformers encode DateTimes in UTC seconds (Bolt 5, signature 0x49). Anything else
 * (a zone id, Integer fields, the legacy local-seconds encoding of Bolt 4 without the utc patch) goes to
 * the driver's own transformers. The guard compares this path's structures with the driver's for a set of
 * times; test/neo4j/patches/fast-datetime.test.ts compares thousands, and the bytes Neo4j receives.
 *
 * The patched function is internal to neo4j-driver-bolt-connection (pinned through neo4j-driver in
 * package-lock.json). If a driver upgrade changes it, `installFastDateTime` returns false and the driver
 * keeps its own behaviour; the guard test says so.
 */
import neo4j, { type Integer } from 'neo4j-driver';
import { utc } from '../../domain/utc.js';
import { ORIGINAL, requireFromDriver, unpatched } from './driver-internals.js';
import { TRANSFORMER_MODULE } from './plain-params.js';

/** The driver's module holding Bolt 5's DateTime transformers (UTC seconds). */
export const UTC_TRANSFORMER_MODULE = 'neo4j-driver-bolt-connection/lib/bolt/bolt-protocol-v5x0.utc.transformer.js';
const STRUCTURE_MODULE = 'neo4j-driver-bolt-connection/lib/packstream/index.js';

/** The driver's Bolt `Structure` class from `load`'s driver, or null when it is no longer exported. */
export function structureClass(load: (id: string) => unknown): StructureClass | null {
  const Structure = (load(STRUCTURE_MODULE) as { structure?: { Structure?: unknown } } | null)?.structure?.Structure;
  return typeof Structure === 'function' ? (Structure as StructureClass) : null;
}
/** What a guard says when structureClass finds none. */
export const NO_STRUCTURE_CLASS = `${STRUCTURE_MODULE} no longer exports structure.Structure`;

/** Bolt's DateTime with a zone offset, counted in UTC seconds (the legacy 0x46 counted local ones). */
const DATE_TIME_WITH_OFFSET_UTC = 0x49;
/** Years whose every second a double holds exactly, with room to spare (and inside Date's range). */
const MAX_ABS_YEAR = 200_000;

interface StructureLike {
  signature: number;
  fields: unknown[];
}
type StructureClass = new (signature: number, fields: unknown[]) => StructureLike;
interface DateTimeLike {
  year: unknown;
  month: unknown;
  day: unknown;
  hour: unknown;
  minute: unknown;
  second: unknown;
  nanosecond: unknown;
  timeZoneOffsetSeconds: unknown;
  timeZoneId: unknown;
}
interface TransformerLike {
  _transformersPerSignature?: Map<number, unknown>;
}

/**
 * The driver's structure for `value`, computed with numbers, or undefined when the value is not a
 * DateTime this path applies to (see above).
 */
export function dateTimeStructure(value: unknown, Structure: StructureClass): StructureLike | undefined {
  if (!neo4j.isDateTime(value as object)) return undefined;
  const v = value as DateTimeLike;
  if (v.timeZoneId != null) return undefined;
  const { year, month, day, hour, minute, second, nanosecond, timeZoneOffsetSeconds: offset } = v;
  if (
    typeof year !== 'number' ||
    typeof month !== 'number' ||
    typeof day !== 'number' ||
    typeof hour !== 'number' ||
    typeof minute !== 'number' ||
    typeof second !== 'number' ||
    typeof nanosecond !== 'number' ||
    typeof offset !== 'number' ||
    Math.abs(year) > MAX_ABS_YEAR
  )
    return undefined;
  const localSeconds = utc(year, month - 1, day, hour, minute, second) / 1000;
  return new Structure(DATE_TIME_WITH_OFFSET_UTC, [
    neo4j.int(localSeconds - offset),
    neo4j.int(nanosecond),
    neo4j.int(offset),
  ]);
}

/** Times the guard encodes both ways: the epoch, both sides of it, years 0-99, far years, offsets. */
function guardSamples(): unknown[] {
  const { DateTime } = neo4j.types;
  return [
    new DateTime(1970, 1, 1, 0, 0, 0, 0, 0),
    new DateTime(1969, 12, 31, 23, 59, 59, 999_999_999, 0),
    new DateTime(2026, 11, 27, 1, 2, 3, 456_000_000, 3600),
    new DateTime(2024, 2, 29, 23, 30, 0, 1, -34_200),
    new DateTime(50, 3, 1, 12, 0, 0, 0, 50_400),
    new DateTime(0, 1, 1, 0, 0, 0, 0, 0),
    new DateTime(9999, 12, 31, 23, 59, 59, 999_000_000, 0),
    new DateTime(-4000, 6, 15, 6, 7, 8, 9, -3600),
    DateTime.fromStandardDate(new Date(Date.UTC(2026, 10, 27, 1, 2, 3, 4))),
  ];
}

const sameStructure = (a: StructureLike, b: StructureLike) =>
  a.signature === b.signature &&
  a.fields.length === b.fields.length &&
  a.fields.every((f, i) => neo4j.isInt(b.fields[i]) && (f as Integer).equals(b.fields[i] as Integer));

/** Why the patch cannot apply to a driver (null: it can); `load` requires that driver's modules. */
export function fastDateTimeGuard(load: (id: string) => unknown): string | null {
  const Transformer = (load(TRANSFORMER_MODULE) as { default?: { prototype?: { toStructure?: unknown } } }).default;
  const toStructure = unpatched(Transformer?.prototype?.toStructure);
  if (typeof toStructure !== 'function' || toStructure.length !== 1)
    return 'Transformer.prototype.toStructure(value) is gone or changed arity';
  const Structure = structureClass(load);
  if (!Structure) return NO_STRUCTURE_CLASS;
  const utcTransformers = (load(UTC_TRANSFORMER_MODULE) as { default?: Record<string, unknown> }).default;
  const create = utcTransformers?.createDateTimeWithOffsetTransformer;
  if (typeof create !== 'function') return `${UTC_TRANSFORMER_MODULE} has no createDateTimeWithOffsetTransformer`;
  const driver = create({}) as { signature: number; toStructure(v: unknown): StructureLike };
  if (driver.signature !== DATE_TIME_WITH_OFFSET_UTC)
    return `Bolt 5's DateTime with an offset is no longer signature 0x${DATE_TIME_WITH_OFFSET_UTC.toString(16)}`;
  for (const sample of guardSamples()) {
    const ours = dateTimeStructure(sample, Structure);
    const theirs = driver.toStructure(sample);
    if (!ours || !(theirs instanceof Structure) || !sameStructure(ours, theirs))
      return `the driver encodes ${String(sample)} otherwise`;
  }
  return null;
}

let installed: boolean | null = null;

/**
 * Installs the fast path (once; later calls only report). True when it is in place. Call it before
 * installPlainParamsFastPath and before the driver opens connections: each connection's transformer
 * binds `toStructure` when it is built.
 */
export function installFastDateTime(): boolean {
  if (installed !== null) return installed;
  installed = false;
  try {
    if (fastDateTimeGuard(requireFromDriver) !== null) return false;
    const Structure = structureClass(requireFromDriver) as StructureClass;
    const proto = (requireFromDriver(TRANSFORMER_MODULE) as { default: { prototype: { toStructure: Function } } })
      .default.prototype;
    const original = proto.toStructure as (this: TransformerLike, value: unknown) => unknown;
    proto.toStructure = function (this: TransformerLike, value: unknown) {
      if (
        value !== null &&
        typeof value === 'object' &&
        this._transformersPerSignature?.has(DATE_TIME_WITH_OFFSET_UTC)
      ) {
        const structure = dateTimeStructure(value, Structure);
        if (structure) return structure;
      }
      return original.call(this, value);
    };
    Object.defineProperty(proto.toStructure, ORIGINAL, { value: original });
    installed = true;
  } catch {
    /* layout changed: keep the driver's own path */
  }
  return installed;
}
