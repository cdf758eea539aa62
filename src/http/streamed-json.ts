/**
 * A JSON answer written while its long array is still being read from Neo4j: the members before the
 * array as soon as they are known, then the array's elements as they come, then the members after it.
 * An answer collected first and serialized after waited for the last record before its first byte, and
 * serialized and compressed on the critical path (the hub's blast radius: 10,000 nodes, 3 MB).
 *
 * The bytes are JSON.stringify(body)'s for the body { ...head, [arrayKey]: items, ...tail } (keys in
 * that order, `undefined` members left out); only the framing differs (chunked, no Content-Length).
 * Nothing is sent before the first CHUNK_CHARS of the answer (or its end), so an error until then is an
 * ordinary JSON error answer; one after it ends the stream early, which the client sees as a body cut
 * short (or, before the compressor let any byte out, as a connection closed without an answer).
 */
import type { Context } from 'koa';
import { PassThrough } from 'node:stream';

/** Characters gathered before a chunk is handed to the socket (or the compressor). */
const CHUNK_CHARS = 64 * 1024;

export interface StreamedJsonWriter<T> {
  /** The members before the array; answers 200 from here (called again, it does nothing). */
  begin(head: Record<string, unknown>): void;
  /** The array's next element; a promise when the socket is full (wait for it: backpressure). */
  item(item: T): void | Promise<void>;
  /** `item`, for an element whose JSON text was made already (written as it is). */
  itemText(json: string): void | Promise<void>;
}

/**
 * Resolves when a full stream drains; rejects when it is destroyed instead (Koa destroys the body when
 * the client goes away), so that the producer stops and its Neo4j transaction ends, where waiting for a
 * drain that never comes would hold the transaction and its connection forever.
 */
export function drained(stream: PassThrough): Promise<void> {
  if (stream.destroyed) return Promise.reject(new Error('the client closed the request'));
  return new Promise<void>((resolve, reject) => {
    const onDrain = () => {
      stream.off('close', onClose);
      resolve();
    };
    const onClose = () => {
      stream.off('drain', onDrain);
      reject(new Error('the client closed the request'));
    };
    stream.once('drain', onDrain);
    stream.once('close', onClose);
  });
}

/** `key:value` members of `members` as JSON.stringify writes them, each preceded by a comma. */
function membersText(members: Record<string, unknown>): string {
  let out = '';
  for (const key of Object.keys(members)) {
    const text = JSON.stringify(members[key]);
    if (text !== undefined) out += `,${JSON.stringify(key)}:${text}`;
  }
  return out;
}

/**
 * Answers with `{ ...head, [arrayKey]: [...items], ...tail }`, streamed: `produce` calls `begin` with the
 * head, then `item` per element, and resolves to the tail. Resolves once the answer is under way (its
 * first chunk written, or `produce` done); rejects, with nothing sent, if `produce` fails before that.
 */
export async function respondStreamedJson<T>(
  ctx: Context,
  arrayKey: string,
  produce: (out: StreamedJsonWriter<T>) => Promise<Record<string, unknown>>,
): Promise<void> {
  const stream = new PassThrough();
  let begun = false;
  let pending = '';
  let first = true;
  let signalStarted: () => void = () => undefined;
  const started = new Promise<void>((resolve) => (signalStarted = resolve));
  // One wait for a drain at a time, whoever asks: a producer that cannot wait (it is handed records
  // synchronously) may ignore it, and the stream then buffers (its rejection is handled here too).
  let draining: Promise<void> | null = null;
  const flush = (): void | Promise<void> => {
    // The answer is committed to a 200 with its first bytes: an error before them still gets its own status.
    signalStarted();
    const full = !stream.write(pending);
    pending = '';
    if (!full) return;
    if (!draining) {
      draining = drained(stream).finally(() => (draining = null));
      draining.catch(() => undefined);
    }
    return draining;
  };
  const writer: StreamedJsonWriter<T> = {
    begin(head) {
      if (begun) return;
      begun = true;
      const members = membersText(head);
      // Without the comma before the first member: the body opens with it.
      pending = `{${members.slice(1)}${members === '' ? '' : ','}${JSON.stringify(arrayKey)}:[`;
    },
    item(item) {
      return writer.itemText(JSON.stringify(item) ?? 'null');
    },
    itemText(json) {
      if (!begun) throw new Error('streamed JSON element before the head');
      pending += (first ? '' : ',') + json;
      first = false;
      if (pending.length >= CHUNK_CHARS) return flush();
    },
  };
  const done = produce(writer).then((tail) => {
    if (!begun) throw new Error('streamed JSON answer ended before its head');
    pending += `]${membersText(tail)}}`;
    return flush();
  });
  await Promise.race([started, done]);
  ctx.status = 200;
  ctx.type = 'application/json; charset=utf-8';
  ctx.body = stream;
  done.then(
    () => stream.end(),
    (err: unknown) => stream.destroy(err instanceof Error ? err : new Error(String(err))),
  );
}
