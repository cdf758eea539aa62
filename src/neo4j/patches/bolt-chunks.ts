/**
 * Larger Bolt chunks from the Neo4j JavaScript driver, which offers no option for their size (see
 * README.md in this folder: why, measured gain, how to remove).
 *
 * The driver's `Chunker` frames every outgoing message into Bolt chunks of at most 1,400 bytes (a
 * TCP segment's payload, a choice for networks where each write became one segment). An ingest
 * transaction of a few hundred KB therefore became a few hundred chunks: a fresh zero-filled 1,400-byte
 * buffer for each, as many iovecs in the socket's writev, and as many frames for Neo4j to reassemble.
 * The socket writes are already coalesced per tick (bolt-sockets.ts), so the segment-sized chunk buys
 * nothing. Bolt allows chunks up to 65,535 bytes; this patch makes the chunker's buffer 16 KiB.
 *
 * Where: `Chunker` in neo4j-driver-bolt-connection's `lib/channel/chunking.js`. The connection builds
 * its chunker as `new channel_1.Chunker(channel)`, reading the class through the channel index's
 * re-export getter at that moment, so replacing the module's export with a constructor that passes a
 * buffer size reaches every connection opened afterwards. Instances are still of the driver's class.
 */
import { ORIGINAL, requireFromDriver, unpatched } from './driver-internals.js';

/** The driver module whose `Chunker` export is replaced. */
export const CHUNKING_MODULE = 'neo4j-driver-bolt-connection/lib/channel/chunking.js';
/** The module that builds each connection's chunker. */
export const CONNECTION_CHANNEL_MODULE = 'neo4j-driver-bolt-connection/lib/connection/connection-channel.js';
/** The channel index whose re-export the connection reads the class through. */
export const CHANNEL_INDEX_MODULE = 'neo4j-driver-bolt-connection/lib/channel/index.js';

/**
 * Bytes of each chunker buffer (a chunk's header included). In process, on the bench traffic, 16 KiB
 * and 64 KiB cost the same and 4 KiB more (docs/performance/driver-patches.md); the smaller of the
 * two keeps a flush of a small message (BEGIN, PULL, COMMIT) from zero-filling 64 KiB.
 */
export const CHUNK_BUFFER_BYTES = 16 * 1024;

type ChunkerClass = new (channel: unknown, bufferSize?: number) => { _bufferSize?: number };

/** Why the patch cannot apply to a driver (null: it can); `load` requires that driver's modules. */
export function boltChunksGuard(load: (id: string) => unknown): string | null {
  const chunking = load(CHUNKING_MODULE) as { Chunker?: unknown } | null;
  const Chunker = unpatched(chunking?.Chunker);
  if (typeof Chunker !== 'function') return `${CHUNKING_MODULE} no longer exports Chunker`;
  if (Chunker.length !== 2) return 'Chunker(channel, bufferSize) changed arity';
  if (!/_bufferSize\s*=\s*bufferSize\s*\|\|/.test(String(Chunker))) return 'Chunker no longer takes its buffer size';
  const build = String(
    (load(CONNECTION_CHANNEL_MODULE) as { createChannelConnection?: unknown })?.createChannelConnection,
  );
  if (!/new channel_1\.Chunker\(channel\)/.test(build))
    return 'connections no longer build their chunker as new channel_1.Chunker(channel)';
  const exported = Object.getOwnPropertyDescriptor(load(CHANNEL_INDEX_MODULE) as object, 'Chunker');
  if (typeof exported?.get !== 'function') return 'the channel index no longer re-exports Chunker through a getter';
  return null;
}

let installed: boolean | null = null;

/**
 * Installs the larger chunks (once; later calls only report). True when in place. Connections built
 * before it keep 1,400-byte chunks (createDriver installs it first).
 */
export function installBoltChunks(): boolean {
  if (installed !== null) return installed;
  installed = false;
  try {
    if (boltChunksGuard(requireFromDriver) !== null) return false;
    const chunking = requireFromDriver(CHUNKING_MODULE) as { Chunker: ChunkerClass };
    const Chunker = chunking.Chunker;
    // A subclass only fixes the default size: instances are the driver's class, with its prototype.
    class Larger extends Chunker {
      constructor(channel: unknown, bufferSize?: number) {
        super(channel, bufferSize || CHUNK_BUFFER_BYTES);
      }
    }
    Object.defineProperty(Larger, ORIGINAL, { value: Chunker });
    chunking.Chunker = Larger;
    installed = true;
  } catch {
    /* layout changed: keep the driver's own chunks */
  }
  return installed;
}
