/**
 * Socket tuning for the Neo4j JavaScript driver's Bolt connections, which the driver offers no option for.
 *
 * 1. TCP_NODELAY. The driver leaves Nagle's algorithm on. A transaction sends RUN and PULL as separate
 *    small writes, so the second waits for the server's delayed ACK: about 40 ms added to every query
 *    on Linux (measured here: ~48 ms per ingest statement before, ~1-5 ms after).
 * 2. One write per tick. The driver's chunker hands the socket a write every 1,400 bytes, so an ingest
 *    batch of a few hundred KB became hundreds of write syscalls and TCP segments (about 7% of the
 *    service's CPU in a profile, and as many reads for Neo4j). Corking the socket on the first write of
 *    a tick and uncorking it on the next tick sends everything produced in that tick as one writev,
 *    without delaying anything past the current tick.
 */
import net from 'node:net';

let installed = false;

function writeOncePerTick(socket: net.Socket): void {
  const write = socket.write;
  let corked = false;
  const uncork = () => {
    corked = false;
    socket.uncork();
  };
  socket.write = function (this: net.Socket, ...args: unknown[]) {
    if (!corked) {
      corked = true;
      socket.cork();
      process.nextTick(uncork);
    }
    return (write as (...a: unknown[]) => boolean).apply(this, args);
  } as typeof socket.write;
}

export function enableNoDelayForDriverSockets(): void {
  if (installed) return;
  installed = true;
  const connect = net.connect;
  const patched = function (this: unknown, ...args: unknown[]) {
    const socket = (connect as (...a: unknown[]) => net.Socket).apply(this, args);
    socket.setNoDelay(true);
    writeOncePerTick(socket);
    return socket;
  } as typeof net.connect;
  net.connect = patched;
  net.createConnection = patched;
}
