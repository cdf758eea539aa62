/** A job: latest run, run history (with a duration chart), versions, facets, parent and child jobs. */
import { useState } from 'preact/hooks';
import { api } from '../api/client';
import type { Job, Run } from '../api/types';
import { ErrorBox, Facets, KindBadge, Loading, Pager, StateBadge, Tabs, useAsync } from '../components/common';
import { counted, durationScale, formatDuration, formatTime, shortId } from '../format';
import { nodeIds, paths, type Location } from '../router';
import { readPage } from './Browse';
import { TagEditor } from './Dataset';

/** Durations of the runs, oldest left, as bars coloured by state (an SVG, readable without colour via titles). */
export function RunChart({ runs }: { runs: Run[] }) {
  const shown = [...runs].reverse();
  if (shown.length === 0) return null;
  const { longest, open } = durationScale(shown.map((r) => r.durationMs));
  if (longest === null)
    return (
      <p class="muted" data-testid="run-chart-empty">
        No finished runs to chart: {counted(open, 'run')} without a duration (still running or never ended).
      </p>
    );
  // A scale of at least 1 ms, so runs that all took 0 ms still draw.
  const max = Math.max(1, longest);
  const w = 640;
  const top = 18; // room for the scale's label above the bars
  const h = 110;
  const bar = Math.max(3, Math.min(24, (w - 40) / shown.length - 2));
  return (
    <figure class="run-chart">
      <svg
        viewBox={`0 0 ${w} ${top + h + 20}`}
        role="img"
        aria-label={`Durations of the last ${shown.length} runs`}
        data-testid="run-chart"
      >
        <line x1="30" y1={top + h} x2={w} y2={top + h} class="axis" />
        <line x1="30" y1={top} x2="30" y2={top + h} class="axis" />
        <text x="34" y="12" class="tick">
          longest: {formatDuration(longest)}
          {open > 0 ? ` · ${open} without a duration` : ''}
        </text>
        {shown.map((r, i) => {
          const bh = r.durationMs ? Math.max(2, (r.durationMs / max) * h) : 2;
          return (
            <rect
              x={34 + i * (bar + 2)}
              y={top + h - bh}
              width={bar}
              height={bh}
              class={`bar state-${r.state.toLowerCase()}`}
              data-run={r.id}
            >
              <title>
                {r.state} · {formatTime(r.startedAt)} · {formatDuration(r.durationMs)}
              </title>
            </rect>
          );
        })}
        <text x="34" y={top + h + 16} class="tick">
          oldest
        </text>
        <text x={w - 40} y={top + h + 16} class="tick">
          latest
        </text>
      </svg>
    </figure>
  );
}

const RUNS_PAGE = 100;
const VERSIONS_PAGE = 50;

/** Pages of a job's list, or where a page past the last is, with a link to the last. */
function ListPages({ job, tab, page, size, total, shown }: ListPagesProps) {
  const last = Math.max(1, Math.ceil(total / size));
  if (shown === 0 && page > 1)
    return (
      <p class="muted" data-testid="no-such-page">
        There is no page {page} ({last} in all). <a href={paths.job(job.namespace, job.name, tab, last)}>Last page</a>
      </p>
    );
  if (total <= size) return null;
  return (
    <Pager
      offset={(page - 1) * size}
      limit={size}
      total={total}
      href={(p) => paths.job(job.namespace, job.name, tab, p)}
    />
  );
}

interface ListPagesProps {
  job: Job;
  tab: string;
  page: number;
  size: number;
  total: number;
  shown: number;
}

