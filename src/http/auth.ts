/**
 * Authentication and authorization of requests (AUTH_MODE=apikey; with AUTH_MODE=off, the default,
 * every route is open). Each declared route has a scope (route.ts); this checks the caller's key
 * against it before the request is parsed any further.
 *
 * Credentials as real clients send them: `Authorization: Bearer <key>` (the OpenLineage clients'
 * api_key) or `X-Api-Key: <key>`. No or an unknown key: 401 with `WWW-Authenticate: Bearer`; a key
 * without the route's scope: 403. Keys are never logged; the request log names the key's id.
 */
import type { Context } from 'koa';
import { HttpError } from './errors.js';
import { findKey, grants, mayWrite, type ApiKey, type KeyScope, type Scope } from '../auth/keys.js';

export type AuthMode = 'off' | 'apikey';

export interface AuthOptions {
  mode: AuthMode;
  keys: readonly ApiKey[];
  /** /metrics without a key (METRICS_PUBLIC=true). */
  metricsPublic: boolean;
}

export const AUTH_OFF: AuthOptions = { mode: 'off', keys: [], metricsPublic: false };

/** Who is calling (ctx.state.principal); absent with AUTH_MODE=off or on public routes. */
export interface Principal {
  keyId: string;
  scopes: ReadonlySet<KeyScope>;
  namespaces: readonly string[] | null;
}

const REALM = 'lineage';
/** Longest key text considered (ours are 47 characters); anything longer is malformed. */
const MAX_KEY_LENGTH = 512;

function unauthorized(message: string, error?: 'invalid_request' | 'invalid_token'): HttpError {
  const challenge = error ? `Bearer realm="${REALM}", error="${error}"` : `Bearer realm="${REALM}"`;
  return new HttpError(401, 'unauthorized', message, {}, { 'WWW-Authenticate': challenge });
}

/** The key the request presents, or null when it presents none; 401 for malformed credentials. */
export function presentedKey(ctx: Context): string | null {
  const authorization = ctx.get('authorization');
  const apiKey = ctx.get('x-api-key');
  let fromAuthorization: string | null = null;
  if (authorization !== '') {
    const m = /^Bearer(?:\s+(\S*))?\s*$/i.exec(authorization);
    if (!m) throw unauthorized('The Authorization header must be "Bearer <api key>"', 'invalid_request');
    if (!m[1]) throw unauthorized('The Authorization header has no key after "Bearer"', 'invalid_request');
    fromAuthorization = m[1];
  }
  const fromHeader = apiKey !== '' ? apiKey.trim() : null;
  if (fromHeader !== null && /\s/.test(fromHeader))
    throw unauthorized('The X-Api-Key header must hold one key', 'invalid_request');
  if (fromAuthorization !== null && fromHeader !== null && fromAuthorization !== fromHeader) {
    throw unauthorized('Authorization and X-Api-Key name different keys; send one', 'invalid_request');
  }
  const key = fromAuthorization ?? fromHeader;
  if (key !== null && (key === '' || key.length > MAX_KEY_LENGTH))
    throw unauthorized('The API key is malformed', 'invalid_token');
  return key;
}

/** The `authorize` of route.ts's RouteRuntime for these options. */
export function createAuthorizer(opts: AuthOptions): (ctx: Context, scope: Scope) => void {
  if (opts.mode === 'off') return () => undefined;
  return (ctx, scope) => {
    if (scope === 'public') return;
    const key = presentedKey(ctx);
    if (key === null)
      throw unauthorized(
        `This endpoint needs an API key with scope '${scope}': send "Authorization: Bearer <key>" or "X-Api-Key: ` +
          `<key>"`,
      );
    const found = findKey(key, opts.keys);
    if (!found) throw unauthorized('The API key is not valid', 'invalid_token');
    const principal: Principal = { keyId: found.id, scopes: found.scopes, namespaces: found.namespaces };
    ctx.state.principal = principal;
    if (!grants(found.scopes, scope)) {
      throw new HttpError(
        403,
        'forbidden',
        `The API key '${found.id}' lacks scope '${scope}' (it has ${[...found.scopes].join(', ')})`,
        {},
        {
          'WWW-Authenticate': `Bearer realm="${REALM}", error="insufficient_scope", scope="${scope}"`,
        },
      );
    }
  };
}

/** The principal of the request, if auth is on and the route needed a key. */
export const principalOf = (ctx: Context): Principal | undefined => ctx.state.principal as Principal | undefined;

/** The first of `namespaces` the caller's key may not write into, or null when it may write them all. */
export function forbiddenNamespace(principal: Principal | undefined, namespaces: Iterable<string>): string | null {
  if (!principal || principal.namespaces === null) return null;
  for (const ns of namespaces) if (!mayWrite(principal, ns)) return ns;
  return null;
}

export function namespaceForbidden(principal: Principal, namespace: string): HttpError {
  return new HttpError(
    403,
    'forbidden',
    `The API key '${principal.keyId}' may not write into namespace '${namespace}' (it may write ` +
      `${principal.namespaces!.join(', ')})`,
  );
}
