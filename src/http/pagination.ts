/** Query-string parsing shared by list endpoints: strict, with 400s that name the parameter. */
import type { ParsedUrlQuery } from 'node:querystring';
import { badRequest } from './errors.js';

export const MAX_LIMIT = 1000;
/**
 * Deepest page a list serves. Neo4j must read and sort `offset + limit` rows to answer a page, so an
 * unbounded offset lets one request hold a transaction's memory for seconds; past it, a 400 says to
 * narrow the filter instead (an offset past the end of a shorter list is an empty page).
 */
export const MAX_OFFSET = 100_000;

export interface PageParams {
  limit: number;
  offset: number;
}

function single(query: ParsedUrlQuery, name: string): string | undefined {
  const v = query[name];
  if (Array.isArray(v)) {
    if (v.length > 1) throw badRequest(`Query parameter '${name}' was given more than once`);
    return v[0];
  }
  return v;
}

export function intParam(query: ParsedUrlQuery, name: string, fallback: number, min: number, max: number): number {
  const raw = single(query, name);
  if (raw === undefined || raw === '') return fallback;
  if (!/^-?\d+$/.test(raw)) throw badRequest(`Query parameter '${name}' must be an integer, got '${raw}'`);
  const n = Number(raw);
  if (n < min) throw badRequest(`Query parameter '${name}' must be at least ${min}, got ${n}`);
  if (n > max) throw badRequest(`Query parameter '${name}' must be at most ${max}, got ${n}`);
  return n;
}

export function pageParams(query: ParsedUrlQuery, defaultLimit = 100): PageParams {
  return {
    limit: intParam(query, 'limit', defaultLimit, 1, MAX_LIMIT),
    offset: intParam(query, 'offset', 0, 0, MAX_OFFSET),
  };
}

export function stringParam(query: ParsedUrlQuery, name: string): string | undefined {
  return single(query, name);
}

export function enumParam<T extends string>(query: ParsedUrlQuery, name: string, allowed: readonly T[], fallback: T): T {
  const raw = single(query, name);
  if (raw === undefined || raw === '') return fallback;
  const match = allowed.find((a) => a.toLowerCase() === raw.toLowerCase());
  if (!match) throw badRequest(`Query parameter '${name}' must be one of ${allowed.join(', ')}, got '${raw}'`);
  return match;
}
