/**
 * A faster writing of query parameters (PackStream) into the driver's outgoing Bolt chunks.
 *
 * The driver packs each value through `Packer.packable(value)`, which returns a closure that packs it:
 * one closure per value, list element and map entry, and every byte goes through three or four calls
 * (`writeUInt8` → `putUInt8` → `_ensure` → the buffer's own `writeUInt8`). Each string, every map key
 * included, is first encoded into a Buffer of its own (`Buffer.from`), then copied into the chunk. An
 * ingest batch's parameters hold a few thousand values per event; under ingest load packing was about a
 * fifth of the service's CPU, half of it in packing strings (docs/performance/driver-patches.md).
 *
 * This patch packs null, booleans, numbers, strings, arrays and plain objects straight into the chunker's
 * current buffer: one recursive function, headers written as bytes, a short ASCII string copied by a
 * loop and any other string encoded in place (`Buffer#write`). The bytes are the driver's, value for
 * value (test/neo4j/patches/fast-pack.test.ts packs values both ways and compares the messages); only
 * where the chunks split can differ, which Bolt leaves to the sender. The driver's Integers, and its
 * types whose structure holds only Integers (the temporal ones: DateTime, Date, Duration, ...), are
 * packed here too (2026-11-27: each DateTime had gone through the driver's type transformers four more
 * times, for the structure again and once per field). Anything else (spatial types, byte arrays, other
 * class instances, iterables, values it cannot pack), a string too long for one chunk, and a packer
 * writing to anything but the driver's `Chunker`, go to the driver's own `packable`, unchanged. Objects
 * and arrays still pass through the driver's `dehydrateStruct` first, as in the driver; one that it turns
 * into something other than a structure of Integers is packed by the driver.
 *
 * The patched function is internal to neo4j-driver-bolt-connection (pinned through neo4j-driver in
 * package-lock.json). If a driver upgrade moves it, `installFastPack` returns false and the driver
 * keeps its own behaviour; the guard test says so.
 */
import { ORIGINAL, requireFromDriver, unpatched } from './driver-internals.js';
import { CHUNKING_MODULE } from './bolt-chunks.js';
import { PACKSTREAM_MODULE } from './fast-unpack.js';
import { isPlainObject } from './plain-params.js';
import neo4j from 'neo4j-driver';
import { NO_STRUCTURE_CLASS, structureClass } from './fast-datetime.js';

type Dehydrate = (value: unknown) => unknown;
type Packable = (this: PackerLike, value: unknown, dehydrate?: Dehydrate) => () => void;
interface PackerLike {
  _ch: unknown;
  packable: Packable;
}
/** The driver's single-chunk buffer: a Node Buffer and a write position. */
interface ChannelBufferLike {
  _buffer: Buffer;
  position: number;
}
/** The driver's Chunker: `_ensure(n)` leaves an open chunk with at least n bytes free in `_buffer`. */
interface ChunkerLike {
  _ensure(size: number): void;
  _buffer: ChannelBufferLike;
  _bufferSize: number;
  position: number;
}

/** Why the patch cannot apply to a driver (null: it can); `load` requires that driver's modules. */
export function fastPackGuard(load: (id: string) => unknown): string | null {
  const Packer = (load(PACKSTREAM_MODULE) as { Packer?: unknown } | null)?.Packer;
  if (typeof Packer !== 'function') return `${PACKSTREAM_MODULE} has no Packer class`;
  const packable = unpatched((Packer.prototype as { packable?: unknown }).packable);
  if (typeof packable !== 'function' || packable.length !== 2)
    return 'Packer.prototype.packable(x, dehydrateStruct) is gone';
  const source = Function.prototype.toString.call(packable);
  for (const part of ['packFloat(x)', 'packString(x)', 'packListHeader(x.length)', 'packMapHeader(count)'])
    if (!source.includes(part)) return `Packer.prototype.packable no longer calls ${part}`;
  if (!structureClass(load)) return NO_STRUCTURE_CLASS;
  const Chunker = unpatched((load(CHUNKING_MODULE) as { Chunker?: unknown } | null)?.Chunker);
  if (typeof Chunker !== 'function') return `${CHUNKING_MODULE} no longer exports Chunker`;
  const ensure = (Chunker.prototype as { _ensure?: unknown })._ensure;
  if (typeof ensure !== 'function' || !/_buffer\.remaining\(\)/.test(String(ensure)))
    return 'Chunker.prototype._ensure(size) no longer makes room in this._buffer';
  return null;
}

