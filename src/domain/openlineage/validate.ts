/** Schema validation of an incoming event; the ajv validator is compiled once, at module load. */
import { Ajv, type ErrorObject } from 'ajv';
import { eventSchema } from './event-schema.js';
import type { EventKind, ValidationProblem } from './types.js';

const ajv = new Ajv({ allErrors: true, strict: false });
const validate = ajv.compile(eventSchema);

function describe(e: ErrorObject): ValidationProblem {
  if (e.keyword === 'required') {
    const missing = (e.params as { missingProperty: string }).missingProperty;
    return { path: `${e.instancePath}/${missing}`, message: 'is required' };
  }
  if (e.keyword === 'enum') {
    return { path: e.instancePath, message: `must be one of ${(e.params as { allowedValues: unknown[] }).allowedValues.join(', ')}` };
  }
  if (e.keyword === 'minLength') return { path: e.instancePath, message: 'must not be empty' };
  return { path: e.instancePath, message: e.message ?? 'is invalid' };
}

/** The kind rule of the spec: run+job → RunEvent; job without dataset → JobEvent; dataset → DatasetEvent. */
export function eventKind(body: Record<string, unknown>): EventKind | null {
  if (body.run !== undefined && body.job !== undefined) return 'run';
  if (body.job !== undefined && body.dataset === undefined) return 'job';
  if (body.dataset !== undefined) return 'dataset';
  return null;
}

export function validateShape(body: unknown): ValidationProblem[] {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    return [{ path: '', message: 'the event must be a JSON object' }];
  }
  const problems: ValidationProblem[] = [];
  if (!validate(body)) {
    const seen = new Set<string>();
    for (const e of validate.errors ?? []) {
      const p = describe(e);
      const k = `${p.path} ${p.message}`;
      if (!seen.has(k)) {
        seen.add(k);
        problems.push(p);
      }
    }
  }
  if (eventKind(body as Record<string, unknown>) === null) {
    problems.push({ path: '', message: 'the event must have run and job (RunEvent), job (JobEvent) or dataset (DatasetEvent)' });
  }
  return problems;
}
