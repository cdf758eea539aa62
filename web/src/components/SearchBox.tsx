/**
 * The search box on every page: typeahead over GET /api/v1/search (jobs and datasets), an ARIA
 * combobox (arrows move, Enter opens, Escape closes).
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { api } from '../api/client';
import type { SearchResult } from '../api/types';
import { navigate, paths } from '../router';
import { KindBadge } from './common';

// Preact's typings tie role="combobox" on an <input> to a `list` attribute; the ARIA 1.2 combobox
// pattern (an input owning a listbox through aria-controls) needs none.
const COMBOBOX = { role: 'combobox' } as Record<string, string>;

function hrefOf(r: SearchResult): string {
  return r.type === 'JOB' ? paths.job(r.namespace, r.name) : paths.dataset(r.namespace, r.name);
}

export function SearchBox() {
  const [q, setQ] = useState('');
  const [results, setResults] = useState<SearchResult[]>([]);
  const [total, setTotal] = useState(0);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [error, setError] = useState<string | null>(null);
  const box = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const term = q.trim();
    if (!term) {
      setResults([]);
      setTotal(0);
      return;
    }
    const ctrl = new AbortController();
    const timer = setTimeout(() => {
      // Exact and prefix matches first: with many names containing the term, they would fall past the first 12.
      api.search(term, { limit: 12, sort: 'relevance' }, ctrl.signal).then(
        (r) => {
          setResults(r.results);
          setTotal(r.totalCount);
          setActive(r.results.length ? 0 : -1);
          setError(null);
          setOpen(true);
        },
        (e) => {
          if ((e as Error).name !== 'AbortError') setError((e as Error).message);
        },
      );
    }, 150);
    return () => {
      clearTimeout(timer);
      ctrl.abort();
    };
  }, [q]);

  useEffect(() => {
    const close = (e: MouseEvent) => {
      if (box.current && !box.current.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', close);
    return () => document.removeEventListener('mousedown', close);
  }, []);

  const go = (r: SearchResult) => {
    setOpen(false);
    setQ('');
    navigate(hrefOf(r));
  };

  const onKey = (e: KeyboardEvent) => {
    if (e.key === 'ArrowDown') {
      e.preventDefault();
      setOpen(true);
      setActive((a) => Math.min(results.length - 1, a + 1));
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      setActive((a) => Math.max(0, a - 1));
    } else if (e.key === 'Enter' && open && results[active]) {
      e.preventDefault();
      go(results[active]);
    } else if (e.key === 'Escape') {
      setOpen(false);
    }
  };

  const showList = open && q.trim() !== '';
  return (
    <div class="search" ref={box}>
      <input
        type="search"
        placeholder="Search jobs and datasets"
        aria-label="Search jobs and datasets"
        {...COMBOBOX}
        aria-expanded={showList}
        aria-controls="search-results"
        aria-autocomplete="list"
        aria-activedescendant={showList && active >= 0 ? `search-opt-${active}` : undefined}
        value={q}
        onInput={(e) => setQ((e.target as HTMLInputElement).value)}
        onKeyDown={onKey}
        onFocus={() => setOpen(true)}
        data-testid="search-input"
      />
      {showList && (
        <ul id="search-results" role="listbox" class="search-results" data-testid="search-results">
          {error && <li class="error">{error}</li>}
          {!error && results.length === 0 && <li class="muted">No job or dataset matches “{q.trim()}”.</li>}
          {results.map((r, i) => (
            <li
              id={`search-opt-${i}`}
              role="option"
              aria-selected={i === active}
              class={i === active ? 'active' : ''}
              onMouseDown={(e) => {
                e.preventDefault();
                go(r);
              }}
              onMouseEnter={() => setActive(i)}
              data-node-id={r.nodeId}
            >
              <KindBadge kind={r.type} />
              <span class="name">{r.name}</span>
              <span class="ns">{r.namespace}</span>
            </li>
          ))}
          {total > results.length && <li class="muted more">{total - results.length} more: refine the search</li>}
        </ul>
      )}
    </div>
  );
}
