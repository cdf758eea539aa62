/** The namespace browser: namespaces, then a namespace's jobs and datasets (paginated, sortable). */
import { api } from '../api/client';
import type { Dataset, Job } from '../api/types';
import { ErrorBox, Loading, Pager, StateBadge, Tabs, useAsync } from '../components/common';
import { formatDuration, formatTime } from '../format';
import { paths, type Location } from '../router';

const PAGE = 25;

export function HomePage() {
  const list = useAsync((signal) => api.namespaces({ limit: 1000 }, signal), []);
  return (
    <main class="page">
      <h1>Namespaces</h1>
      {list.error ? <ErrorBox error={list.error} /> : null}
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
    </main>
  );
}

type SortKey = 'name' | 'updated' | 'state';

function sortBy<T>(items: T[], key: (t: T) => string, desc: boolean): T[] {
  const sorted = [...items].sort((a, b) => key(a).localeCompare(key(b)));
  return desc ? sorted.reverse() : sorted;
}

function SortHeader({
  label,
  id,
  sort,
  href,
}: {
  label: string;
  id: SortKey;
  sort: string;
  href: (sort: string) => string;
}) {
  const [key, dir] = sort.split(':');
  const on = key === id;
  const next = on && dir !== 'desc' ? `${id}:desc` : `${id}:asc`;
  return (
    <th scope="col" aria-sort={on ? (dir === 'desc' ? 'descending' : 'ascending') : 'none'}>
      <a href={href(next)} data-sort={id}>
        {label} {on ? (dir === 'desc' ? '▼' : '▲') : ''}
      </a>
    </th>
  );
}

function JobsTable({ jobs, sort, href }: { jobs: Job[]; sort: string; href: (sort: string) => string }) {
  const [key, dir] = sort.split(':');
  const keyOf = (j: Job) => (key === 'updated' ? j.updatedAt : key === 'state' ? (j.latestRun?.state ?? '') : j.name);
  const rows = sortBy(jobs, keyOf, dir === 'desc');
  return (
    <table class="list" data-testid="jobs">
      <thead>
        <tr>
          <SortHeader label="Job" id="name" sort={sort} href={href} />
          <SortHeader label="Latest run" id="state" sort={sort} href={href} />
          <th scope="col">Started</th>
          <th scope="col">Duration</th>
          <SortHeader label="Updated" id="updated" sort={sort} href={href} />
        </tr>
      </thead>
      <tbody>
        {rows.map((j) => (
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
  sort: string;
  href: (sort: string) => string;
}) {
  const [key, dir] = sort.split(':');
  const keyOf = (d: Dataset) => (key === 'updated' ? d.updatedAt : d.name);
  const rows = sortBy(datasets, keyOf, dir === 'desc');
  return (
    <table class="list" data-testid="datasets">
      <thead>
        <tr>
          <SortHeader label="Dataset" id="name" sort={sort} href={href} />
          <th scope="col">Source</th>
          <th scope="col">Fields</th>
          <th scope="col">Tags</th>
          <SortHeader label="Updated" id="updated" sort={sort} href={href} />
        </tr>
      </thead>
      <tbody>
        {rows.map((d) => (
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
  const page = Math.max(1, Number(loc.params.get('page') ?? 1) || 1);
  const sort = loc.params.get('sort') ?? 'name:asc';
  const offset = (page - 1) * PAGE;
  const list = useAsync<{ total: number; jobs?: Job[]; datasets?: Dataset[] }>(
    async (signal) => {
      if (tab === 'jobs') {
        const r = await api.jobs(ns, { limit: PAGE, offset }, signal);
        return { total: r.totalCount, jobs: r.jobs };
      }
      const r = await api.datasets(ns, { limit: PAGE, offset }, signal);
      return { total: r.totalCount, datasets: r.datasets };
    },
    [ns, tab, offset],
  );
  const sortHref = (s: string) => paths.namespace(ns, { tab, page, sort: s });
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
      {list.error ? <ErrorBox error={list.error} /> : null}
      {list.loading && !list.data && <Loading />}
      {list.data && (
        <>
          {list.data.jobs && <JobsTable jobs={list.data.jobs} sort={sort} href={sortHref} />}
          {list.data.datasets && <DatasetsTable datasets={list.data.datasets} sort={sort} href={sortHref} />}
          <p class="muted small">Sorting orders the rows of this page.</p>
          <Pager
            offset={offset}
            limit={PAGE}
            total={list.data.total}
            href={(p) => paths.namespace(ns, { tab, page: p, sort })}
          />
        </>
      )}
    </main>
  );
}
