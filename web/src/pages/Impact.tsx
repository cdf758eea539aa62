/**
 * The blast radius of a job or dataset (or a column): everything downstream, nearest first, with the
 * job hops, the node each was reached through and the service's summary; CSV download.
 * Data: GET /api/v1/impact (api/impact.ts).
 */
import { useState } from 'preact/hooks';
import { fetchImpact, fetchImpactCsv, VIEW_LIMIT, type ImpactRequest } from '../api/impact';
import { ErrorBox, Loading, StateBadge, useAsync } from '../components/common';
import { ago, formatTime } from '../format';
import { csvFileName, type ImpactRow } from '../impact';
import { navigate, paths, type Location } from '../router';

const DEFAULT_WINDOW = 'all';

function RowLink({ row }: { row: ImpactRow }) {
  if (row.kind === 'job') return <a href={paths.job(row.namespace, row.name)}>{row.label}</a>;
  if (row.kind === 'dataset') return <a href={paths.dataset(row.namespace, row.name)}>{row.label}</a>;
  return <a href={paths.columnLineage(row.id)}>{row.label}</a>;
}

export function ImpactPage({ loc }: { loc: Location }) {
  const node = loc.params.get('node') ?? '';
  const rawDepth = Number(loc.params.get('depth') ?? 20);
  const depth = Number.isInteger(rawDepth) && rawDepth >= 0 && rawDepth <= 20 ? rawDepth : 20;
  const win = loc.params.get('window') || DEFAULT_WINDOW;
  const request: ImpactRequest = { nodeId: node, direction: 'downstream', depth, window: win };
  // `limit` (1 to VIEW_LIMIT rows, default VIEW_LIMIT) is for deep links that want only the nearest.
  const rawLimit = Number(loc.params.get('limit') ?? VIEW_LIMIT);
  const limit = Number.isInteger(rawLimit) && rawLimit >= 1 && rawLimit <= VIEW_LIMIT ? rawLimit : VIEW_LIMIT;
  // A deep link's limit stays when the depth changes.
  const linkLimit = limit === VIEW_LIMIT ? undefined : limit;
  const impact = useAsync(
    (signal) => (node ? fetchImpact(request, limit, signal) : Promise.resolve(null)),
    [node, depth, win, limit],
  );
  const [csvError, setCsvError] = useState<unknown>(null);
  const [downloading, setDownloading] = useState(false);
  const data = impact.data;
  const startLabel = data
    ? data.answer.start.type === 'DATASET_FIELD'
      ? `${data.answer.start.dataset}.${data.answer.start.field}`
      : data.answer.start.name
    : node;

  const download = async () => {
    if (!data) return;
    setCsvError(null);
    setDownloading(true);
    try {
      const csv = await fetchImpactCsv(request, data.summary.total);
      const blob = new Blob([csv], { type: 'text/csv;charset=utf-8' });
      const a = document.createElement('a');
      a.href = URL.createObjectURL(blob);
      a.download = csvFileName(startLabel);
      a.click();
      setTimeout(() => URL.revokeObjectURL(a.href), 1000);
    } catch (err) {
      setCsvError(err);
    } finally {
      setDownloading(false);
    }
  };

  const s = data?.summary;
  if (!node) {
    return (
      <main class="page" data-testid="impact-page">
        <h1>Impact</h1>
        <p>Search for a job or dataset above, then open its impact.</p>
      </main>
    );
  }
  return (
    <main class="page" data-testid="impact-page">
      <h1>
        Impact of <span data-testid="impact-start">{startLabel}</span>
      </h1>
      <form class="controls" onSubmit={(e) => e.preventDefault()}>
        <label>
          Depth (job hops) <output>{depth}</output>
          <input
            type="range"
            min={0}
            max={20}
            value={depth}
            onChange={(e) =>
              navigate(
                paths.impact(node, {
                  depth: Number((e.target as HTMLInputElement).value),
                  window: win === DEFAULT_WINDOW ? undefined : win,
                  limit: linkLimit,
                }),
              )
            }
            aria-label="Depth in job hops"
          />
        </label>
        {data?.answer.start.type !== 'DATASET_FIELD' && (
          <a href={paths.lineage({ node, direction: 'downstream', depth, window: win })}>Show as a graph</a>
        )}
        <button type="button" onClick={download} disabled={!data || downloading} data-testid="csv">
          {downloading ? 'Preparing CSV…' : 'Download CSV'}
        </button>
      </form>
      {impact.error ? <ErrorBox error={impact.error} onRetry={impact.reload} /> : null}
      {csvError ? <ErrorBox error={csvError} /> : null}
      {impact.loading && !data && <Loading what="impact" />}
      {data && s && (
        <>
          <p class="summary" data-testid="impact-summary" aria-live="polite">
            {s.total} downstream:{' '}
            {s.columns
              ? `${s.columns} columns through ${s.jobs} jobs (${s.failingJobs} failing)`
              : `${s.jobs} jobs (${s.failingJobs} failing), ${s.datasets} datasets`}
            {s.byHops.length > 0 && (
              <span data-testid="impact-by-hops">
                {' '}
                · by job hops: {s.byHops.map(([h, n]) => `${h}: ${n}`).join(', ')}
              </span>
            )}
            {s.truncated && (
              <strong class="warn" data-testid="impact-truncated">
                {' '}
                · showing the nearest {s.shown} of {data.answer.total}; the CSV has all of them
              </strong>
            )}
          </p>
          {data.rows.length === 0 ? (
            <p class="muted" data-testid="impact-empty">
              Nothing downstream within {depth} job hops.
            </p>
          ) : (
            <table class="list" data-testid="impact">
              <thead>
                <tr>
                  <th scope="col">Hops</th>
                  <th scope="col">Type</th>
                  <th scope="col">Name</th>
                  <th scope="col">Namespace</th>
                  <th scope="col">Latest run</th>
                  <th scope="col">Reached from</th>
                  <th scope="col">Owners</th>
                </tr>
              </thead>
              <tbody>
                {data.rows.map((r) => (
                  <tr data-node-id={r.id} data-distance={r.distance}>
                    <td>{r.jobHops}</td>
                    <td>{r.kind === 'field' ? 'column' : r.kind}</td>
                    <td>
                      <RowLink row={r} />
                    </td>
                    <td>{r.namespace}</td>
                    <td title={formatTime(r.endedAt)}>
                      {r.kind === 'dataset' ? '' : <StateBadge state={r.state} />}
                      {r.endedAt ? ` ${ago(r.endedAt)}` : ''}
                    </td>
                    <td data-testid="via">
                      {r.viaJob ? `${r.viaLabel} via ${r.viaJob.replace(/^job:/, '')}` : r.viaLabel}
                    </td>
                    <td>{r.owners.join(', ')}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <p class="muted small">
            From the service's blast radius ({win === 'all' ? 'all history' : `edges seen within ${win}`}, {depth} job
            hops; the table shows at most the nearest {limit}).
          </p>
        </>
      )}
    </main>
  );
}
