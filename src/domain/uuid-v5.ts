/**
 * Name-based UUIDs (RFC 9562 version 5: SHA-1 over namespace bytes + UTF-8 name), the same ids as the
 * `uuid` package's v5. Ingestion derives several per event (version ids, non-UUID run ids); the
 * package re-parses the namespace and re-encodes the name by hand on every call, which showed up in
 * profiles of the ingest path.
 */
import { createHash } from 'node:crypto';

/** A UUID in its text form (any version, either case). */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const isUuid = (text: string): boolean => UUID_PATTERN.test(text);

const namespaceBytes = new Map<string, Buffer>();

function bytesOf(namespace: string): Buffer {
  let bytes = namespaceBytes.get(namespace);
  if (!bytes) {
    const hex = namespace.replace(/-/g, '');
    if (!/^[0-9a-fA-F]{32}$/.test(hex)) throw new TypeError(`not a UUID: ${namespace}`);
    bytes = Buffer.from(hex, 'hex');
    namespaceBytes.set(namespace, bytes);
  }
  return bytes;
}

export function uuidV5(name: string, namespace: string): string {
  const hash = createHash('sha1').update(bytesOf(namespace)).update(name, 'utf8').digest();
  hash[6] = (hash[6] & 0x0f) | 0x50;
  hash[8] = (hash[8] & 0x3f) | 0x80;
  const hex = hash.toString('hex', 0, 16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}
