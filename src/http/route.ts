/**
 * One declaration per route: its path and query parameters, body and answers as JSON Schema
 * (TypeBox), its auth scope, and its handler. From it come
 * - the request's validation (400 for bad parameters, 415/400/422 for bodies, one error shape:
 *   `{code, error, message, errors: [{path, message, in}]}`),
 * - the TypeScript types the handler gets (`Static` of each schema, with formatted values decoded),
 * - the auth check (src/http/auth.ts) before anything is read or parsed,
 * - the OpenAPI document (src/http/openapi.ts reads the declarations back from the mounted router).
 */
import type Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import type { ParsedUrlQuery } from 'node:querystring';
import { Type, type Static, type TObject, type TProperties, type TSchema } from '@sinclair/typebox';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { HttpError } from './errors.js';
import { decoderOf, FORMATS } from './params.js';
import type { Scope } from '../auth/keys.js';
import type { ErrorDetail } from '../api/types.js';
import type { BodyHold } from './body-budget.js';
import { readBody } from './body-reading.js';

export type { Scope };
export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface BodySpec<B extends TSchema> {
  schema: B;
  /** false: the body may be left out (then the handler gets undefined). Default true. */
  required?: boolean;
  /** What the body is, for messages and the document: "an OpenLineage event". */
  what: string;
  /** Replaces the ajv validation of `schema` with a validator of the same schema plus rules JSON Schema words badly. */
  problems?: (body: unknown) => { path: string; message: string }[];
}

export interface SuccessSpec<O extends TSchema> {
  status: number;
  description: string;
  /** The JSON answer; absent for an empty answer (or `contentType`). */
  schema?: O;
  /** Also answers CSV (`Accept: text/csv` or `format=csv`). */
  csv?: boolean;
  /** A non-JSON answer, e.g. Prometheus text; several when the answer's type depends on the resource. */
  contentType?: string | readonly string[];
  /** Headers of the answer, name → description. */
  headers?: Record<string, string>;
}

export interface RouteSpec<P extends TProperties, Q extends TProperties, B extends TSchema, O extends TSchema> {
  method: Method;
  /** koa-router path, e.g. `/namespaces/:namespace`. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tags: readonly string[];
  scope: Scope;
  deprecated?: boolean;
  params?: P;
  query?: Q;
  body?: BodySpec<B>;
  success: SuccessSpec<O>;
  /**
   * Error answers besides those every route of its kind can give (404, 409, ...), status → when (and its body, if not
   * Error).
   */
  errors?: Record<number, string | { description: string; schema: TSchema }>;
  /** Needs no database (health, the document): no 503/504 answers. */
  static?: boolean;
  handler: (req: Request<P, Q, B>, ctx: Context) => Promise<Static<O> | undefined> | Static<O> | undefined;
}

/** A handler's view of the request: declared parts only, validated and decoded. */
export interface Request<P extends TProperties, Q extends TProperties, B extends TSchema> {
  params: Static<TObject<P>>;
  query: Static<TObject<Q>>;
  body: Static<B>;
}

/** What a route needs from the app at request time. */
export interface RouteRuntime {
  /** Checks the caller's credentials for `scope`; throws 401/403 (src/http/auth.ts). */
  authorize(ctx: Context, scope: Scope): void;
  /** Parses a JSON body into ctx.request.body (koa-bodyparser with the configured limit). */
  parseBody: Middleware;
  /**
   * Reserves the body's bytes in the process-wide budget (BODY_BYTES_IN_FLIGHT) before it is read;
   * throws 503 when the budget is taken. The route reports when the body is read and when the handler is
   * done with it (src/http/body-budget.ts). Absent: no budget.
   */
  reserveBody?(ctx: Context): BodyHold;
}

export type AnyRouteSpec = RouteSpec<TProperties, TProperties, TSchema, TSchema>;

