/**
 * The OpenAPI 3.1 document of the service, built from the route declarations (route.ts) found on the
 * mounted router, so every route the router serves is in it with its full path, and nothing else is.
 * Served at GET /api/v1/openapi.json and browsable at /api/docs (routes/docs.ts).
 *
 * Named schemas (src/api/schemas.ts, by `$id`) become `components.schemas` and are referenced where
 * they appear; the OpenLineage event schema is put there as the very object validate.ts compiles.
 */
import type Router from '@koa/router';
import { OptionalKind, type TSchema } from '@sinclair/typebox';
import { declarationOf, type AnyRouteSpec } from './route.js';
import { NAMED_SCHEMAS } from '../api/schemas.js';
import { EVENT_SCHEMAS } from '../domain/openlineage/event-schema.js';

type Json = Record<string, unknown>;
export type OpenApiDocument = Json & {
  paths: Record<string, Record<string, Json>>;
  components: { schemas: Record<string, unknown> } & Json;
};

/** A route as the router serves it: method, full path (koa syntax) and its declaration (if any). */
export interface MountedRoute {
  method: string;
  path: string;
  spec: AnyRouteSpec | undefined;
}

/** Every (method, path) the router answers, HEAD excluded (it follows GET). */
export function mountedRoutes(router: Router): MountedRoute[] {
  const out: MountedRoute[] = [];
  for (const layer of router.stack) {
    if (!layer.methods.length) continue;
    const spec = layer.stack.map(declarationOf).find((s) => s !== undefined);
    for (const method of layer.methods) if (method !== 'HEAD') out.push({ method, path: layer.path as string, spec });
  }
  return out;
}

/** `/namespaces/:namespace` → `/namespaces/{namespace}`. */
export const openApiPath = (koaPath: string) => koaPath.replace(/:(\w+)/g, '{$1}');

const COMPONENT = '#/components/schemas/';
const named = new Map<string, TSchema>(NAMED_SCHEMAS.map((s) => [s.$id as string, s]));
/** Objects placed in components as they are (no copy): the event schema. */
const shared = new Map<unknown, string>(Object.entries(EVENT_SCHEMAS).map(([name, schema]) => [schema, name]));

/** A schema as it appears in the document: named schemas inside it referenced, symbols and `$id` dropped. */
export function documentSchema(schema: unknown, top = false): unknown {
  if (Array.isArray(schema)) return schema.map((s) => documentSchema(s));
  if (schema === null || typeof schema !== 'object') return schema;
  const sharedName = shared.get(schema);
  if (sharedName && !top) return { $ref: COMPONENT + sharedName };
  const s = schema as Json;
  if (!top && typeof s.$id === 'string' && named.has(s.$id)) return { $ref: COMPONENT + s.$id };
  const out: Json = {};
  for (const [key, value] of Object.entries(s)) {
    if (key === '$id') continue;
    if (key === '$ref' && typeof value === 'string' && !value.startsWith('#')) out.$ref = COMPONENT + value;
    else if (key === 'properties' || key === 'patternProperties' || key === '$defs') {
      out[key] = Object.fromEntries(Object.entries(value as Json).map(([k, v]) => [k, documentSchema(v)]));
    } else out[key] = documentSchema(value);
  }
  return out;
}

const errorContent = (schema: unknown = { $ref: `${COMPONENT}Error` }) => ({ 'application/json': { schema } });
const REQUEST_ID_HEADER = { 'X-Request-Id': { $ref: '#/components/headers/RequestId' } };

const STANDARD_ERRORS: Record<number, string> = {
  400: 'Malformed request: a parameter, or the body, cannot be read (`errors` names each problem)',
  401: 'No API key, or an unknown or malformed one (AUTH_MODE=apikey)',
  403: "The API key lacks the route's scope",
  413: 'The body is larger than BODY_LIMIT (after gzip inflation)',
  415: 'The body is not JSON (Content-Type)',
  422: 'The body is JSON but not valid (`errors` names each problem)',
  500: 'Internal error (logged with the request id)',
  503: 'Neo4j is unavailable, or the service is overloaded (Retry-After)',
  504: 'The query took longer than QUERY_TIMEOUT_MS',
};

