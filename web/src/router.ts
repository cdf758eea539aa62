/**
 * A small History API router: the URL is the whole state of a page (pasteable deep links). Paths
 * name what is shown, query parameters how (depth, direction, tab, page...). The service answers
 * every non-API path with index.html, so any of these URLs can be opened directly.
 */
import { useEffect, useState } from 'preact/hooks';
import type { Direction } from './api/client';

export interface Location {
  /** Decoded path segments: `/datasets/ns%2Fx/orders` → ['datasets', 'ns/x', 'orders']. */
  segments: string[];
  params: URLSearchParams;
  href: string;
}

function current(): Location {
  const { pathname, search } = window.location;
  const segments = pathname
    .split('/')
    .filter(Boolean)
    .map((s) => {
      try {
        return decodeURIComponent(s);
      } catch {
        return s;
      }
    });
  return { segments, params: new URLSearchParams(search), href: pathname + search };
}

const listeners = new Set<() => void>();
window.addEventListener('popstate', () => {
  for (const l of listeners) l();
});

export function navigate(href: string, opts: { replace?: boolean } = {}): void {
  if (href === window.location.pathname + window.location.search) return;
  if (opts.replace) window.history.replaceState(null, '', href);
  else window.history.pushState(null, '', href);
  if (!opts.replace) window.scrollTo(0, 0);
  for (const l of listeners) l();
}

export function useLocation(): Location {
  const [loc, setLoc] = useState(current);
  useEffect(() => {
    const update = () => setLoc(current());
    listeners.add(update);
    return () => void listeners.delete(update);
  }, []);
  return loc;
}

/** Same-origin links are followed without a page load (modified clicks open tabs as usual). */
export function interceptLinks(root: HTMLElement): void {
  root.addEventListener('click', (e) => {
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    const a = (e.target as Element).closest('a');
    if (
      !a ||
      a.target ||
      a.hasAttribute('download') ||
      a.origin !== window.location.origin ||
      a.pathname.startsWith('/api/')
    )
      return;
    e.preventDefault();
    navigate(a.pathname + a.search);
  });
}

const seg = encodeURIComponent;

function withQuery(path: string, params: Record<string, string | number | boolean | null | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params))
    if (v !== undefined && v !== null && v !== '' && v !== false) q.set(k, String(v));
  const s = q.toString();
  return s ? `${path}?${s}` : path;
}

export interface LineageState {
  node: string;
  depth?: number;
  direction?: Direction;
  asOf?: string | null;
  window?: string | null;
  selected?: string | null;
  /** Second selected node: the path between `selected` and `to` is highlighted. */
  to?: string | null;
}

export const paths = {
  home: () => '/',
  namespace: (ns: string, params: { tab?: string; page?: number; sort?: string } = {}) =>
    withQuery(`/namespaces/${seg(ns)}`, params),
  dataset: (ns: string, name: string, tab?: string) => withQuery(`/datasets/${seg(ns)}/${seg(name)}`, { tab }),
  job: (ns: string, name: string, tab?: string, page?: number) =>
    withQuery(`/jobs/${seg(ns)}/${seg(name)}`, { tab, page: page === 1 ? undefined : page }),
  run: (id: string) => `/runs/${seg(id)}`,
  lineage: (s: LineageState) =>
    withQuery('/lineage', {
      node: s.node,
      depth: s.depth,
      direction: s.direction === 'both' ? undefined : s.direction,
      asOf: s.asOf,
      window: s.window,
      selected: s.selected,
      to: s.to,
    }),
  columnLineage: (node: string, params: { depth?: number; downstream?: boolean } = {}) =>
    withQuery('/column-lineage', { node, ...params }),
  impact: (node: string, params: { depth?: number; window?: string; limit?: number } = {}) =>
    withQuery('/impact', { node, ...params }),
};

export const nodeIds = {
  dataset: (ns: string, name: string) => `dataset:${ns}:${name}`,
  job: (ns: string, name: string) => `job:${ns}:${name}`,
  field: (ns: string, dataset: string, field: string) => `datasetField:${ns}:${dataset}:${field}`,
};
