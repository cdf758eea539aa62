/**
 * Checks that a byte stream is UTF-8, chunk by chunk. The body parser decodes a body it reads with
 * replacement characters (a Latin-1 `ö` became U+FFFD and the event was stored so, answered 201); RFC 8259
 * says JSON exchanged between systems is UTF-8, so a body that is not is refused instead (400), unless its
 * Content-Type names another charset. A multi-byte character split between chunks is carried over.
 */
import { isUtf8 } from 'node:buffer';

export class Utf8Check {
  private carry: Buffer | null = null;
  private seen = 0;
  /** Offset of the first byte that is not UTF-8, or -1. */
  invalidFrom = -1;

  push(chunk: Buffer): void {
    if (this.invalidFrom >= 0) return;
    const bytes = this.carry ? Buffer.concat([this.carry, chunk]) : chunk;
    const start = this.seen - (this.carry?.length ?? 0);
    this.seen += chunk.length;
    const cut = bytes.length - incompleteTail(bytes);
    this.carry = cut < bytes.length ? Buffer.from(bytes.subarray(cut)) : null;
    const whole = bytes.subarray(0, cut);
    if (!isUtf8(whole)) this.invalidFrom = start + firstInvalid(whole);
  }

  /** True when every byte pushed was UTF-8 and no character was left unfinished. */
  end(): boolean {
    if (this.carry && this.invalidFrom < 0) this.invalidFrom = this.seen - this.carry.length;
    this.carry = null;
    return this.invalidFrom < 0;
  }
}

/**
 * How many bytes at the end of `bytes` start a character that is not complete yet (0-3): a lead byte
 * within the last three whose sequence runs past the end. Anything else (a stray continuation byte, an
 * invalid lead) is left in, for isUtf8 to reject.
 */
export function incompleteTail(bytes: Uint8Array): number {
  for (let back = 1; back <= Math.min(3, bytes.length); back++) {
    const b = bytes[bytes.length - back];
    if ((b & 0xc0) === 0x80) continue; // a continuation byte: look further back for its lead
    const length = b >= 0xf5 ? 1 : b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc2 ? 2 : 1;
    return length > back ? back : 0;
  }
  return 0;
}

/** Offset of the first byte of `bytes` that does not belong to a well-formed UTF-8 character (the slow path). */
export function firstInvalid(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i];
    const length = b < 0x80 ? 1 : b >= 0xc2 && b < 0xe0 ? 2 : b >= 0xe0 && b < 0xf0 ? 3 : b >= 0xf0 && b < 0xf5 ? 4 : 0;
    if (length === 0 || i + length > bytes.length) return i;
    // The second byte's range excludes overlong forms, surrogates and code points past U+10FFFF.
    const low = b === 0xe0 ? 0xa0 : b === 0xf0 ? 0x90 : 0x80;
    const high = b === 0xed ? 0x9f : b === 0xf4 ? 0x8f : 0xbf;
    for (let k = 1; k < length; k++) {
      const c = bytes[i + k];
      if (k === 1 ? c < low || c > high : (c & 0xc0) !== 0x80) return i;
    }
    i += length;
  }
  return bytes.length;
}
