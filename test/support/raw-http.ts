/** HTTP helpers below fetch, for tests that need the bytes as sent. */
import http from 'node:http';
import net from 'node:net';

/** A raw GET (fetch would decompress transparently): status, headers and the body bytes as sent. */
export function rawGet(baseUrl: string, path: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    const req = http.get(`${baseUrl}${path}`, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
  });
}

export interface RawAnswer {
  /** 0 when no answer came. */
  status: number;
  /** Lower-case names. */
  headers: Record<string, string>;
  body: string;
}

/** The answer in `received` once it is complete (its Content-Length read), else null. */
function completeAnswer(received: Buffer): RawAnswer | null {
  const end = received.indexOf('\r\n\r\n');
  if (end < 0) return null;
  const [statusLine, ...lines] = received.subarray(0, end).toString('latin1').split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const i = line.indexOf(':');
    if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  const body = received.subarray(end + 4);
  if (body.length < Number(headers['content-length'] ?? 0)) return null;
  return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine)?.[1] ?? 0), headers, body: body.toString() };
}

/**
 * One request on its own socket, written as given: `head` (the request line and headers) then `body`,
 * which may be only part of what Content-Length declares (a body held in flight). `answer` settles
 * once a whole answer has come (status 0 if the connection closed, abort() was called or `waitMs`
 * passed first); `closed` once the connection is closed (false if it is still open after `waitMs`).
 */
export function rawRequest(baseUrl: string, head: string, body: string | Buffer = '', waitMs = 10_000) {
  const { hostname, port } = new URL(baseUrl);
  const socket = net.connect(Number(port), hostname);
  let received = Buffer.alloc(0);
  socket.on('error', () => undefined);
  socket.write(head);
  if (body.length > 0) socket.write(body);
  const none: RawAnswer = { status: 0, headers: {}, body: '' };
  const answer = new Promise<RawAnswer>((resolve) => {
    socket.on('data', (d: Buffer) => {
      received = Buffer.concat([received, d]);
      const complete = completeAnswer(received);
      if (complete) resolve(complete);
    });
    socket.on('close', () => resolve(completeAnswer(received) ?? none));
  });
  const closed = new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => {
      resolve(false);
      socket.destroy();
    }, waitMs);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
  return {
    answer,
    closed,
    /** Sends more of the body. */
    write: (more: string | Buffer) => socket.write(more),
    /** The client goes away: the socket is destroyed mid-request. */
    abort: () => socket.destroy(),
  };
}