// PackStream markers (the Bolt protocol's, fixed).
const NULL = 0xc0;
const FLOAT_64 = 0xc1;
const FALSE = 0xc2;
const TRUE = 0xc3;
const TINY_STRING = 0x80;
const TINY_LIST = 0x90;
const TINY_MAP = 0xa0;
const STRING_8 = 0xd0;
const LIST_8 = 0xd4;
const MAP_8 = 0xd8;
const INT_8 = 0xc8;
const INT_16 = 0xc9;
const INT_32 = 0xca;
const INT_64 = 0xcb;
const TINY_STRUCT = 0xb0;

/** Strings this short are checked for ASCII and copied by a loop; longer ones are encoded by Buffer#write. */
const LOOP_MAX_CHARS = 32;

/** Bytes of a marker family's header for `size`: tiny (size < 16), then an 8-, 16- or 32-bit size. */
const headerBytes = (size: number) => (size < 0x10 ? 1 : size < 0x100 ? 2 : size < 0x10000 ? 3 : 5);

/** Writes a marker family's header (see headerBytes). */
function header(ch: ChunkerLike, tiny: number, eight: number, size: number): void {
  const bytes = headerBytes(size);
  ch._ensure(bytes);
  const cb = ch._buffer;
  const b = cb._buffer;
  const at = cb.position;
  if (bytes === 1) b[at] = tiny | size;
  else if (bytes === 2) {
    b[at] = eight;
    b[at + 1] = size;
  } else if (bytes === 3) {
    b[at] = eight + 1;
    b[at + 1] = size >>> 8;
    b[at + 2] = size & 0xff;
  } else {
    b[at] = eight + 2;
    b.writeUInt32BE(size, at + 1);
  }
  cb.position = at + bytes;
  ch.position += bytes;
}

function byte(ch: ChunkerLike, value: number): void {
  ch._ensure(1);
  const cb = ch._buffer;
  cb._buffer[cb.position++] = value;
  ch.position += 1;
}

/** Packs a string into the open chunk; false when it cannot fit one chunk (the driver then splits it). */
function packString(ch: ChunkerLike, s: string): boolean {
  const n = s.length;
  if (n <= LOOP_MAX_CHARS) {
    let ascii = true;
    for (let i = 0; i < n; i++) {
      if (s.charCodeAt(i) >= 0x80) {
        ascii = false;
        break;
      }
    }
    if (ascii) {
      header(ch, TINY_STRING, STRING_8, n);
      ch._ensure(n);
      const cb = ch._buffer;
      const b = cb._buffer;
      const at = cb.position;
      for (let i = 0; i < n; i++) b[at + i] = s.charCodeAt(i);
      cb.position = at + n;
      ch.position += n;
      return true;
    }
  }
  const size = Buffer.byteLength(s, 'utf8');
  // With its header and the chunk's, the string must fit an empty chunk buffer.
  if (size + 7 > ch._bufferSize) return false;
  ch._ensure(headerBytes(size) + size);
  header(ch, TINY_STRING, STRING_8, size);
  const cb = ch._buffer;
  if (size > 0) cb._buffer.write(s, cb.position, size, 'utf8');
  cb.position += size;
  ch.position += size;
  return true;
}

/** The driver's 64-bit Integer: two 32-bit halves. */
interface IntegerLike {
  high: number;
  low: number;
}

/** Packs a driver Integer as the driver's `packInteger` does: the smallest of tiny, 8, 16, 32 or 64 bits. */
function packInteger(ch: ChunkerLike, x: IntegerLike): void {
  const high = x.high | 0;
  const low = x.low | 0;
  // Within 32 bits the value is `low`.
  const int32 = (high === 0 && low >= 0) || (high === -1 && low < 0);
  if (int32 && low >= -0x10 && low < 0x80) {
    byte(ch, low & 0xff);
    return;
  }
  ch._ensure(9);
  const cb = ch._buffer;
  const b = cb._buffer;
  const start = cb.position;
  let at = start;
  if (int32 && low >= -0x80 && low < -0x10) {
    b[at++] = INT_8;
    b.writeInt8(low, at++);
  } else if (int32 && low >= -0x8000 && low < 0x8000) {
    b[at++] = INT_16;
    at = b.writeInt16BE(low, at);
  } else if (int32) {
    b[at++] = INT_32;
    at = b.writeInt32BE(low, at);
  } else {
    b[at++] = INT_64;
    at = b.writeInt32BE(low, b.writeInt32BE(high, at));
  }
  cb.position = at;
  ch.position += at - start;
}

/**
 * Packs a structure whose fields are all Integers (a temporal value's, as the driver's transformers
 * make them: src/neo4j/patches/fast-datetime.ts) as the driver's `packStruct` would; false for any other.
 */
