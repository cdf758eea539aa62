/** The page parameters every list endpoint declares (limit and offset), and their bounds. */
import { Param } from './params.js';

export const MAX_LIMIT = 1000;

export interface PageParams {
  limit: number;
  offset: number;
}

/** `limit` (default `defaultLimit`, 1..MAX_LIMIT) and `offset` (default 0) as query parameters of a route. */
export function pageQuery(defaultLimit = 100) {
  return {
    limit: Param.integer({ minimum: 1, maximum: MAX_LIMIT, default: defaultLimit, description: `Most items answered (default ${defaultLimit}, at most ${MAX_LIMIT})` }),
    offset: Param.integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, default: 0, description: 'Items skipped (default 0)' }),
  };
}
