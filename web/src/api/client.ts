/**
 * Every request the UI makes goes through here: one place to add the API key (when the service runs
 * with AUTH_MODE=apikey), to turn error bodies `{code, error, message}` into ApiError, and to cancel
 * superseded requests. Only the public API under /api/v1 is used.
 *
 * The key: on a 401 (no key, or a wrong one) or a 403 (a key without the scope an action needs), the
 * page asks for a key, keeps it for the browser session (sessionStorage: gone when the tab closes)
 * and sends the request again. Requests refused at the same time share one question.
 */
import type {
  BlastRadius,
  ColumnLineageGraph,
  Dataset,
  DatasetList,
  DatasetVersionList,
  Job,
  JobList,
  JobVersionList,
  LineageGraph,
  NamespaceList,
  Run,
  RunFacets,
  RunLineage,
  RunList,
  SearchResults,
} from './types';
import { retryDelayMs } from './retry';

const BASE = '/api/v1';

const KEY_ITEM = 'lineage.apiKey';

function storedKey(): string | null {
  try {
    return sessionStorage.getItem(KEY_ITEM);
  } catch {
    return null;
  }
}

/** Keeps `key` for this browser session (null forgets it). */
export function setApiKey(key: string | null): void {
  try {
    if (key) sessionStorage.setItem(KEY_ITEM, key);
    else sessionStorage.removeItem(KEY_ITEM);
  } catch {
    /* storage disabled: the key lives as long as the page */
  }
  memoryKey = key;
}

let memoryKey: string | null = null;

/** Headers sent with every request: the session's API key, if one was given. */
export function authHeaders(): Record<string, string> {
  const key = storedKey() ?? memoryKey;
  return key ? { authorization: `Bearer ${key}` } : {};
}

let asking: Promise<string | null> | null = null;

/** Asks the person for an API key (one question for all requests refused at once); null: cancelled. */
function askForKey(reason: string): Promise<string | null> {
  asking ??= new Promise<string | null>((resolve) => {
    // Let the refused requests of this moment join the same question.
    setTimeout(() => {
      const answer = window.prompt(`${reason}\n\nEnter an API key (it is kept for this browser session):`);
      const key = answer?.trim() || null;
      if (key) setApiKey(key);
      asking = null;
      resolve(key);
    }, 0);
  });
  return asking;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly kind: string,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

type QueryValue = string | number | boolean | null | undefined;

export function query(params: Record<string, QueryValue>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : '';
}

const seg = encodeURIComponent;

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new DOMException('Aborted', 'AbortError'));
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(new DOMException('Aborted', 'AbortError'));
      },
      { once: true },
    );
  });
}

/**
 * `accept`: JSON (parsed) by default; any other type answers the body's text (CSV downloads). A GET answered
 * 503 is asked again after the Retry-After the service sent (retryDelayMs).
 */
async function request<T>(
  method: string,
  path: string,
  signal?: AbortSignal,
  retried = false,
  accept = 'application/json',
): Promise<T> {
  let res: Response;
  for (let attempt = 0; ; attempt++) {
    try {
      res = await fetch(BASE + path, { method, headers: { accept, ...authHeaders() }, signal });
    } catch (err) {
      if ((err as Error).name === 'AbortError') throw err;
      throw new ApiError(0, 'network', `The service did not answer (${(err as Error).message})`);
    }
    const wait = method === 'GET' ? retryDelayMs(res.status, res.headers.get('retry-after'), attempt) : null;
    if (wait === null) break;
    await res.body?.cancel();
    await sleep(wait, signal);
  }
  const text = await res.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    /* not JSON */
  }
  if ((res.status === 401 || res.status === 403) && !retried && !signal?.aborted) {
    const b = (body ?? {}) as { message?: string };
    const key = await askForKey(
      b.message ?? (res.status === 401 ? 'This service needs an API key.' : 'Your API key may not do this.'),
    );
    if (key) return request<T>(method, path, signal, true, accept);
  }
  if (!res.ok) {
    const b = (body ?? {}) as { error?: string; message?: string };
    throw new ApiError(res.status, b.error ?? 'error', b.message ?? `${res.status} ${res.statusText}`);
  }
  return (accept === 'application/json' ? body : text) as T;
}

const get = <T>(path: string, signal?: AbortSignal) => request<T>('GET', path, signal);

export interface PageQuery {
  limit?: number;
  offset?: number;
}

/** The job and dataset lists' order (the service sorts, over all pages). */
export interface SortQuery {
  sort?: 'name' | 'updatedAt';
  order?: 'asc' | 'desc';
}

export type Direction = 'both' | 'upstream' | 'downstream';

export interface LineageQuery {
  nodeId: string;
  depth?: number;
  direction?: Direction;
  /** ISO 8601 time: the graph as of then. */
  asOf?: string;
  /** ISO 8601 duration (P30D) or `all`. */
  window?: string;
  /** `minimal`: each node's key and a job's latest run only, edges once (what the graph draws). */
  fields?: 'full' | 'minimal';
}

