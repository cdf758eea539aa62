/** Small shared pieces: state badges, loading/error states, tabs, JSON facets, pagination. */
import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { ApiError } from '../api/client';

export function StateBadge({ state }: { state: string | null | undefined }) {
  const s = state ?? 'NONE';
  return (
    <span class={`badge state-${s.toLowerCase()}`} data-state={s}>
      {state ? s : 'no runs'}
    </span>
  );
}

export function KindBadge({ kind }: { kind: string }) {
  return (
    <span class={`kind kind-${kind.toLowerCase()}`}>
      {kind.toLowerCase() === 'datasetfield' ? 'column' : kind.toLowerCase()}
    </span>
  );
}

/** An error as the page shows it; `onRetry` adds a button asking again (the client already retried a 503). */
export function ErrorBox({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const e = error as Error;
  const status = error instanceof ApiError && error.status ? ` (${error.status})` : '';
  return (
    <div class="error" role="alert" data-testid="error">
      {e?.message ?? String(error)}
      {status}
      {onRetry ? (
        <button type="button" class="retry" onClick={onRetry} data-testid="retry">
          Try again
        </button>
      ) : null}
    </div>
  );
}

export function Loading({ what }: { what?: string }) {
  return (
    <div class="loading" role="status" aria-live="polite">
      Loading{what ? ` ${what}` : ''}…
    </div>
  );
}

export interface Async<T> {
  data: T | null;
  error: unknown;
  loading: boolean;
  reload: () => void;
}

/** Runs `load` whenever `deps` change; aborts the previous request. */
export function useAsync<T>(load: (signal: AbortSignal) => Promise<T>, deps: unknown[]): Async<T> {
  const [state, setState] = useState<{ data: T | null; error: unknown; loading: boolean }>({
    data: null,
    error: null,
    loading: true,
  });
  const [tick, setTick] = useState(0);
  useEffect(() => {
    const ctrl = new AbortController();
    setState((s) => ({ data: s.data, error: null, loading: true }));
    load(ctrl.signal).then(
      (data) => !ctrl.signal.aborted && setState({ data, error: null, loading: false }),
      (error) => !ctrl.signal.aborted && setState({ data: null, error, loading: false }),
    );
    return () => ctrl.abort();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [...deps, tick]);
  return { ...state, reload: () => setTick((t) => t + 1) };
}

export function Tabs({
  tabs,
  current,
  href,
}: {
  tabs: [string, string][];
  current: string;
  href: (tab: string) => string;
}) {
  return (
    <nav class="tabs" aria-label="Sections">
      {tabs.map(([id, label]) => (
        <a
          href={href(id)}
          aria-current={id === current ? 'page' : undefined}
          class={id === current ? 'active' : ''}
          data-tab={id}
        >
          {label}
        </a>
      ))}
    </nav>
  );
}

/** Facets as readable JSON, one collapsible block each (the first few open). */
export function Facets({
  facets,
  empty = 'No facets.',
}: {
  facets: Record<string, unknown> | null | undefined;
  empty?: string;
}) {
  const entries = Object.entries(facets ?? {});
  if (entries.length === 0) return <p class="muted">{empty}</p>;
  return (
    <div class="facets">
      {entries.map(([name, value], i) => (
        <details open={i < 3} data-facet={name}>
          <summary>{name}</summary>
          <pre class="json">{JSON.stringify(value, null, 2)}</pre>
        </details>
      ))}
    </div>
  );
}

export function Pager({
  offset,
  limit,
  total,
  href,
}: {
  offset: number;
  limit: number;
  total: number;
  href: (page: number) => string;
}) {
  const page = Math.floor(offset / limit) + 1;
  const pages = Math.max(1, Math.ceil(total / limit));
  return (
    <nav class="pager" aria-label="Pages">
      {page > 1 ? <a href={href(page - 1)}>← Previous</a> : <span class="muted">← Previous</span>}
      <span data-testid="page-info">
        Page {page} of {pages} · {total} in all
      </span>
      {page < pages ? <a href={href(page + 1)}>Next →</a> : <span class="muted">Next →</span>}
    </nav>
  );
}

export function Section({ title, children, id }: { title: string; children: ComponentChildren; id?: string }) {
  return (
    <section class="card" aria-labelledby={id ? `${id}-h` : undefined} data-section={id}>
      <h2 id={id ? `${id}-h` : undefined}>{title}</h2>
      {children}
    </section>
  );
}
