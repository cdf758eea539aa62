/**
 * A faster reading of the values in Neo4j's answers (PackStream), for answers of thousands of rows.
 *
 * The driver's `Unpacker.unpack` tries each type in turn (boolean, number, string, list, byte array,
 * map, struct), every step reading the marker byte through bounds-checked accessors, and decodes every
 * string, map keys included, with `Buffer#toString`, a call into C++ that costs more than the few bytes
 * it decodes. A lineage answer of 2,427 nodes is about 3 MB holding some 150,000 strings, fewer than
 * 10,000 of them distinct (map keys, namespaces, states, names): unpacking took 36-38 ms of the
 * service's CPU per answer, on the critical path while records stream in
 * (docs/performance/driver-patches.md).
 *
 * This patch reads the common markers (null, booleans, strings, lists, maps) straight from the message's
 * bytes, and decodes short strings through a small cache keyed by their bytes, so a repeated key or
 * value is one hash and one comparison instead of a new string. Everything else (numbers, structs, byte
 * arrays), and any message the driver assembled from several chunks (a `CombinedBuffer`), goes to the
 * driver's own code, unchanged. The values are the driver's: the same strings, the same plain objects
 * and arrays (test/neo4j/patches/fast-unpack.test.ts decodes real and generated answers both ways and
 * compares).
 *
 * The patched function is internal to neo4j-driver-bolt-connection (pinned through neo4j-driver in
 * package-lock.json). If a driver upgrade moves it, `installFastUnpack` returns false and the driver
 * keeps its own behaviour; the guard test says so.
 */
import { ORIGINAL, requireFromDriver, unpatched } from './driver-internals.js';

/** The driver module whose `Unpacker.prototype.unpack` the patch replaces. */
export const PACKSTREAM_MODULE = 'neo4j-driver-bolt-connection/lib/packstream/packstream-v1.js';

type Unpack = (this: UnpackerLike, buffer: ChannelBufferLike, hydrate?: (s: unknown) => unknown) => unknown;
interface UnpackerLike {
  unpack: Unpack;
}
/** The driver's single-chunk message buffer: a Node Buffer and a read position. */
interface ChannelBufferLike {
  _buffer?: Buffer;
  position: number;
}

/** Why the patch cannot apply to a given driver's packstream module (null: it can). */
export function fastUnpackGuard(packstreamModule: unknown): string | null {
  const Unpacker = (packstreamModule as { Unpacker?: unknown } | null)?.Unpacker;
  if (typeof Unpacker !== 'function') return `${PACKSTREAM_MODULE} has no Unpacker class`;
  const unpack = unpatched((Unpacker.prototype as { unpack?: unknown }).unpack);
  if (typeof unpack !== 'function' || unpack.length !== 2) return 'Unpacker.prototype.unpack(buffer, hydrate) is gone';
  // The patch reads what the driver's own string decoding reads: a ChannelBuffer's `_buffer` from `position`.
  const source = Function.prototype.toString.call(unpack);
  if (!source.includes('_unpackString') || !source.includes('_unpackMap') || !source.includes('_unpackList'))
    return 'Unpacker.prototype.unpack no longer dispatches to _unpackString/_unpackList/_unpackMap';
  return null;
}

// Short strings go through the cache: a direct-mapped table of CACHE_SIZE slots, each the bytes and the
// string they decode to. Longer strings are rarely repeated and cheap per byte for Buffer#toString.
const CACHE_MAX_BYTES = 24;
const CACHE_BITS = 14;
const CACHE_SIZE = 1 << CACHE_BITS;
const cachedBytes: (Uint8Array | undefined)[] = new Array(CACHE_SIZE).fill(undefined);
const cachedStrings: string[] = new Array(CACHE_SIZE).fill('');

