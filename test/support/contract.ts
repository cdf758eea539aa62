/**
 * Checks answers against the service's OpenAPI document (test/helper.ts runs it on every answer every
 * test receives): the operation must exist, declare the status and the content type, and the JSON body
 * must match the declared schema. Objects are checked closed: a field the service sends that the
 * document does not declare fails (the document itself leaves them open for clients).
 */
import { Ajv, type ValidateFunction } from 'ajv';
import type { OpenApiDocument } from '../../src/http/openapi.js';
import { FORMATS } from '../../src/http/params.js';

type Json = Record<string, unknown>;

const OPEN_COMPONENTS = new Set(['OpenLineageEvent', 'OpenLineageSchemaField']);
const ISO_MILLIS_Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A deep copy in which every object schema with `properties` and no rule for other keys is closed. */
function closed(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(closed);
  if (node === null || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node as Json))
    out[k] =
      k === 'properties' ? Object.fromEntries(Object.entries(v as Json).map(([p, s]) => [p, closed(s)])) : closed(v);
  if (out.properties && out.additionalProperties === undefined && out.patternProperties === undefined)
    out.additionalProperties = false;
  return out;
}

interface Operation {
  pattern: RegExp;
  /** Literal characters in the template: the more, the more specific. */
  specificity: number;
  methods: Record<string, Json>;
  template: string;
}

export class ContractChecker {
  private readonly ajv = new Ajv({ allErrors: true, strict: false });
  private readonly operations: Operation[] = [];
  private readonly validators = new Map<string, ValidateFunction>();
  private static readonly ID = 'https://lineage.local/test/openapi.json';

  constructor(doc: OpenApiDocument) {
    this.ajv.addFormat('date-time', { type: 'string', validate: (s: string) => ISO_MILLIS_Z.test(s) });
    this.ajv.addFormat('uuid', { type: 'string', validate: (s: string) => UUID.test(s) });
    for (const [name, spec] of Object.entries(FORMATS))
      if (name !== 'uuid')
        this.ajv.addFormat(name, { type: 'string', validate: (s: string) => spec.problem(s) === null });
    this.ajv.addFormat('openlineage-date-time', { type: 'string', validate: () => true });
    const components = Object.fromEntries(
      Object.entries(doc.components.schemas).map(([name, s]) => [name, OPEN_COMPONENTS.has(name) ? s : closed(s)]),
    );
    this.ajv.addSchema({ $id: ContractChecker.ID, components: { schemas: components }, paths: closed(doc.paths) });
    for (const [template, methods] of Object.entries(doc.paths)) {
      const source = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{\w+\}/g, '[^/]+');
      this.operations.push({
        pattern: new RegExp(`^${source}$`),
        specificity: template.replace(/\{\w+\}/g, '').length,
        methods: methods as Record<string, Json>,
        template,
      });
    }
  }

  private validator(pointer: string): ValidateFunction {
    let v = this.validators.get(pointer);
    if (!v) {
      v = this.ajv.getSchema(`${ContractChecker.ID}#${pointer}`);
      if (!v) throw new Error(`contract: no schema at ${pointer}`);
      this.validators.set(pointer, v);
    }
    return v;
  }

  /** Problems of one answer ([] when it matches the document). */
  check(method: string, url: string, status: number, contentType: string | null, text: string): string[] {
    const path = url.split('?')[0];
    const isService = path.startsWith('/api') || ['/healthz', '/readyz', '/metrics'].includes(path);
    if (!isService || status === 304) return [];
    const m = method.toUpperCase() === 'HEAD' ? 'get' : method.toLowerCase();
    const candidates = this.operations
      .filter((o) => o.pattern.test(path) && o.methods[m])
      .sort((a, b) => b.specificity - a.specificity);
    const where = `${method} ${path} → ${status}`;
    if (candidates.length === 0) {
      // Unknown paths and methods answer the generic error.
      if (status !== 404 && status !== 405) return [`${where}: no operation in the OpenAPI document`];
      return this.checkBody(where, '/components/schemas/Error', contentType, text);
    }
    const op = candidates[0];
    const escaped = op.template.replace(/~/g, '~0').replace(/\//g, '~1');
    const response = (op.methods[m].responses as Record<string, Json>)[String(status)];
    if (!response) return [`${where}: status ${status} is not documented for ${m.toUpperCase()} ${op.template}`];
    const content = response.content as Record<string, Json> | undefined;
    if (!content)
      return text === '' || method.toUpperCase() === 'HEAD'
        ? []
        : [`${where}: documented without a body, got ${JSON.stringify(text.slice(0, 80))}`];
    if (method.toUpperCase() === 'HEAD') return [];
    const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
    if (!content[type] && !(type && content['application/octet-stream']))
      return [`${where}: content type '${type}' is not documented (${Object.keys(content).join(', ')})`];
    if (type !== 'application/json') return [];
    return this.checkBody(
      where,
      `/paths/${escaped}/${m}/responses/${status}/content/application~1json/schema`,
      contentType,
      text,
    );
  }

  private checkBody(where: string, pointer: string, contentType: string | null, text: string): string[] {
    if (!/application\/json/.test(contentType ?? '')) return [`${where}: expected JSON, got '${contentType}'`];
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return [`${where}: the body is not JSON`];
    }
    const validate = this.validator(pointer);
    if (validate(body)) return [];
    return (validate.errors ?? [])
      .slice(0, 5)
      .map((e) => `${where}: ${e.instancePath || '/'} ${e.message} ${e.params ? JSON.stringify(e.params) : ''}`);
  }
}
