/**
 * Requests Node's HTTP parser refuses before the app sees them (a raw non-ASCII byte in the query, a
 * header block past its limit, a request that is not HTTP): Node answers them with a bare status line
 * and no body. Here they get the API's JSON error `{code, error, message}`, a request id and a log line,
 * as every other error does.
 */
import { STATUS_CODES, type ServerResponse, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { randomUUID } from 'node:crypto';
import type { Logger } from '../logger.js';

/** Node's parser error codes, as the client should read them. */
function answerFor(code: string | undefined): { status: number; error: string; message: string } {
  if (code === 'HPE_HEADER_OVERFLOW')
    return {
      status: 431,
      error: 'request_header_fields_too_large',
      message: 'The request line and headers are larger than the server reads (16 KiB)',
    };
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT')
    return { status: 408, error: 'request_timeout', message: 'The request was not received in time' };
  if (code === 'HPE_INVALID_URL' || code === 'HPE_INVALID_CHARACTER')
    return {
      status: 400,
      error: 'bad_request',
      message:
        'The request line or a header holds a byte HTTP does not allow there: percent-encode the URL ' +
        '(RFC 3986), e.g. ü as %C3%BC',
    };
  return { status: 400, error: 'bad_request', message: `The request is not valid HTTP/1.1 (${code ?? 'unknown'})` };
}

export function answerClientErrors(server: Server, logger: Logger): void {
  server.on('clientError', (err: Error & { code?: string }, socket: Socket) => {
    // Nothing to answer on a socket the client closed, or one whose answer has started (as Node decides).
    const answering = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
    if (err.code === 'ECONNRESET' || !socket.writable || answering?.headersSent) {
      socket.destroy();
      return;
    }
    const { status, error, message } = answerFor(err.code);
    const requestId = randomUUID();
    const body = JSON.stringify({ code: status, error, message });
    logger.info(
      { requestId, status, parserError: err.code, remote: socket.remoteAddress },
      'request refused by the HTTP parser',
    );
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
