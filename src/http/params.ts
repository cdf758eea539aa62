/** Path and query values with a format: parsed strictly, 400 naming the value otherwise. */
import { validate as isUuid } from 'uuid';
import { badRequest } from './errors.js';
import { serviceRunId } from '../domain/openlineage/normalize.js';

export function uuidParam(name: string, value: string): string {
  if (!isUuid(value)) throw badRequest(`'${value}' is not a valid ${name}: expected a UUID`);
  return value.toLowerCase();
}

/** Run ids: UUIDs as such; other ids are looked up the way ingestion stored them (name-based UUID). */
export function runIdParam(value: string): string {
  if (value.trim() === '') throw badRequest('The run id is empty');
  return serviceRunId(value);
}