/** The declaration behind each route middleware, read back by openapi.ts from the router's layers. */
const declarations = new WeakMap<object, AnyRouteSpec>();
export const declarationOf = (middleware: unknown): AnyRouteSpec | undefined =>
  typeof middleware === 'function' ? declarations.get(middleware) : undefined;

const ajv = new Ajv({ allErrors: true, strict: false, verbose: true });
for (const [name, spec] of Object.entries(FORMATS))
  ajv.addFormat(name, { type: 'string', validate: (s: string) => spec.problem(s) === null });
ajv.addFormat('date-time', { type: 'string', validate: (s: string) => !Number.isNaN(Date.parse(s)) });

const escapePointer = (token: string) => token.replace(/~/g, '~0').replace(/\//g, '~1');

/** ajv's errors as `{path, message}`, one per failing value. */
export function problemsOf(
  errors: ErrorObject[] | null | undefined,
  formatProblem?: (format: string, value: unknown) => string | null,
): { path: string; message: string }[] {
  const out: { path: string; message: string }[] = [];
  const seen = new Set<string>();
  for (const e of errors ?? []) {
    let path = e.instancePath;
    let message: string;
    switch (e.keyword) {
      case 'required':
        path = `${path}/${escapePointer((e.params as { missingProperty: string }).missingProperty)}`;
        message = 'is required';
        break;
      case 'enum':
        {
          const allowed = (e.params as { allowedValues: unknown[] }).allowedValues.filter((v) => v !== null);
          message = `must be one of ${allowed.join(', ')}, got ${JSON.stringify(e.data)}`;
        }
        break;
      case 'minLength':
        message = 'must not be empty';
        break;
      case 'pattern':
        message =
          (e.params as { pattern: string }).pattern === '\\S'
            ? 'must not be blank'
            : `must match ${(e.params as { pattern: string }).pattern}`;
        break;
      case 'format':
        message =
          formatProblem?.((e.params as { format: string }).format, e.data) ??
          `must be a ${(e.params as { format: string }).format}`;
        break;
      case 'minimum':
        message = `must be at least ${(e.params as { limit: number }).limit}, got ${String(e.data)}`;
        break;
      case 'maximum':
        message = `must be at most ${(e.params as { limit: number }).limit}, got ${String(e.data)}`;
        break;
      case 'maxLength':
        message = `is longer than ${(e.params as { limit: number }).limit} characters`;
        break;
      case 'anyOf':
        continue; // its branches' errors say more
      default:
        message = e.message ?? 'is invalid';
    }
    const key = `${path}\n${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ path, message });
  }
  return out;
}

const compiled = new WeakMap<TSchema, ValidateFunction>();
function validator(schema: TSchema): ValidateFunction {
  let v = compiled.get(schema);
  if (!v) {
    v = ajv.compile(schema);
    compiled.set(schema, v);
  }
  return v;
}

type Part = 'query' | 'path';
const PART_NAME: Record<Part, string> = { query: 'Query parameter', path: 'Path parameter' };

/**
 * 400 for one query parameter whose value the schema accepts but the request cannot use (a combination
 * of parameters, a node id of the wrong kind): the same `errors` entry as a schema problem.
 */
export function badQueryParameter(name: string, message: string): HttpError {
  return badParameters('query', [{ name, message }]);
}

function badParameters(part: Part, problems: { name: string; message: string }[]): HttpError {
  const errors: ErrorDetail[] = problems.map((p) => ({
    path: `/${escapePointer(p.name)}`,
    message: p.message,
    in: part,
  }));
  const message = problems.map((p) => `${PART_NAME[part]} '${p.name}' ${p.message}`).join('; ');
  return new HttpError(400, 'bad_request', message, { errors });
}

/** The raw text of each declared parameter, read as its schema says; problems for what cannot be read. */
function readParameters(
  properties: TProperties,
  raw: ParsedUrlQuery | Record<string, string>,
): { values: Record<string, unknown>; problems: { name: string; message: string }[] } {
  const values: Record<string, unknown> = {};
  const problems: { name: string; message: string }[] = [];
  for (const [name, schema] of Object.entries(properties) as [string, TSchema & Record<string, unknown>][]) {
    let value = raw[name];
    if (schema.type === 'array') {
      const items = schema.items as { enum?: string[] };
      const parts = (Array.isArray(value) ? value : value === undefined ? [] : [value])
        .flatMap((v) => v.split(','))
        .map((v) => v.trim())
        .filter(Boolean);
      if (parts.length)
        values[name] = parts.map((p) => items.enum?.find((e) => e.toLowerCase() === p.toLowerCase()) ?? p);
      continue;
    }
    if (Array.isArray(value)) {
      if (value.length > 1) {
        problems.push({ name, message: 'was given more than once' });
        continue;
      }
      value = value[0];
    }
    if (value === undefined || value === '' || (schema.type === 'string' && value.trim() === '' && !schema.enum)) {
      if (schema.default !== undefined) values[name] = schema.default;
      continue;
    }
    if (schema.type === 'integer') {
      if (/^-?\d+$/.test(value)) values[name] = Number(value);
      else problems.push({ name, message: `must be an integer, got '${value}'` });
    } else if (schema.type === 'boolean') {
      if (/^(true|false)$/i.test(value)) values[name] = value.toLowerCase() === 'true';
      else problems.push({ name, message: `must be true or false, got '${value}'` });
    } else if (Array.isArray(schema.enum)) {
      values[name] = (schema.enum as string[]).find((e) => e.toLowerCase() === value.toLowerCase()) ?? value;
    } else {
      values[name] = value;
    }
  }
  return { values, problems };
}

/** Reads, validates and decodes one part (path or query) of a request against its declared properties. */
function parseParameters(
  part: Part,
  object: TObject,
  raw: ParsedUrlQuery | Record<string, string>,
): Record<string, unknown> {
  const { values, problems } = readParameters(object.properties, raw);
  const validate = validator(object);
  if (!validate(values)) {
    for (const p of problemsOf(validate.errors, (format, value) => FORMATS[format]?.problem(String(value)) ?? null)) {
      const name = p.path.split('/')[1].replace(/~1/g, '/').replace(/~0/g, '~');
      if (problems.some((q) => q.name === name)) continue;
      const schema = object.properties[name] as { examples?: string[]; enum?: string[]; type?: string } | undefined;
      let message = p.message;
      if (message === 'is required' && schema?.examples?.length) message += ` (e.g. ${schema.examples[0]})`;
      problems.push({ name, message });
    }
  }
  if (problems.length) throw badParameters(part, problems);
  for (const [name, schema] of Object.entries(object.properties)) {
    const decode = decoderOf(schema);
    if (decode && typeof values[name] === 'string') values[name] = decode(values[name] as string);
  }
  return values;
}

const hasBody = (ctx: Context) => Number(ctx.get('content-length') || 0) > 0 || ctx.get('transfer-encoding') !== '';

async function parseBody(
  ctx: Context,
  spec: BodySpec<TSchema>,
  runtime: RouteRuntime,
  held: (hold: BodyHold) => void,
): Promise<unknown> {
  const required = spec.required !== false;
  // No body at all: said as such, whatever Content-Type came with it (Koa's type check answers
  // nothing without a body, which read as a refused type).
  if (!hasBody(ctx)) {
    if (!required) return undefined;
    throw new HttpError(400, 'bad_request', `The request body is empty; expected ${spec.what}`);
  }
  // RFC 9110 8.4.1.3: a recipient treats x-gzip as gzip; the body parser knows only the latter.
  if (ctx.get('content-encoding').trim().toLowerCase() === 'x-gzip') ctx.req.headers['content-encoding'] = 'gzip';
  if (!ctx.is('application/json', '+json')) {
    throw new HttpError(
      415,
      'unsupported_media_type',
      `Content-Type must be application/json, got '${ctx.get('content-type') || 'none'}'`,
    );
  }
  // Reserved after the key, parameters and Content-Type are checked (401/403/400/415 first), before
  // a byte of the body is read.
  const hold = runtime.reserveBody?.(ctx);
  if (hold) held(hold);
  await readBody(ctx, () => runtime.parseBody(ctx, async () => undefined), hold?.inflating);
  hold?.read();
  const raw = (ctx.request as unknown as { rawBody?: string }).rawBody;
  if (raw === undefined || raw.trim() === '') {
    if (!required) return undefined;
    throw new HttpError(400, 'bad_request', `The request body is empty; expected ${spec.what}`);
  }
  // Not needed once parsed: dropped, it no longer doubles the body's memory while the handler (the
  // committer, for an event) holds the parsed body.
  delete (ctx.request as unknown as { rawBody?: string }).rawBody;
  const body = (ctx.request as unknown as { body?: unknown }).body;
  const type = (spec.schema as { type?: string }).type;
  if (type === 'array' && !Array.isArray(body))
    throw new HttpError(400, 'bad_request', `The request body must be a JSON array: ${spec.what}`);
  if (type === 'object' && (body === null || typeof body !== 'object' || Array.isArray(body))) {
    throw new HttpError(400, 'bad_request', `The request body must be a JSON object: ${spec.what}`);
  }
  let problems: { path: string; message: string }[] = [];
  if (spec.problems) problems = spec.problems(body);
  else {
    const validate = validator(spec.schema);
    if (!validate(body)) problems = problemsOf(validate.errors);
  }
  if (problems.length) {
    throw new HttpError(
      422,
      'validation_failed',
      `Invalid ${spec.what.replace(/^(an?|the) /, '')}: ` +
        `${problems.map((p) => `${p.path || '/'} ${p.message}`).join('; ')}`,
      {
        errors: problems.map((p) => ({ ...p, in: 'body' })),
      },
    );
  }
  return body;
}

/** Registers a declared route on `router`. */
export function route<
  P extends TProperties = {},
  Q extends TProperties = {},
  B extends TSchema = TSchema,
  O extends TSchema = TSchema,
>(router: Router, runtime: RouteRuntime, spec: RouteSpec<P, Q, B, O>): void {
  const paramsSchema = spec.params ? (Type.Object(spec.params) as unknown as TObject) : null;
  const querySchema = spec.query ? (Type.Object(spec.query) as unknown as TObject) : null;
  const middleware: Middleware = async (ctx) => {
    runtime.authorize(ctx, spec.scope);
    const params = paramsSchema ? parseParameters('path', paramsSchema, ctx.params as Record<string, string>) : {};
    const query = querySchema ? parseParameters('query', querySchema, ctx.query) : {};
    // The body's reservation is kept until the handler is done with it, whatever the outcome.
    let bodyHold: BodyHold | undefined;
    try {
      const body = spec.body
        ? await parseBody(ctx, spec.body as BodySpec<TSchema>, runtime, (hold) => (bodyHold = hold))
        : undefined;
      const answer = await spec.handler({ params, query, body } as Request<P, Q, B>, ctx);
      if (answer !== undefined) {
        ctx.status = spec.success.status;
        ctx.body = answer;
      }
    } finally {
      bodyHold?.done();
    }
  };
  declarations.set(middleware, spec as unknown as AnyRouteSpec);
  router.register(spec.path, [spec.method], middleware, { name: spec.operationId });
}

/** Route declarations of one router file: `declare(spec)` registers each on the file's router. */
export function routes(runtime: RouteRuntime, router: Router) {
  return <
    P extends TProperties = {},
    Q extends TProperties = {},
    B extends TSchema = TSchema,
    O extends TSchema = TSchema,
  >(
    spec: RouteSpec<P, Q, B, O>,
  ) => route(router, runtime, spec);
}