function packIntegerStruct(ch: ChunkerLike, s: { signature: number; fields: unknown[] }): boolean {
  const fields = s.fields;
  if (fields.length >= 0x10) return false;
  for (let i = 0; i < fields.length; i++) if (!neo4j.isInt(fields[i])) return false;
  ch._ensure(2);
  const cb = ch._buffer;
  cb._buffer[cb.position] = TINY_STRUCT | fields.length;
  cb._buffer[cb.position + 1] = s.signature;
  cb.position += 2;
  ch.position += 2;
  for (let i = 0; i < fields.length; i++) packInteger(ch, fields[i] as IntegerLike);
  return true;
}

let installed: boolean | null = null;

/**
 * Installs the fast path (once; later calls only report). True when it is in place. Each connection's
 * packer looks `packable` up on the prototype at every call, so connections opened before get it too.
 */
export function installFastPack(): boolean {
  if (installed !== null) return installed;
  installed = false;
  try {
    if (fastPackGuard(requireFromDriver) !== null) return false;
    const packstream = requireFromDriver(PACKSTREAM_MODULE) as { Packer: { prototype: PackerLike } };
    // The driver's class (bolt-chunks.ts may have replaced the export with a subclass): every chunker is one.
    const Chunker = unpatched(
      (requireFromDriver(CHUNKING_MODULE) as { Chunker: abstract new (...args: never[]) => unknown }).Chunker,
    );
    const proto = packstream.Packer.prototype;
    const original = proto.packable;
    const Structure = structureClass(requireFromDriver) as new () => unknown;

    /** Packs `x` into `ch` as the driver's `packable(x, dehydrate)()` would. */
    const pack = function (this: PackerLike, ch: ChunkerLike, x: unknown, dehydrate: Dehydrate): void {
      if (x === null) {
        byte(ch, NULL);
        return;
      }
      switch (typeof x) {
        case 'string':
          if (!packString(ch, x)) original.call(this, x, dehydrate)();
          return;
        case 'boolean':
          byte(ch, x ? TRUE : FALSE);
          return;
        case 'number': {
          ch._ensure(9);
          const cb = ch._buffer;
          cb._buffer[cb.position] = FLOAT_64;
          cb._buffer.writeDoubleBE(x, cb.position + 1);
          cb.position += 9;
          ch.position += 9;
          return;
        }
        case 'object':
          break;
        default:
          original.call(this, x, dehydrate)();
          return;
      }
      let value: unknown;
      try {
        value = dehydrate(x);
      } catch {
        original.call(this, x, dehydrate)();
        return;
      }
      if (value !== x) {
        // A driver type as its structure (temporal values: Integer fields), else the driver's path.
        if (!(value instanceof Structure && packIntegerStruct(ch, value as { signature: number; fields: unknown[] })))
          original.call(this, x, dehydrate)();
        return;
      }
      if (neo4j.isInt(x)) {
        packInteger(ch, x as IntegerLike);
        return;
      }
      // biome-ignore lint/suspicious/useIsArray: the driver's own test, so both take the same values as lists.
      if (x instanceof Array) {
        header(ch, TINY_LIST, LIST_8, x.length);
        for (let i = 0; i < x.length; i++) {
          const element = x[i];
          pack.call(this, ch, element === undefined ? null : element, dehydrate);
        }
        return;
      }
      const object = x as Record<PropertyKey, unknown>;
      if (!isPlainObject(object) || typeof object[Symbol.iterator] === 'function') {
        original.call(this, x, dehydrate)();
        return;
      }
      const keys = Object.keys(object);
      let count = 0;
      for (let i = 0; i < keys.length; i++) if (object[keys[i]] !== undefined) count++;
      header(ch, TINY_MAP, MAP_8, count);
      for (let i = 0; i < keys.length; i++) {
        const key = keys[i];
        const v = object[key];
        if (v === undefined) continue;
        if (!packString(ch, key)) (this as unknown as { packString(s: string): void }).packString(key);
        pack.call(this, ch, v, dehydrate);
      }
    };

    const identity: Dehydrate = (v) => v;
    proto.packable = function fastPackable(this: PackerLike, x: unknown, dehydrate?: Dehydrate) {
      const ch = this._ch;
      if (!(ch instanceof Chunker)) return original.call(this, x, dehydrate);
      // Structures (the Bolt messages themselves) and the driver's own types keep the driver's path; the
      // values inside them come back here.
      // biome-ignore lint/suspicious/useIsArray: the driver's own test, so both take the same values as lists.
      if (x !== null && typeof x === 'object' && !(x instanceof Array) && !isPlainObject(x))
        return original.call(this, x, dehydrate);
      const d = dehydrate ?? identity;
      return () => pack.call(this, ch as ChunkerLike, x, d);
    };
    Object.defineProperty(proto.packable, ORIGINAL, { value: original });
    installed = true;
  } catch {
    /* layout changed: keep the driver's own path */
  }
  return installed;
}
