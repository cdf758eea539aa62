/**
 * Large JSON answers (a page of 1,000 jobs is 13 MB) are written as a stream of chunks, pulled as the
 * socket (or the compressor) takes them, instead of one string. Koa turns an object body into a
 * string with JSON.stringify, and koa-compress stringifies it once more only to read its length
 * (`ctx.response.length`): two 13 MB strings per answer, on top of the objects, held until the
 * client has read them all. Streamed, an answer holds its objects and a chunk or two in flight.
 *
 * The bytes are those of JSON.stringify(body) (keys in the same order, `undefined` members left out,
 * `undefined` array elements as null); only the framing differs (chunked, no Content-Length).
 * Bodies without a long array, or with a toJSON method, are left to Koa.
 */
import type { Middleware } from 'koa';
import { Readable } from 'node:stream';

/** Arrays at least this long make a body worth streaming (smaller ones keep their Content-Length). */
export const STREAM_MIN_ITEMS = 100;
/** Bytes gathered before a chunk is handed on. */
const CHUNK_CHARS = 64 * 1024;

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype;

function worthStreaming(body: unknown): body is Record<string, unknown> {
  if (!isPlainObject(body) || typeof body.toJSON === 'function') return false;
  return Object.values(body).some((v) => Array.isArray(v) && v.length >= STREAM_MIN_ITEMS);
}

/** JSON.stringify(body)'s text in pieces: the body's long arrays element by element. */
export function* jsonPieces(body: Record<string, unknown>): Generator<string> {
  yield '{';
  let first = true;
  for (const key of Object.keys(body)) {
    const value = body[key];
    if (Array.isArray(value) && value.length >= STREAM_MIN_ITEMS) {
      yield `${first ? '' : ','}${JSON.stringify(key)}:[`;
      for (let i = 0; i < value.length; i++) yield (i > 0 ? ',' : '') + (JSON.stringify(value[i]) ?? 'null');
      yield ']';
      first = false;
      continue;
    }
    const text = JSON.stringify(value);
    if (text === undefined) continue;
    yield `${first ? '' : ','}${JSON.stringify(key)}:${text}`;
    first = false;
  }
  yield '}';
}

function* chunks(body: Record<string, unknown>): Generator<Buffer> {
  let pending = '';
  for (const piece of jsonPieces(body)) {
    pending += piece;
    if (pending.length >= CHUNK_CHARS) {
      yield Buffer.from(pending);
      pending = '';
    }
  }
  if (pending) yield Buffer.from(pending);
}

export function streamLargeJson(): Middleware {
  return async (ctx, next) => {
    await next();
    const body = ctx.body;
    if (ctx.method === 'HEAD' || !worthStreaming(body)) return;
    const type = ctx.response.get('Content-Type');
    ctx.body = Readable.from(chunks(body), { objectMode: false });
    // Setting a stream body drops the JSON type Koa gave the object body.
    ctx.type = type || 'application/json; charset=utf-8';
  };
}