function operation(spec: AnyRouteSpec): Json {
  const parameters: Json[] = [];
  for (const [where, props] of [
    ['path', spec.params],
    ['query', spec.query],
  ] as const) {
    for (const [name, schema] of Object.entries(props ?? {}) as [string, Json][]) {
      const optional = (schema as { [OptionalKind]?: string })[OptionalKind] === 'Optional';
      const { description, ...rest } = documentSchema(schema) as Json;
      parameters.push({
        name,
        in: where,
        required: where === 'path' || (!optional && rest.default === undefined),
        ...(description ? { description } : {}),
        schema: rest,
        ...(rest.type === 'array' ? { style: 'form', explode: true } : {}),
      });
    }
  }
  const responses: Record<string, Json> = {};
  const success = spec.success;
  const content: Json = {};
  if (success.schema) content['application/json'] = { schema: documentSchema(success.schema) };
  if (success.csv) content['text/csv'] = { schema: { type: 'string', description: 'RFC 4180 CSV with a header row' } };
  for (const type of [success.contentType ?? []].flat()) content[type] = { schema: { type: 'string' } };
  const successHeaders: Json = { ...REQUEST_ID_HEADER };
  for (const [name, description] of Object.entries(success.headers ?? {}))
    successHeaders[name] = { description, schema: { type: 'string' } };
  responses[String(success.status)] = {
    description: success.description,
    headers: successHeaders,
    ...(Object.keys(content).length ? { content } : {}),
  };

  const errors = new Map<number, { description: string; schema?: unknown }>();
  const add = (status: number, description = STANDARD_ERRORS[status]) => errors.set(status, { description });
  if (spec.params || spec.query || spec.body) add(400);
  if (spec.scope !== 'public') {
    add(401);
    add(403);
  }
  if (spec.body) for (const s of [413, 415, 422]) add(s);
  // Every state-changing request takes JSON or no body, and never comes cross-site from a browser
  // (middleware/request-guards.ts), whether or not the route reads a body.
  if (spec.method !== 'GET') {
    add(413);
    add(415, 'A body that is not JSON: state-changing routes take JSON or no body (a form cannot reach them)');
    add(
      403,
      spec.scope === 'public'
        ? 'A cross-site browser request (Sec-Fetch-Site)'
        : `${STANDARD_ERRORS[403]}, or a cross-site browser request (Sec-Fetch-Site)`,
    );
  }
  add(500);
  if (!spec.static) for (const s of [503, 504]) add(s);
  for (const [status, e] of Object.entries(spec.errors ?? {})) {
    errors.set(
      Number(status),
      typeof e === 'string' ? { description: e } : { description: e.description, schema: documentSchema(e.schema) },
    );
  }
  for (const [status, e] of [...errors.entries()].sort(([a], [b]) => a - b)) {
    const headers: Json = { ...REQUEST_ID_HEADER };
    if (status === 401 || status === 403)
      headers['WWW-Authenticate'] = { description: 'Bearer challenge (RFC 6750)', schema: { type: 'string' } };
    if (status === 503)
      headers['Retry-After'] = { description: 'Seconds to wait before retrying', schema: { type: 'integer' } };
    responses[String(status)] = { description: e.description, headers, content: errorContent(e.schema) };
  }

  const op: Json = {
    operationId: spec.operationId,
    summary: spec.summary,
    description: [
      spec.description,
      spec.scope === 'public' ? 'No API key needed.' : `Scope: \`${spec.scope}\` (when AUTH_MODE=apikey).`,
    ]
      .filter(Boolean)
      .join('\n\n'),
    tags: spec.tags,
    ...(spec.deprecated ? { deprecated: true } : {}),
    security: spec.scope === 'public' ? [] : [{ bearerAuth: [spec.scope] }, { apiKeyHeader: [spec.scope] }],
    'x-scope': spec.scope,
    ...(parameters.length ? { parameters } : {}),
    responses,
  };
  if (spec.body) {
    op.requestBody = {
      description: spec.body.what,
      required: spec.body.required !== false,
      content: { 'application/json': { schema: documentSchema(spec.body.schema) } },
    };
  }
  return op;
}

const TAGS: [string, string][] = [
  ['Ingestion', 'OpenLineage events in'],
  ['Namespaces', 'Namespaces'],
  ['Sources', 'Data sources'],
  ['Datasets', 'Datasets, their versions and tags'],
  ['Jobs', 'Jobs, their versions and tags'],
  ['Runs', 'Runs of jobs'],
  ['Tags', 'Tags'],
  ['Lineage', 'The lineage graph (docs/lineage.md)'],
  ['Impact', 'Impact analysis (docs/impact.md)'],
  ['Search', 'Search by name'],
  ['Lineage events', 'The stored raw events'],
  ['Stats', 'Counts over time'],
  [
    'Legacy write API',
    "Marquez's write API, for marquez-python and older integrations: each call is turned into an OpenLineage event. " +
      'Deprecated: send OpenLineage events.',
  ],
  ['Operations', 'Health, readiness, metrics'],
  ['Documentation', 'This document and its viewer'],
];

/** The document for the routes mounted on `router`. Throws if a route has no declaration. */
export function buildOpenApi(router: Router, info: { version: string }): OpenApiDocument {
  const paths: Record<string, Record<string, Json>> = {};
  for (const { method, path, spec } of mountedRoutes(router)) {
    if (!spec)
      throw new Error(
        `Route ${method} ${path} has no declaration (src/http/route.ts): it cannot be documented or authorized`,
      );
    const p = openApiPath(path);
    paths[p] ??= {};
    paths[p][method.toLowerCase()] = operation(spec);
  }
  const schemas: Record<string, unknown> = {};
  for (const schema of NAMED_SCHEMAS) schemas[schema.$id as string] = documentSchema(schema, true);
  for (const [name, schema] of Object.entries(EVENT_SCHEMAS)) schemas[name] = schema;
  return {
    openapi: '3.1.0',
    info: {
      title: 'Lineage Graph Service',
      version: info.version,
      summary: 'OpenLineage metadata in Neo4j: a Marquez-compatible API, the lineage graph and impact analysis',
      description:
        'With AUTH_MODE=apikey, every route but the health checks and this document needs an API key with the ' +
        "route's scope " +
        '(`read`: every GET; `write`: ingestion; `admin`: tags, PUT namespace, every DELETE; admin includes read and ' +
        'write), ' +
        'sent as `Authorization: Bearer <key>` or `X-Api-Key: <key>`. Each operation names its scope. Errors are ' +
        'JSON `Error` objects.',
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [{ url: '/', description: 'This service' }],
    tags: TAGS.map(([name, description]) => ({ name, description })),
    paths,
    components: {
      schemas,
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description: 'Authorization: Bearer <api key> (what the OpenLineage clients send)',
        },
        apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-Api-Key' },
      },
      headers: {
        RequestId: {
          description: 'The request id: the X-Request-Id sent, or one made up; in every log line of the request',
          schema: { type: 'string' },
        },
      },
    },
  };
}
