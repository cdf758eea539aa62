/**
 * The load generator's HTTP client: one keep-alive HTTP/1.1 connection per simulated producer, one
 * request at a time on it (a producer waits for its answer before posting the next event, as the
 * OpenLineage clients do). It sends the same request as Node's http client would (POST, Host,
 * Connection: keep-alive, Content-Type, Content-Length) but builds nothing per request beyond the
 * header line with the length, and parses only the status line and Content-Length of the answer.
 *
 * Why not http.request: the generator shares the 2 cores with the service and Neo4j, which real
 * producers never do, so what it spends is taken from what is being measured. Node's client cost
 * about 0.13-0.2 ms of CPU per event here (request and response objects, header validation, the
 * parser's JavaScript callbacks, stream events).
 */
import net from 'node:net';

export interface Answer {
  status: number;
  body: string;
}

const HEADER_END = Buffer.from('\r\n\r\n');

export class KeepAliveConnection {
  private readonly socket: net.Socket;
  private readonly head: string;
  private buffered: Buffer | null = null;
  private waiting: { resolve: (a: Answer) => void; reject: (e: Error) => void } | null = null;
  private failure: Error | null = null;

  constructor(url: string, path: string) {
    const { hostname, port } = new URL(url);
    this.socket = net.connect({ host: hostname, port: Number(port), noDelay: true });
    this.head =
      `POST ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nConnection: keep-alive\r\nContent-Type: ` +
      `application/json\r\nContent-Length: `;
    this.socket.on('data', (chunk: Buffer) => this.onData(chunk));
    this.socket.on('error', (err) => this.fail(err));
    this.socket.on('close', () => this.fail(new Error('the service closed the connection')));
  }

  /** POSTs `body` (JSON, already encoded) and resolves with the answer. One request at a time. */
  post(body: Buffer): Promise<Answer> {
    if (this.failure) return Promise.reject(this.failure);
    if (this.waiting) return Promise.reject(new Error('one request at a time per connection'));
    return new Promise<Answer>((resolve, reject) => {
      this.waiting = { resolve, reject };
      this.socket.cork();
      this.socket.write(`${this.head}${body.length}\r\n\r\n`, 'latin1');
      this.socket.write(body);
      this.socket.uncork();
    });
  }

  close(): void {
    this.socket.destroy();
  }

  private fail(err: Error): void {
    this.failure ??= err;
    const waiting = this.waiting;
    this.waiting = null;
    waiting?.reject(err);
  }

  private onData(chunk: Buffer): void {
    const data = this.buffered ? Buffer.concat([this.buffered, chunk]) : chunk;
    const end = data.indexOf(HEADER_END);
    if (end < 0) {
      this.buffered = data;
      return;
    }
    const head = data.toString('latin1', 0, end);
    const length = /\r\ncontent-length:[ \t]*(\d+)/i.exec(head);
    if (!length) {
      this.fail(
        new Error(`answer without Content-Length (chunked answers are not supported here): ${head.split('\r\n')[0]}`),
      );
      return;
    }
    const bodyEnd = end + HEADER_END.length + Number(length[1]);
    if (data.length < bodyEnd) {
      this.buffered = data;
      return;
    }
    if (data.length > bodyEnd) {
      this.fail(new Error('bytes after the answer: the service answered a request that was not sent'));
      return;
    }
    this.buffered = null;
    const waiting = this.waiting;
    this.waiting = null;
    waiting?.resolve({
      status: Number(head.slice(9, 12)),
      body: data.toString('utf8', end + HEADER_END.length, bodyEnd),
    });
  }
}