/** `b.toString('utf8', start, start + length)` for a string of at most CACHE_MAX_BYTES bytes. */
function shortString(b: Buffer, start: number, length: number): string {
  let hash = length;
  for (let i = start, end = start + length; i < end; i++) hash = (Math.imul(hash, 31) + b[i]) | 0;
  const slot = (hash ^ (hash >>> CACHE_BITS)) & (CACHE_SIZE - 1);
  const known = cachedBytes[slot];
  if (known !== undefined && known.length === length) {
    let same = true;
    for (let i = 0; i < length; i++) {
      if (known[i] !== b[start + i]) {
        same = false;
        break;
      }
    }
    if (same) return cachedStrings[slot];
  }
  const text = b.toString('utf8', start, start + length);
  // A copy: a view would keep the whole socket read it came from alive.
  const bytes = new Uint8Array(length);
  for (let i = 0; i < length; i++) bytes[i] = b[start + i];
  cachedBytes[slot] = bytes;
  cachedStrings[slot] = text;
  return text;
}

let installed: boolean | null = null;

/**
 * Installs the fast path (once; later calls only report). True when it is in place. Each connection's
 * protocol holds its own Unpacker, whose method is looked up on the prototype at every call, so
 * connections opened before still get it.
 */
export function installFastUnpack(): boolean {
  if (installed !== null) return installed;
  installed = false;
  try {
    const packstream = requireFromDriver(PACKSTREAM_MODULE) as { Unpacker?: { prototype: UnpackerLike } };
    if (fastUnpackGuard(packstream) !== null) return false;
    const proto = packstream.Unpacker!.prototype;
    const original = proto.unpack;
    proto.unpack = function fastUnpack(this: UnpackerLike, buffer, hydrate) {
      const b = buffer._buffer;
      if (b === undefined) return original.call(this, buffer, hydrate);
      const pos = buffer.position;
      const marker = b[pos];
      const high = marker & 0xf0;
      let size: number;
      let at: number;
      if (high === 0x80) {
        size = marker & 0x0f;
        at = pos + 1;
      } else if (marker === 0xd0 && pos + 1 < b.length) {
        size = b[pos + 1];
        at = pos + 2;
      } else if (marker === 0xd1 && pos + 2 < b.length) {
        size = b.readUInt16BE(pos + 1);
        at = pos + 3;
      } else {
        return containerOrOther.call(this, buffer, b, pos, marker, high, hydrate, original);
      }
      // A string: the driver's decoding clamps a length past the end of the message; leave that to it.
      if (at + size > b.length) return original.call(this, buffer, hydrate);
      buffer.position = at + size;
      if (size === 0) return '';
      return size <= CACHE_MAX_BYTES ? shortString(b, at, size) : b.toString('utf8', at, at + size);
    };
    Object.defineProperty(proto.unpack, ORIGINAL, { value: original });
    installed = true;
  } catch {
    /* layout changed: keep the driver's own path */
  }
  return installed;
}

/** Null, booleans, lists and maps read here; anything else by the driver's own `unpack`. */
function containerOrOther(
  this: UnpackerLike,
  buffer: ChannelBufferLike,
  b: Buffer,
  pos: number,
  marker: number,
  high: number,
  hydrate: ((s: unknown) => unknown) | undefined,
  original: Unpack,
): unknown {
  let size: number;
  let at: number;
  if (high === 0xa0 || high === 0x90) {
    size = marker & 0x0f;
    at = pos + 1;
  } else if ((marker === 0xd8 || marker === 0xd4) && pos + 1 < b.length) {
    size = b[pos + 1];
    at = pos + 2;
  } else if ((marker === 0xd9 || marker === 0xd5) && pos + 2 < b.length) {
    size = b.readUInt16BE(pos + 1);
    at = pos + 3;
  } else if (marker === 0xc0) {
    buffer.position = pos + 1;
    return null;
  } else if (marker === 0xc3 || marker === 0xc2) {
    buffer.position = pos + 1;
    return marker === 0xc3;
  } else {
    return original.call(this, buffer, hydrate);
  }
  buffer.position = at;
  if (high === 0x90 || marker === 0xd4 || marker === 0xd5) {
    const list: unknown[] = [];
    for (let i = 0; i < size; i++) list.push(this.unpack(buffer, hydrate));
    return list;
  }
  const map: Record<string, unknown> = {};
  for (let i = 0; i < size; i++) {
    const key = this.unpack(buffer, hydrate) as string;
    map[key] = this.unpack(buffer, hydrate);
  }
  return map;
}
