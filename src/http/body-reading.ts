/**
 * Reading a request body through the body parser, with the stream it inflates an encoded body through
 * in hand. co-body (under koa-bodyparser) pipes the request into an inflater (gzip, deflate, br) and
 * reads from that; the inflater is never told when the client goes away mid-body, so the parser, and
 * the handler awaiting it, would wait for it forever. Here the inflater is caught as the request's pipe
 * destination while the parser starts (it pipes before its first await) and destroyed with the
 * parser's own `request aborted` error (400) when the request closes before it is complete.
 */
import type { Readable } from 'node:stream';
import type { Context } from 'koa';
import { HttpError } from './errors.js';
import { Utf8Check } from './utf8-check.js';

/** The error the body parser gives for a request aborted while its body is read (raw-body's). */
function requestAborted(): Error {
  return Object.assign(new Error('request aborted'), {
    status: 400,
    statusCode: 400,
    expose: true,
    type: 'request.aborted',
    code: 'ECONNABORTED',
  });
}

/**
 * Runs `parse` (the body parser) on `ctx`'s request. `inflating` is called before a byte is read with
 * the stream the parser reads from when it inflates the body, or null when it reads the request itself
 * (an identity body) or was not seen piping (test/http/body-budget.test.ts fails then). The bytes the
 * parser reads (after inflating) must be UTF-8, which is all it decodes whatever the Content-Type's
 * charset: else 400 (415 when another charset was named), where the parser would have replaced them with
 * U+FFFD and the event been stored altered. ASCII is UTF-8, so a producer that names Latin-1 and sends
 * ASCII is unaffected.
 */
export async function readBody(
  ctx: Context,
  parse: () => Promise<unknown>,
  inflating?: (inflater: Readable | null) => void,
): Promise<void> {
  const req = ctx.req as unknown as { pipe: (destination: unknown, options?: unknown) => unknown };
  const ownPipe = Object.hasOwn(req, 'pipe');
  const pipe = req.pipe;
  let caught: Readable | null = null;
  req.pipe = function caughtPipe(this: unknown, destination: unknown, options?: unknown) {
    caught ??= destination as Readable;
    return pipe.call(this, destination, options);
  };
  let parsing: Promise<unknown>;
  try {
    parsing = parse();
  } finally {
    if (ownPipe) req.pipe = pipe;
    else delete (req as { pipe?: unknown }).pipe;
  }
  const inflater = caught as Readable | null;
  const utf8 = new Utf8Check();
  {
    // Beside the parser's own listener: every chunk it reads, in order (data events come after this tick).
    const source = inflater ?? (ctx.req as unknown as Readable);
    const onData = (chunk: Buffer | string) => {
      if (typeof chunk !== 'string') utf8.push(chunk);
    };
    source.on('data', onData);
    const off = () => source.off('data', onData);
    parsing.then(off, off);
  }
  if (inflater !== null) {
    const request = ctx.req;
    const onClose = () => {
      if (!request.complete) inflater.destroy(requestAborted());
    };
    if (request.destroyed) onClose();
    else {
      request.once('close', onClose);
      const off = () => request.off('close', onClose);
      parsing.then(off, off);
    }
  }
  inflating?.(inflater);
  await parsing;
  if (!utf8.end()) {
    const where = `byte ${utf8.invalidFrom}${ctx.request.get('content-encoding') ? ' once decompressed' : ''}`;
    const charset = ctx.request.charset;
    if (charset !== '' && !/^utf-?8$/i.test(charset)) {
      throw new HttpError(
        415,
        'unsupported_media_type',
        `The request body is not UTF-8 (${where}) and its charset, ${charset}, is not read: JSON is sent as ` +
          'UTF-8 (RFC 8259)',
      );
    }
    throw new HttpError(
      400,
      'bad_request',
      `The request body is not UTF-8 (${where}): JSON is sent as UTF-8 (RFC 8259)`,
    );
  }
}
