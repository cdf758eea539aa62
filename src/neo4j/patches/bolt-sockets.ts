/**
 * Socket tuning for the Neo4j JavaScript driver's Bolt connections, which the driver offers no
 * option for (see README.md in this folder: why, measured gain, how to remove).
 *
 * 1. TCP_NODELAY. The driver leaves Nagle's algorithm on. A statement written while an earlier small
 *    write is still unacknowledged waits for the server's delayed ACK: about 40 ms added to a query on
 *    Linux (measured here: ~48 ms per ingest statement before, ~1-5 ms after).
 * 2. One write per tick. The driver's chunker hands the socket a write every 1,400 bytes, so an ingest
 *    batch of a few hundred KB became hundreds of write syscalls and TCP segments (about 7% of the
 *    service's CPU in a profile, and as many reads for Neo4j). Corking the socket on the first write of
 *    a tick and uncorking it on the next tick sends everything produced in that tick as one writev,
 *    without delaying anything past the current tick.
 *
 * Where: the driver's Node.js channel (`NodeChannel` in neo4j-driver-bolt-connection), whose
 * `write(buffer)` is the one place every Bolt message reaches its socket (`this._conn`), for plain
 * (`bolt://`, `neo4j://`) and TLS (`+s`, `+ssc`, custom trust) connections alike: the trust
 * strategies only choose between `net.connect` and `tls.connect`. Only Bolt sockets are touched; the
 * rest of the process (HTTP clients, other TCP clients) keeps Node's defaults. The channel's
 * constructor also takes a `connect` function, but the driver never passes one, so it is no seam.
 */
import net from 'node:net';
import { ORIGINAL, requireFromDriver, unpatched } from './driver-internals.js';

/** The driver module whose channel `write` the patch wraps. */
export const NODE_CHANNEL_MODULE = 'neo4j-driver-bolt-connection/lib/channel/node/node-channel.js';

interface NodeChannelPrototype {
  write?: (this: { _conn?: unknown }, buffer: unknown) => unknown;
}

/** Why the patch cannot apply to a given driver's channel module (null: it can). */
export function boltSocketsGuard(channelModule: unknown): string | null {
  const NodeChannel = (channelModule as { default?: unknown } | null)?.default;
  if (typeof NodeChannel !== 'function') return `${NODE_CHANNEL_MODULE} has no default export class (NodeChannel)`;
  const write = unpatched((NodeChannel.prototype as NodeChannelPrototype | undefined)?.write);
  if (typeof write !== 'function' || write.length !== 1)
    return 'NodeChannel.prototype.write(buffer) is gone or changed arity';
  // The wrapped write must still be where the channel writes to its socket, and the socket its `_conn`.
  if (!/this\._conn\.write\(/.test(String(write))) return 'NodeChannel.prototype.write no longer writes to this._conn';
  return null;
}

const tuned = new WeakSet<net.Socket>();

function tune(socket: net.Socket): void {
  if (tuned.has(socket)) return;
  tuned.add(socket);
  // Before the connection is up, Node keeps the flag and applies it on connect (TLS sockets included).
  socket.setNoDelay(true);
}

function corkUntilNextTick(socket: net.Socket): void {
  if (socket.writableCorked > 0 || socket.destroyed) return;
  socket.cork();
  process.nextTick(() => socket.uncork());
}

let installed: boolean | null = null;

/**
 * Installs the tuning on the driver's channel (once; later calls only report). True when it is in
 * place; false when the driver's layout changed (the guard says how), and the driver then keeps its
 * own behaviour: test/neo4j/patches/bolt-sockets.test.ts fails to say so.
 */
export function installBoltSocketTuning(): boolean {
  if (installed !== null) return installed;
  installed = false;
  let channelModule: unknown;
  try {
    channelModule = requireFromDriver(NODE_CHANNEL_MODULE);
  } catch {
    return false;
  }
  if (boltSocketsGuard(channelModule) !== null) return false;
  const proto = (channelModule as { default: { prototype: Required<NodeChannelPrototype> } }).default.prototype;
  const write = proto.write;
  proto.write = function (this: { _conn?: unknown }, buffer: unknown) {
    const socket = this._conn;
    if (socket instanceof net.Socket) {
      tune(socket);
      corkUntilNextTick(socket);
    }
    return write.call(this, buffer);
  };
  Object.defineProperty(proto.write, ORIGINAL, { value: write });
  installed = true;
  return installed;
}