/** GET /impact (docs/impact.md): job or dataset ids here (columns answer the same shape with DATASET_FIELD nodes). */
export interface ImpactQuery {
  nodeId: string;
  direction?: 'downstream' | 'upstream';
  depth?: number;
  asOf?: string;
  window?: string;
  /** Most nodes answered (the nearest); the summary still counts every node reached. */
  limit?: number;
  state?: string;
}

export const api = {
  namespaces: (p: PageQuery = {}, signal?: AbortSignal) => get<NamespaceList>(`/namespaces${query({ ...p })}`, signal),
  datasets: (ns: string, p: PageQuery & SortQuery = {}, signal?: AbortSignal) =>
    get<DatasetList>(`/namespaces/${seg(ns)}/datasets${query({ ...p })}`, signal),
  dataset: (ns: string, name: string, signal?: AbortSignal) =>
    get<Dataset>(`/namespaces/${seg(ns)}/datasets/${seg(name)}`, signal),
  datasetVersions: (ns: string, name: string, p: PageQuery = {}, signal?: AbortSignal) =>
    get<DatasetVersionList>(`/namespaces/${seg(ns)}/datasets/${seg(name)}/versions${query({ ...p })}`, signal),
  tagDataset: (ns: string, name: string, tag: string) =>
    request<Dataset>('POST', `/namespaces/${seg(ns)}/datasets/${seg(name)}/tags/${seg(tag)}`),
  untagDataset: (ns: string, name: string, tag: string) =>
    request<Dataset>('DELETE', `/namespaces/${seg(ns)}/datasets/${seg(name)}/tags/${seg(tag)}`),
  tagField: (ns: string, name: string, field: string, tag: string) =>
    request<Dataset>('POST', `/namespaces/${seg(ns)}/datasets/${seg(name)}/fields/${seg(field)}/tags/${seg(tag)}`),
  untagField: (ns: string, name: string, field: string, tag: string) =>
    request<Dataset>('DELETE', `/namespaces/${seg(ns)}/datasets/${seg(name)}/fields/${seg(field)}/tags/${seg(tag)}`),
  jobs: (ns: string, p: PageQuery & SortQuery = {}, signal?: AbortSignal) =>
    get<JobList>(`/namespaces/${seg(ns)}/jobs${query({ ...p })}`, signal),
  job: (ns: string, name: string, signal?: AbortSignal) => get<Job>(`/namespaces/${seg(ns)}/jobs/${seg(name)}`, signal),
  /** The jobs whose runs name this one as parent (any namespace), by namespace and name. */
  jobChildren: (ns: string, name: string, p: PageQuery = {}, signal?: AbortSignal) =>
    get<JobList>(`/namespaces/${seg(ns)}/jobs/${seg(name)}/children${query({ ...p })}`, signal),
  jobVersions: (ns: string, name: string, p: PageQuery = {}, signal?: AbortSignal) =>
    get<JobVersionList>(`/namespaces/${seg(ns)}/jobs/${seg(name)}/versions${query({ ...p })}`, signal),
  jobRuns: (ns: string, name: string, p: PageQuery = {}, signal?: AbortSignal) =>
    get<RunList>(`/namespaces/${seg(ns)}/jobs/${seg(name)}/runs${query({ ...p })}`, signal),
  tagJob: (ns: string, name: string, tag: string) =>
    request<Job>('POST', `/namespaces/${seg(ns)}/jobs/${seg(name)}/tags/${seg(tag)}`),
  untagJob: (ns: string, name: string, tag: string) =>
    request<Job>('DELETE', `/namespaces/${seg(ns)}/jobs/${seg(name)}/tags/${seg(tag)}`),
  run: (id: string, signal?: AbortSignal) => get<Run>(`/jobs/runs/${seg(id)}`, signal),
  runFacets: (id: string, type: 'run' | 'job', signal?: AbortSignal) =>
    get<RunFacets>(`/jobs/runs/${seg(id)}/facets${query({ type })}`, signal),
  runLineageUpstream: (runId: string, depth: number, signal?: AbortSignal) =>
    get<RunLineage>(`/runlineage/upstream${query({ runId, depth })}`, signal),
  search: (
    q: string,
    opts: { limit?: number; filter?: 'dataset' | 'job'; namespace?: string; sort?: 'name' | 'relevance' } = {},
    signal?: AbortSignal,
  ) => get<SearchResults>(`/search${query({ q, ...opts })}`, signal),
  lineage: (q: LineageQuery, signal?: AbortSignal) => get<LineageGraph>(`/lineage${query({ ...q })}`, signal),
  impact: (q: ImpactQuery, signal?: AbortSignal) => get<BlastRadius>(`/impact${query({ ...q })}`, signal),
  /** The same answer as CSV (RFC 4180, the service's columns), as text. */
  impactCsv: (q: ImpactQuery, signal?: AbortSignal) =>
    request<string>('GET', `/impact${query({ ...q, format: 'csv' })}`, signal, false, 'text/csv'),
  columnLineage: (q: { nodeId: string; depth?: number; withDownstream?: boolean }, signal?: AbortSignal) =>
    get<ColumnLineageGraph>(`/column-lineage${query({ ...q })}`, signal),
};
