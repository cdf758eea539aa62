/** The namespace browser: namespaces, then a namespace's jobs and datasets (paginated, sortable). */
import { api } from '../api/client';
import type { Dataset, Job } from '../api/types';
import { ErrorBox, Loading, Pager, StateBadge, Tabs, useAsync } from '../components/common';
import { formatDuration, formatTime } from '../format';
import { paths, type Location } from '../router';

const PAGE = 25;
/** The service's largest list offset (src/http/pagination.ts). */
const MAX_OFFSET = 100_000;

/** `page` of the URL for lists of `size` a page: a whole number from 1 whose offset the service accepts, else 1. */
export function readPage(value: string | null, size = PAGE): number {
  const page = Number(value ?? 1);
  return Number.isInteger(page) && page >= 1 && (page - 1) * size <= MAX_OFFSET ? page : 1;
}

/** Namespaces the home page lists (the API's largest page); more are counted, not listed. */
const NAMESPACES_SHOWN = 1000;

export function HomePage() {
  const list = useAsync((signal) => api.namespaces({ limit: NAMESPACES_SHOWN }, signal), []);
  return (
    <main class="page">
      <h1>Namespaces</h1>
      {list.error ? <ErrorBox error={list.error} onRetry={list.reload} /> : null}
      {list.loading && !list.data && <Loading what="namespaces" />}
      {list.data && (
        <table class="list" data-testid="namespaces">
          <thead>
            <tr>
              <th scope="col">Namespace</th>
              <th scope="col">Owner</th>
              <th scope="col">Description</th>
              <th scope="col">Updated</th>
            </tr>
          </thead>
          <tbody>
            {list.data.namespaces.map((ns) => (
              <tr data-namespace={ns.name}>
                <td>
                  <a href={paths.namespace(ns.name)}>{ns.name}</a>
                </td>
                <td>{ns.ownerName}</td>
                <td>{ns.description ?? ''}</td>
                <td>{formatTime(ns.updatedAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {list.data && list.data.totalCount > list.data.namespaces.length && (
        <p class="muted" data-testid="namespaces-cut">
          The first {list.data.namespaces.length.toLocaleString('en-US')} of{' '}
          {list.data.totalCount.toLocaleString('en-US')} namespaces, by name.
        </p>
      )}
    </main>
  );
}

type SortKey = 'name' | 'updatedAt';
type Order = 'asc' | 'desc';

/** `sort` of the URL (`name:asc`, `updatedAt:desc`, ...): the service sorts, so the order holds over all pages. */
function readSort(value: string | null): { sort: SortKey; order: Order } {
  const [key, dir] = (value ?? '').split(':');
  const sort: SortKey = key === 'updatedAt' ? 'updatedAt' : 'name';
  const order: Order = dir === 'asc' || dir === 'desc' ? dir : sort === 'updatedAt' ? 'desc' : 'asc';
  return { sort, order };
}

function SortHeader({
  label,
  id,
  sort,
  href,
}: {
  label: string;
  id: SortKey;
  sort: { sort: SortKey; order: Order };
  href: (sort: string) => string;
}) {
  const on = sort.sort === id;
  // A new column starts A to Z by name, newest first by time; the current one flips.
  const next = on ? (sort.order === 'asc' ? 'desc' : 'asc') : id === 'updatedAt' ? 'desc' : 'asc';
  return (
    <th scope="col" aria-sort={on ? (sort.order === 'desc' ? 'descending' : 'ascending') : 'none'}>
      <a href={href(`${id}:${next}`)} data-sort={id}>
        {label} {on ? (sort.order === 'desc' ? '▼' : '▲') : ''}
      </a>
    </th>
  );
}

type SortState = { sort: SortKey; order: Order };

function JobsTable({ jobs, sort, href }: { jobs: Job[]; sort: SortState; href: (sort: string) => string }) {
  return (
    <table class="list" data-testid="jobs">
      <thead>
        <tr>
          <SortHeader label="Job" id="name" sort={sort} href={href} />
          <th scope="col">Latest run</th>
          <th scope="col">Started</th>
          <th scope="col">Duration</th>
          <SortHeader label="Updated" id="updatedAt" sort={sort} href={href} />
        </tr>
      </thead>
      <tbody>
        {jobs.map((j) => (
          <tr data-job={j.name}>
            <td>
              <a href={paths.job(j.namespace, j.name)}>{j.name}</a>
            </td>
            <td>
              <StateBadge state={j.latestRun?.state} />
            </td>
            <td>{formatTime(j.latestRun?.startedAt)}</td>
            <td>{formatDuration(j.latestRun?.durationMs)}</td>
            <td>{formatTime(j.updatedAt)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function DatasetsTable({
  datasets,
  sort,
  href,
}: {
  datasets: Dataset[];
  sort: SortState;
  href: (sort: string) => string;
}) {
  return (
    <table class="list" data-testid="datasets">
      <thead>
        <tr>
          <SortHeader label="Dataset" id="name" sort={sort} href={href} />
          <th scope="col">Source</th>
          <th scope="col">Fields</th>
          <th scope="col">Tags</th>
          <SortHeader label="Updated" id="updatedAt" sort={sort} href={href} />
        </tr>
      </thead>
      <tbody>
        {datasets.map((d) => (
          <tr data-dataset={d.name}>
            <td>
              <a href={paths.dataset(d.namespace, d.name)}>{d.name}</a>
            </td>
            <td>{d.sourceName ?? '—'}</td>
            <td>{d.fields.length}</td>
            <td>{d.tags.join(', ')}</td>
            <td>{formatTime(d.updatedAt)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function NamespacePage({ ns, loc }: { ns: string; loc: Location }) {
  const tab = loc.params.get('tab') === 'datasets' ? 'datasets' : 'jobs';
  const page = readPage(loc.params.get('page'));
  const sortParam = loc.params.get('sort');
  const sort = readSort(sortParam);
  const offset = (page - 1) * PAGE;
  const list = useAsync<{ total: number; jobs?: Job[]; datasets?: Dataset[] }>(
    async (signal) => {
      const q = { limit: PAGE, offset, sort: sort.sort, order: sort.order };
      if (tab === 'jobs') {
        const r = await api.jobs(ns, q, signal);
        return { total: r.totalCount, jobs: r.jobs };
      }
      const r = await api.datasets(ns, q, signal);
      return { total: r.totalCount, datasets: r.datasets };
    },
    [ns, tab, offset, sort.sort, sort.order],
  );
  const lastPage = (total: number) => Math.max(1, Math.ceil(total / PAGE));
  // A new order starts again at the first page.
  const sortHref = (s: string) => paths.namespace(ns, { tab, page: 1, sort: s });
  return (
    <main class="page">
      <p class="crumbs">
        <a href={paths.home()}>Namespaces</a> /
      </p>
      <h1 data-testid="namespace-name">{ns}</h1>
      <Tabs
        tabs={[
          ['jobs', 'Jobs'],
          ['datasets', 'Datasets'],
        ]}
        current={tab}
        href={(t) => paths.namespace(ns, { tab: t })}
      />
      {list.error ? <ErrorBox error={list.error} onRetry={list.reload} /> : null}
      {list.loading && !list.data && <Loading />}
      {list.data && list.data.total === 0 && (
        <p class="muted" data-testid="empty">
          No {tab} in this namespace.
        </p>
      )}
      {list.data && list.data.total > 0 && offset >= list.data.total && (
        <p class="muted" data-testid="empty">
          There is no page {page} ({lastPage(list.data.total)} in all).{' '}
          <a href={paths.namespace(ns, { tab, page: lastPage(list.data.total), sort: sortParam ?? undefined })}>
            Last page
          </a>
        </p>
      )}
      {list.data && list.data.total > 0 && offset < list.data.total && (
        <>
          {list.data.jobs && <JobsTable jobs={list.data.jobs} sort={sort} href={sortHref} />}
          {list.data.datasets && <DatasetsTable datasets={list.data.datasets} sort={sort} href={sortHref} />}
          <Pager
            offset={offset}
            limit={PAGE}
            total={list.data.total}
            href={(p) => paths.namespace(ns, { tab, page: p, sort: sortParam ?? undefined })}
          />
        </>
      )}
    </main>
  );
}
