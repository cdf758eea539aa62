/**
 * The blast radius of a job or dataset: everything downstream, nearest first, with CSV download.
 * Data: api/impact.ts (today the downstream walk of /api/v1/lineage).
 */
import { fetchImpact } from '../api/impact';
import { ErrorBox, Loading, StateBadge, useAsync } from '../components/common';
import { ago, formatTime } from '../format';
import { downstreamCsv } from '../graph/model';
import { navigate, paths, type Location } from '../router';

export function ImpactPage({ loc }: { loc: Location }) {
  const node = loc.params.get('node') ?? '';
  const rawDepth = Number(loc.params.get('depth') ?? 20);
  const depth = Number.isInteger(rawDepth) && rawDepth >= 1 && rawDepth <= 20 ? rawDepth : 20;
  const impact = useAsync((signal) => (node ? fetchImpact(node, depth, signal) : Promise.resolve(null)), [node, depth]);
  const download = () => {
    if (!impact.data) return;
    const blob = new Blob([downstreamCsv(impact.data.entries)], { type: 'text/csv;charset=utf-8' });
    const a = document.createElement('a');
    a.href = URL.createObjectURL(blob);
    a.download = `impact-${(impact.data.start?.name ?? 'node').replace(/[^\w.-]+/g, '_')}.csv`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  };
  const entries = impact.data?.entries ?? [];
  const jobs = entries.filter((e) => e.node.kind === 'job');
  const failing = jobs.filter((e) => e.node.state === 'FAILED').length;
  return (
    <main class="page" data-testid="impact-page">
      <h1>
        Impact of <span data-testid="impact-start">{impact.data?.start?.label ?? node}</span>
      </h1>
      <form class="controls" onSubmit={(e) => e.preventDefault()}>
        <label>
          Depth (job hops) <output>{depth}</output>
          <input type="range" min={1} max={20} value={depth} onChange={(e) => navigate(paths.impact(node, { depth: Number((e.target as HTMLInputElement).value) }))} aria-label="Depth in job hops" />
        </label>
        <a href={paths.lineage({ node, direction: 'downstream', depth: Math.min(depth, 20) })}>Show as a graph</a>
        <button type="button" onClick={download} disabled={!impact.data} data-testid="csv">
          Download CSV
        </button>
      </form>
      {impact.error ? <ErrorBox error={impact.error} /> : null}
      {impact.loading && !impact.data && <Loading what="downstream lineage" />}
      {impact.data && (
        <>
          <p class="summary" data-testid="impact-summary">
            {entries.length} downstream: {jobs.length} jobs ({failing} failing), {entries.length - jobs.length} datasets
            {impact.data.truncated && <strong class="warn"> · the service cut the answer at its node cap: the list may be incomplete</strong>}
          </p>
          <table class="list" data-testid="impact">
            <thead>
              <tr>
                <th scope="col">Hops</th>
                <th scope="col">Type</th>
                <th scope="col">Name</th>
                <th scope="col">Namespace</th>
                <th scope="col">Latest run</th>
                <th scope="col">Edge last seen</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((e) => (
                <tr data-node-id={e.node.id}>
                  <td>{e.jobHops}</td>
                  <td>{e.node.kind}</td>
                  <td>
                    <a href={e.node.kind === 'job' ? paths.job(e.node.namespace, e.node.name) : paths.dataset(e.node.namespace, e.node.name)}>{e.node.name}</a>
                  </td>
                  <td>{e.node.namespace}</td>
                  <td>{e.node.kind === 'job' ? <StateBadge state={e.node.state} /> : ''}</td>
                  <td title={formatTime(e.lastSeenAt)}>{ago(e.lastSeenAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <p class="muted small">Computed from the downstream lineage graph (all history, {depth} job hops).</p>
        </>
      )}
    </main>
  );
}
