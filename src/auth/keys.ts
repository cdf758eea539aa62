/**
 * API keys: their format, how they are stored (only a SHA-256 hash of each, with its id, scopes and
 * the namespaces it may write) and how a presented key is recognised (constant time). Pure apart from
 * the random bytes of generateKey.
 *
 * Scopes: `read` (every GET), `write` (ingestion and the legacy write API), `admin` (tags, PUT
 * namespace, every DELETE). `admin` includes `read` and `write`; `write` does not include `read`, so a
 * producer's key cannot read the graph. Routes with scope `public` need no key.
 */
import crypto from 'node:crypto';

export type KeyScope = 'read' | 'write' | 'admin';
export type Scope = 'public' | KeyScope;
export const KEY_SCOPES: readonly KeyScope[] = ['read', 'write', 'admin'];

export interface ApiKey {
  /** A name for logs and audits (never the key). */
  id: string;
  /** SHA-256 of the key's text (32 bytes). */
  hash: Buffer;
  scopes: ReadonlySet<KeyScope>;
  /** Namespace patterns the key may write into (`*` matches any run of characters); null: all. */
  namespaces: readonly string[] | null;
}

export class KeyFileError extends Error {}

/** Every key this service makes starts with this, so secret scanners can recognise a leaked one. */
export const KEY_PREFIX = 'lgs_';

export const hashKey = (key: string): Buffer => crypto.createHash('sha256').update(key, 'utf8').digest();

/** A new random key (256 bits) and a suggested id. */
export function generateKey(): string {
  return KEY_PREFIX + crypto.randomBytes(32).toString('base64url');
}

/** The line of a keys file (JSON) describing `key`; the key itself is not in it. */
export function keyEntry(id: string, key: string, scopes: KeyScope[], namespaces: string[] | null): string {
  return JSON.stringify({
    id,
    sha256: hashKey(key).toString('hex'),
    scopes,
    ...(namespaces?.length ? { namespaces } : {}),
  });
}

function parseEntry(raw: unknown, where: string): ApiKey {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw))
    throw new KeyFileError(`${where}: a key must be a JSON object {id, sha256, scopes, namespaces?}`);
  const e = raw as Record<string, unknown>;
  if (typeof e.id !== 'string' || e.id.trim() === '')
    throw new KeyFileError(`${where}: "id" must be a non-empty string`);
  if (typeof e.sha256 !== 'string' || !/^[0-9a-f]{64}$/i.test(e.sha256)) {
    throw new KeyFileError(
      `${where} (${e.id}): "sha256" must be the 64 hex digits of the key's SHA-256 (npm run apikey -- ` +
        `create prints it)`,
    );
  }
  if (!Array.isArray(e.scopes) || e.scopes.length === 0 || !e.scopes.every((s) => KEY_SCOPES.includes(s as KeyScope))) {
    throw new KeyFileError(`${where} (${e.id}): "scopes" must be a non-empty list of ${KEY_SCOPES.join(', ')}`);
  }
  let namespaces: string[] | null = null;
  if (e.namespaces !== undefined && e.namespaces !== null) {
    if (
      !Array.isArray(e.namespaces) ||
      e.namespaces.length === 0 ||
      !e.namespaces.every((n) => typeof n === 'string' && n !== '')
    ) {
      throw new KeyFileError(
        `${where} (${e.id}): "namespaces" must be a non-empty list of namespace names or patterns`,
      );
    }
    namespaces = e.namespaces as string[];
  }
  return { id: e.id, hash: Buffer.from(e.sha256, 'hex'), scopes: new Set(e.scopes as KeyScope[]), namespaces };
}

/**
 * Keys from a keys file's text: a JSON array of entries, `{"keys": [...]}`, or one JSON entry per line
 * (blank lines and lines starting with `#` are skipped). An entry: `{"id", "sha256", "scopes",
 * "namespaces"?}`. Ids must be unique, and so must hashes.
 */
export function parseKeys(text: string, source: string): ApiKey[] {
  const trimmed = text.trim();
  let entries: { raw: unknown; where: string }[];
  if (trimmed.startsWith('[') || (trimmed.startsWith('{') && /^\{\s*"keys"\s*:/.test(trimmed))) {
    let doc: unknown;
    try {
      doc = JSON.parse(trimmed);
    } catch (err) {
      throw new KeyFileError(`${source}: not valid JSON (${(err as Error).message})`);
    }
    const list = Array.isArray(doc) ? doc : (doc as { keys?: unknown }).keys;
    if (!Array.isArray(list)) throw new KeyFileError(`${source}: "keys" must be a list`);
    entries = list.map((raw, i) => ({ raw, where: `${source} entry ${i + 1}` }));
  } else {
    entries = [];
    text.split(/\r?\n/).forEach((line, i) => {
      const l = line.trim();
      if (l === '' || l.startsWith('#')) return;
      try {
        entries.push({ raw: JSON.parse(l), where: `${source} line ${i + 1}` });
      } catch {
        throw new KeyFileError(
          `${source} line ${i + 1}: not a JSON object (one key per line: {"id": ..., "sha256": ..., "scopes": [...]})`,
        );
      }
    });
  }
  const keys = entries.map((e) => parseEntry(e.raw, e.where));
  const ids = new Set<string>();
  const hashes = new Set<string>();
  for (const k of keys) {
    if (ids.has(k.id)) throw new KeyFileError(`${source}: key id '${k.id}' appears twice`);
    if (hashes.has(k.hash.toString('hex')))
      throw new KeyFileError(`${source}: key '${k.id}' has the hash of another key`);
    ids.add(k.id);
    hashes.add(k.hash.toString('hex'));
  }
  return keys;
}

/**
 * The key whose hash matches `presented`, or null. The presented key is hashed first, so every
 * comparison is of two 32-byte digests, and it is compared with every key (no early exit), each with
 * a constant-time comparison: the time taken says nothing about which bytes or which key matched.
 */
export function findKey(
  presented: string,
  keys: readonly ApiKey[],
  equal: (a: Buffer, b: Buffer) => boolean = crypto.timingSafeEqual,
): ApiKey | null {
  const digest = hashKey(presented);
  let found: ApiKey | null = null;
  for (const key of keys) {
    if (equal(digest, key.hash) && found === null) found = key;
  }
  return found;
}

/** Whether a key with these scopes may call a route of `scope`. */
export function grants(scopes: ReadonlySet<KeyScope>, scope: Scope): boolean {
  if (scope === 'public' || scopes.has('admin')) return true;
  return scopes.has(scope);
}

const patternCache = new Map<string, RegExp>();
function patternOf(glob: string): RegExp {
  let re = patternCache.get(glob);
  if (!re) {
    re = new RegExp(
      `^${glob
        .split('*')
        .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
        .join('.*')}$`,
      's',
    );
    patternCache.set(glob, re);
  }
  return re;
}

/** Whether a key may write into `namespace` (its patterns: exact names, `*` for any characters). */
export function mayWrite(key: Pick<ApiKey, 'namespaces'>, namespace: string): boolean {
  return key.namespaces === null || key.namespaces.some((glob) => patternOf(glob).test(namespace));
}
