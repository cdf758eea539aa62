/**
 * Graceful shutdown of an HTTP server's connections. Node's server.close() stops accepting and
 * closes keep-alive connections between requests, but a connection that is open with no request
 * on it yet (a client's pre-opened or pooled socket) is not "idle" to Node and held the stop for
 * the whole grace period. Here every connection without a request in flight is closed at once,
 * and each busy one right after its response, which also tells the client `Connection: close`.
 */
import type http from 'node:http';
import type { Socket } from 'node:net';

export interface ConnectionTracker {
  /** Closes connections without a request in flight now, and the others as their responses end. */
  drain(): void;
  /** Connections open now. */
  readonly open: number;
}

export function trackConnections(server: http.Server): ConnectionTracker {
  const inFlight = new Map<Socket, number>();
  /** Responses not finished yet: those whose headers are not sent when the drain starts say `close` too. */
  const responses = new Set<http.ServerResponse>();
  let draining = false;
  server.on('connection', (socket: Socket) => {
    inFlight.set(socket, 0);
    socket.once('close', () => inFlight.delete(socket));
  });
  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    const socket = req.socket;
    inFlight.set(socket, (inFlight.get(socket) ?? 0) + 1);
    if (draining) res.setHeader('Connection', 'close');
    responses.add(res);
    res.once('close', () => {
      responses.delete(res);
      const left = (inFlight.get(socket) ?? 1) - 1;
      inFlight.set(socket, left);
      if (draining && left === 0) socket.destroySoon();
    });
  });
  return {
    drain() {
      draining = true;
      for (const res of responses) if (!res.headersSent) res.setHeader('Connection', 'close');
      for (const [socket, requests] of inFlight) if (requests === 0) socket.destroySoon();
    },
    get open() {
      return inFlight.size;
    },
  };
}
