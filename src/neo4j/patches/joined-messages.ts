/**
 * A Bolt message that arrives in several chunks, read as one buffer (see README.md in this folder).
 *
 * The driver's `Dechunker` hands a message of one chunk to the unpacker as that chunk's buffer, and a
 * message of several as a `CombinedBuffer` over the pieces, whose every byte read walks the list of
 * pieces from the first. Neo4j's chunks hold at most 64 KiB, and a chunk split across socket reads
 * arrives as several pieces, so a record of a few hundred KB (the blast radius returns 1,000 nodes in
 * a record) is several pieces or more: each byte read cost a walk of them, and none of it took
 * fast-unpack's path, which reads single buffers only. This patch copies the pieces into one buffer at
 * the message boundary (one `Buffer.concat`), so every message is read as a single-chunk one is. The
 * bytes, and so the values, are the same.
 *
 * Where: `Dechunker.prototype._onHeader` in neo4j-driver-bolt-connection's `lib/channel/chunking.js`,
 * which at a zero header (the message boundary) builds the message from `this._currentMessage`.
 */
import { ORIGINAL, requireFromDriver, unpatched } from './driver-internals.js';
import { CHUNKING_MODULE } from './bolt-chunks.js';

/** The driver module whose default export wraps a Node Buffer as the unpacker's buffer. */
export const CHANNEL_BUF_MODULE = 'neo4j-driver-bolt-connection/lib/channel/channel-buf.js';

interface ChunkLike {
  _buffer?: unknown;
}
interface DechunkerLike {
  _currentMessage: ChunkLike[];
  _onHeader(header: number): unknown;
}
type ChannelBufferClass = new (bytes: Buffer) => ChunkLike;

/** Why the patch cannot apply to a driver (null: it can); `load` requires that driver's modules. */
export function joinedMessagesGuard(load: (id: string) => unknown): string | null {
  const Dechunker = (load(CHUNKING_MODULE) as { Dechunker?: unknown } | null)?.Dechunker;
  if (typeof Dechunker !== 'function') return `${CHUNKING_MODULE} no longer exports Dechunker`;
  const onHeader = unpatched((Dechunker.prototype as { _onHeader?: unknown })._onHeader);
  if (typeof onHeader !== 'function' || onHeader.length !== 1) return 'Dechunker.prototype._onHeader(header) is gone';
  const source = Function.prototype.toString.call(onHeader);
  // A message of one chunk is that chunk: the joined buffer takes that case.
  if (!/case 1:[\s\S]*?message = this\._currentMessage\[0\]/.test(source))
    return 'Dechunker no longer passes a one-chunk message on as its chunk';
  const ChannelBuffer = (load(CHANNEL_BUF_MODULE) as { default?: unknown } | null)?.default;
  if (typeof ChannelBuffer !== 'function') return `${CHANNEL_BUF_MODULE} no longer exports ChannelBuffer`;
  const probe = new (ChannelBuffer as ChannelBufferClass)(Buffer.from([1, 2]));
  if (!Buffer.isBuffer(probe._buffer)) return 'ChannelBuffer no longer keeps its bytes as _buffer';
  return null;
}

let installed: boolean | null = null;

/** Installs the joining (once; later calls only report). True when in place. */
export function installJoinedMessages(): boolean {
  if (installed !== null) return installed;
  installed = false;
  try {
    if (joinedMessagesGuard(requireFromDriver) !== null) return false;
    const Dechunker = (requireFromDriver(CHUNKING_MODULE) as { Dechunker: { prototype: DechunkerLike } }).Dechunker;
    const ChannelBuffer = (requireFromDriver(CHANNEL_BUF_MODULE) as { default: ChannelBufferClass }).default;
    const proto = Dechunker.prototype;
    const original = proto._onHeader;
    proto._onHeader = function joinedOnHeader(this: DechunkerLike, header: number) {
      const parts = this._currentMessage;
      if (header === 0 && parts.length > 1 && parts.every((p) => Buffer.isBuffer(p._buffer)))
        this._currentMessage = [new ChannelBuffer(Buffer.concat(parts.map((p) => p._buffer as Buffer)))];
      return original.call(this, header);
    };
    Object.defineProperty(proto._onHeader, ORIGINAL, { value: original });
    installed = true;
  } catch {
    /* layout changed: keep the driver's own combined buffers */
  }
  return installed;
}
