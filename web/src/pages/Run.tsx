/** A run: state, times, the exact dataset versions it read and wrote, facets, parent run, upstream runs. */
import { api } from '../api/client';
import type { Run, VersionRef } from '../api/types';
import { ErrorBox, Facets, Loading, Section, StateBadge, useAsync } from '../components/common';
import { formatDuration, formatTime, shortId } from '../format';
import { paths } from '../router';
import { runError, upstreamRuns } from '../run';

function VersionList({ versions, testid }: { versions: VersionRef[]; testid: string }) {
  if (versions.length === 0) return <p class="muted">none</p>;
  return (
    <ul class="plain" data-testid={testid}>
      {versions.map((v) => (
        <li data-dataset={v.name} data-version={v.version}>
          <a href={paths.dataset(v.namespace, v.name)}>{v.name}</a>{' '}
          <a
            href={`${paths.dataset(v.namespace, v.name, 'versions')}&version=${encodeURIComponent(v.version)}`}
            title={v.version}
          >
            <code>{shortId(v.version)}</code>
          </a>
        </li>
      ))}
    </ul>
  );
}

export function RunPage({ id }: { id: string }) {
  const data = useAsync(
    async (signal) => {
      const [run, lineage, jobFacets] = await Promise.all([
        api.run(id, signal),
        api.runLineageUpstream(id, 20, signal),
        api.runFacets(id, 'job', signal),
      ]);
      return { run, lineage, jobFacets };
    },
    [id],
  );
  if (data.error)
    return (
      <main class="page">
        <ErrorBox error={data.error} onRetry={data.reload} />
      </main>
    );
  if (!data.data)
    return (
      <main class="page">
        <Loading what="run" />
      </main>
    );
  const { run, lineage, jobFacets } = data.data;
  const self = lineage.runs[0];
  const job = self?.job;
  const parent = (run.facets as { parent?: { run?: { runId?: string }; job?: { namespace?: string; name?: string } } })
    .parent;
  const upstream = upstreamRuns(lineage);
  const failure = runError(run.facets);
  return (
    <main class="page" data-testid="run-page">
      <p class="crumbs">
        {job?.namespace && job.name ? (
          <>
            <a href={paths.namespace(job.namespace)}>{job.namespace}</a> /{' '}
            <a href={paths.job(job.namespace, job.name, 'runs')}>{job.name}</a> /
          </>
        ) : null}
      </p>
      <h1>
        Run <code data-testid="title">{run.id}</code> <StateBadge state={run.state} />
      </h1>
      {failure && (
        <div class="run-error" data-testid="run-error">
          <p>
            <strong>Error{failure.programmingLanguage ? ` (${failure.programmingLanguage})` : ''}:</strong>{' '}
            <span data-testid="run-error-message">{failure.message}</span>
          </p>
          {failure.stackTrace && (
            <details>
              <summary>Stack trace</summary>
              <pre class="json">{failure.stackTrace}</pre>
            </details>
          )}
        </div>
      )}
      <dl class="facts">
        <dt>Job</dt>
        <dd>{job?.namespace && job.name ? <a href={paths.job(job.namespace, job.name)}>{job.name}</a> : '—'}</dd>
        <dt>Job version</dt>
        <dd>
          <code>{shortId(run.jobVersion?.version)}</code>
        </dd>
        <dt>Started</dt>
        <dd>{formatTime(run.startedAt)}</dd>
        <dt>Ended</dt>
        <dd>{formatTime(run.endedAt)}</dd>
        <dt>Duration</dt>
        <dd>{formatDuration(run.durationMs)}</dd>
        <dt>Nominal time</dt>
        <dd>
          {formatTime(run.nominalStartTime)} → {formatTime(run.nominalEndTime)}
        </dd>
        <dt>Parent run</dt>
        <dd data-testid="parent-run">
          {parent?.run?.runId ? (
            <>
              <a href={paths.run(parent.run.runId)}>
                <code>{shortId(parent.run.runId)}</code>
              </a>
              {parent.job?.name && parent.job.namespace ? (
                <>
                  {' '}
                  of <a href={paths.job(parent.job.namespace, parent.job.name)}>{parent.job.name}</a>
                </>
              ) : null}
            </>
          ) : (
            'none'
          )}
        </dd>
      </dl>
      <div class="two-col">
        <Section title="Read (exact versions)" id="inputs">
          <VersionList versions={run.inputVersions} testid="input-versions" />
        </Section>
        <Section title="Wrote (exact versions)" id="outputs">
          <VersionList versions={run.outputVersions} testid="output-versions" />
        </Section>
      </div>
      <Section title="Upstream runs (who wrote the versions this run read, and so on upstream)" id="upstream">
        {upstream.length === 0 ? (
          <p class="muted">No run wrote the versions this run read.</p>
        ) : (
          <table class="list" data-testid="upstream-runs">
            <caption>
              Hops: 1 wrote a version this run read; 2 wrote a version that a hop-1 run read; and so on.
            </caption>
            <thead>
              <tr>
                <th scope="col">Hops</th>
                <th scope="col">Run</th>
                <th scope="col">Job</th>
                <th scope="col">Wrote (read by)</th>
                <th scope="col">State</th>
                <th scope="col">Started</th>
                <th scope="col">Ended</th>
              </tr>
            </thead>
            <tbody>
              {upstream.map((u) => (
                <tr data-run={u.entry.run.id} data-hops={u.hops ?? undefined}>
                  <td>{u.hops ?? '—'}</td>
                  <td>
                    <a href={paths.run(u.entry.run.id)}>
                      <code>{shortId(u.entry.run.id)}</code>
                    </a>
                  </td>
                  <td>
                    {u.entry.job.namespace && u.entry.job.name ? (
                      <a href={paths.job(u.entry.job.namespace, u.entry.job.name)}>{u.entry.job.name}</a>
                    ) : (
                      '—'
                    )}
                  </td>
                  <td data-testid="wrote">
                    {u.wrote.map((w, k) => (
                      <>
                        {k > 0 && '; '}
                        <a href={paths.dataset(w.namespace, w.name)}>{w.name}</a> (
                        {w.readBy === self?.run.id ? (
                          'this run'
                        ) : (
                          <a href={paths.run(w.readBy)}>
                            run <code>{shortId(w.readBy)}</code>
                          </a>
                        )}
                        )
                      </>
                    ))}
                  </td>
                  <td>
                    <StateBadge state={u.entry.run.status} />
                  </td>
                  <td>{formatTime(u.entry.run.start)}</td>
                  <td>{formatTime(u.entry.run.end)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Section>
      <Section title="Run facets" id="run-facets">
        <Facets facets={run.facets} />
      </Section>
      <Section title="Job facets (as this run reported them)" id="job-facets">
        <Facets facets={jobFacets.facets} />
      </Section>
      {Object.keys(run.args ?? {}).length > 0 && (
        <Section title="Arguments" id="args">
          <pre class="json">{JSON.stringify(run.args, null, 2)}</pre>
        </Section>
      )}
    </main>
  );
}

export type { Run };