function Runs({ job, page }: { job: Job; page: number }) {
  // Each answer keeps the page it was asked for: while the next page loads, the pager names the rows shown.
  const runs = useAsync(
    (signal) =>
      api
        .jobRuns(job.namespace, job.name, { limit: RUNS_PAGE, offset: (page - 1) * RUNS_PAGE }, signal)
        .then((answer) => ({ ...answer, page })),
    [job.namespace, job.name, page],
  );
  if (runs.error) return <ErrorBox error={runs.error} onRetry={runs.reload} />;
  if (!runs.data) return <Loading what="runs" />;
  const pages = (
    <ListPages
      job={job}
      tab="runs"
      page={runs.data.page}
      size={RUNS_PAGE}
      total={runs.data.totalCount}
      shown={runs.data.runs.length}
    />
  );
  if (runs.data.runs.length === 0 && runs.data.page > 1) return pages;
  return (
    <>
      <RunChart runs={runs.data.runs} />
      <p class="muted">
        {runs.data.totalCount} run{runs.data.totalCount === 1 ? '' : 's'}, latest first
      </p>
      {pages}
      <table class="list" data-testid="runs">
        <thead>
          <tr>
            <th scope="col">Run</th>
            <th scope="col">State</th>
            <th scope="col">Started</th>
            <th scope="col">Ended</th>
            <th scope="col">Duration</th>
          </tr>
        </thead>
        <tbody>
          {runs.data.runs.map((r) => (
            <tr data-run={r.id} data-state={r.state}>
              <td>
                <a href={paths.run(r.id)}>
                  <code>{shortId(r.id)}</code>
                </a>
              </td>
              <td>
                <StateBadge state={r.state} />
              </td>
              <td>{formatTime(r.startedAt)}</td>
              <td>{formatTime(r.endedAt)}</td>
              <td>{formatDuration(r.durationMs)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {pages}
    </>
  );
}

function Versions({ job, page }: { job: Job; page: number }) {
  const versions = useAsync(
    (signal) =>
      api
        .jobVersions(job.namespace, job.name, { limit: VERSIONS_PAGE, offset: (page - 1) * VERSIONS_PAGE }, signal)
        .then((answer) => ({ ...answer, page })),
    [job.namespace, job.name, page],
  );
  if (versions.error) return <ErrorBox error={versions.error} onRetry={versions.reload} />;
  if (!versions.data) return <Loading what="versions" />;
  const total = versions.data.totalCount;
  if (total === 0) return <p class="muted">No version yet (a version is made when a run ends).</p>;
  const shown = versions.data.versions.length;
  const shownPage = versions.data.page;
  const pages = (
    <ListPages job={job} tab="versions" page={shownPage} size={VERSIONS_PAGE} total={total} shown={shown} />
  );
  if (shown === 0 && shownPage > 1) return pages;
  return (
    <div data-testid="job-versions">
      <p class="muted">
        {total} version{total === 1 ? '' : 's'}, newest first
      </p>
      {pages}
      {versions.data.versions.map((v) => {
        const sql = (v.context as { sql?: string }).sql;
        return (
          <article class="card version" data-version={v.version}>
            <h3>
              <code title={v.version}>{shortId(v.version)}</code>{' '}
              {v.version === job.currentVersion && <span class="badge current">current</span>}{' '}
              <span class="muted small">{formatTime(v.createdAt)}</span>
            </h3>
            <div class="two-col">
              <div>
                <h4>Inputs</h4>
                <ul class="plain">
                  {v.inputs.length === 0 && <li class="muted">none</li>}
                  {v.inputs.map((d) => (
                    <li>
                      <a href={paths.dataset(d.namespace, d.name)}>{d.name}</a>
                    </li>
                  ))}
                </ul>
              </div>
              <div>
                <h4>Outputs</h4>
                <ul class="plain">
                  {v.outputs.length === 0 && <li class="muted">none</li>}
                  {v.outputs.map((d) => (
                    <li>
                      <a href={paths.dataset(d.namespace, d.name)}>{d.name}</a>
                    </li>
                  ))}
                </ul>
              </div>
            </div>
            {v.location && (
              <p>
                Source:{' '}
                <a href={v.location} rel="noreferrer noopener" target="_blank">
                  {v.location}
                </a>
              </p>
            )}
            {sql && <pre class="sql">{sql}</pre>}
          </article>
        );
      })}
      {pages}
    </div>
  );
}

/** Children listed on the page; more are counted, not listed. */
const CHILDREN_SHOWN = 100;

function Family({ job }: { job: Job }) {
  // The parent may live in another namespace (an Airflow DAG above a dbt or Spark job).
  const parentNs = job.parentJobNamespace ?? job.namespace;
  const children = useAsync(
    (signal) => api.jobChildren(job.namespace, job.name, { limit: CHILDREN_SHOWN }, signal),
    [job.namespace, job.name],
  );
  const kids = children.data?.jobs ?? [];
  return (
    <div class="two-col" data-testid="family">
      <div>
        <h3>Parent</h3>
        {job.parentJobName ? (
          <a href={paths.job(parentNs, job.parentJobName)}>{job.parentJobName}</a>
        ) : (
          <p class="muted">none</p>
        )}
      </div>
      <div>
        <h3>Children</h3>
        {children.error ? <ErrorBox error={children.error} onRetry={children.reload} /> : null}
        {!children.data && !children.error && <Loading />}
        {children.data &&
          (kids.length === 0 ? (
            <p class="muted">none</p>
          ) : (
            <ul class="plain" data-testid="children">
              {kids.map((k) => (
                <li data-job={`${k.namespace}/${k.name}`}>
                  <a href={paths.job(k.namespace, k.name)}>{k.name}</a>
                  {k.namespace !== job.namespace && <span class="muted small"> ({k.namespace})</span>}{' '}
                  <StateBadge state={k.latestRun?.state} />
                </li>
              ))}
            </ul>
          ))}
        {children.data && children.data.totalCount > kids.length && (
          <p class="muted small">
            The first {kids.length} of {children.data.totalCount} children, by namespace and name.
          </p>
        )}
      </div>
    </div>
  );
}

export function JobPage({ ns, name, loc }: { ns: string; name: string; loc: Location }) {
  const tab = loc.params.get('tab') ?? 'runs';
  const page = readPage(loc.params.get('page'), tab === 'versions' ? VERSIONS_PAGE : RUNS_PAGE);
  const job = useAsync((signal) => api.job(ns, name, signal), [ns, name]);
  const [updated, setUpdated] = useState<Job | null>(null);
  const j = updated && updated.name === name && updated.namespace === ns ? updated : job.data;
  if (job.error)
    return (
      <main class="page">
        <ErrorBox error={job.error} onRetry={job.reload} />
      </main>
    );
  if (!j)
    return (
      <main class="page">
        <Loading what="job" />
      </main>
    );
  const id = nodeIds.job(j.namespace, j.name);
  const run = j.latestRun;
  return (
    <main class="page" data-testid="job-page">
      <p class="crumbs">
        <a href={paths.home()}>Namespaces</a> / <a href={paths.namespace(j.namespace)}>{j.namespace}</a> /
      </p>
      <h1>
        <KindBadge kind="job" /> <span data-testid="title">{j.name}</span> <StateBadge state={run?.state} />
      </h1>
      {j.description && <p>{j.description}</p>}
      <dl class="facts">
        <dt>Type</dt>
        <dd>{j.type}</dd>
        <dt>Latest run</dt>
        <dd data-testid="latest-run">
          {run ? (
            <>
              <a href={paths.run(run.id)}>
                <code>{shortId(run.id)}</code>
              </a>{' '}
              {formatTime(run.startedAt)} → {formatTime(run.endedAt)} ({formatDuration(run.durationMs)})
            </>
          ) : (
            'none'
          )}
        </dd>
        <dt>Current version</dt>
        <dd>
          <code title={j.currentVersion ?? ''}>{shortId(j.currentVersion)}</code>
        </dd>
        <dt>Source</dt>
        <dd>
          {j.location ? (
            <a href={j.location} target="_blank" rel="noreferrer noopener">
              {j.location}
            </a>
          ) : (
            '—'
          )}
        </dd>
        <dt>Tags</dt>
        <dd>
          <TagEditor
            tags={j.tags}
            label="Job tags"
            add={(t) => api.tagJob(j.namespace, j.name, t)}
            remove={(t) => api.untagJob(j.namespace, j.name, t)}
            onChange={setUpdated}
          />
        </dd>
      </dl>
      <div class="actions">
        <a class="button" href={paths.lineage({ node: id })} data-testid="open-lineage">
          Lineage graph
        </a>
        <a class="button" href={paths.impact(id)}>
          Impact (downstream)
        </a>
      </div>
      <Tabs
        tabs={[
          ['runs', 'Runs'],
          ['versions', 'Versions'],
          ['facets', 'Facets'],
          ['family', 'Parent and children'],
        ]}
        current={tab}
        href={(t) => paths.job(j.namespace, j.name, t)}
      />
      {tab === 'runs' && <Runs job={j} page={page} />}
      {tab === 'versions' && <Versions job={j} page={page} />}
      {tab === 'facets' && <Facets facets={j.facets} />}
      {tab === 'family' && <Family job={j} />}
    </main>
  );
}
