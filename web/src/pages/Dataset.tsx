/**
 * A dataset: schema, current version and version history (who wrote each version, schema changes
 * between versions), facets, producers and consumers, tags.
 */
import { useState } from 'preact/hooks';
import { ApiError, api } from '../api/client';
import type { Dataset, DatasetField, DatasetVersion, LineageJobData } from '../api/types';
import { ErrorBox, Facets, KindBadge, Loading, Section, StateBadge, Tabs, useAsync } from '../components/common';
import { formatTime, openedViaAlias, qualitySummary, shortId, symlinkAliases } from '../format';
import { nodeIds, paths, type Location } from '../router';

export interface SchemaChange {
  kind: 'added' | 'removed' | 'type';
  field: string;
  detail: string;
}

/** Differences between two versions' schemas (top-level fields). */
export function schemaChanges(older: DatasetField[], newer: DatasetField[]): SchemaChange[] {
  const before = new Map(older.map((f) => [f.name, f]));
  const after = new Map(newer.map((f) => [f.name, f]));
  const out: SchemaChange[] = [];
  for (const f of newer) {
    const o = before.get(f.name);
    if (!o) out.push({ kind: 'added', field: f.name, detail: f.type ?? '' });
    else if ((o.type ?? '') !== (f.type ?? ''))
      out.push({ kind: 'type', field: f.name, detail: `${o.type ?? '?'} → ${f.type ?? '?'}` });
  }
  for (const f of older) if (!after.has(f.name)) out.push({ kind: 'removed', field: f.name, detail: f.type ?? '' });
  return out;
}

function Schema({ ds, onChange }: { ds: Dataset; onChange: (d: Dataset) => void }) {
  if (ds.fields.length === 0) return <p class="muted">No schema reported.</p>;
  const rows: [DatasetField, number][] = [];
  const walk = (fields: DatasetField[], depth: number) => {
    for (const f of fields) {
      rows.push([f, depth]);
      if (f.fields) walk(f.fields, depth + 1);
    }
  };
  walk(ds.fields, 0);
  return (
    <table class="list" data-testid="schema">
      <thead>
        <tr>
          <th scope="col">Field</th>
          <th scope="col">Type</th>
          <th scope="col">Description</th>
          <th scope="col">Tags</th>
          <th scope="col">Column lineage</th>
        </tr>
      </thead>
      <tbody>
        {rows.map(([f, depth]) => (
          <tr data-field={f.name}>
            <td style={{ paddingLeft: `${0.5 + depth * 1.2}rem` }}>
              <code>{f.name}</code>
            </td>
            <td>{f.type ?? '—'}</td>
            <td>{f.description ?? ''}</td>
            <td>
              {depth === 0 ? (
                <TagEditor
                  tags={f.tags}
                  label={`Tags of ${f.name}`}
                  add={(t) => api.tagField(ds.namespace, ds.name, f.name, t)}
                  remove={(t) => api.untagField(ds.namespace, ds.name, f.name, t)}
                  onChange={onChange}
                  compact
                />
              ) : (
                f.tags.join(', ')
              )}
            </td>
            <td>
              {depth === 0 && <a href={paths.columnLineage(nodeIds.field(ds.namespace, ds.name, f.name))}>lineage</a>}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function TagEditor<T>({
  tags,
  add,
  remove,
  onChange,
  label,
  compact,
}: {
  tags: string[];
  add: (t: string) => Promise<T>;
  remove: (t: string) => Promise<T>;
  onChange: (t: T) => void;
  label: string;
  compact?: boolean;
}) {
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const run = (p: Promise<T>) =>
    p.then(
      (r) => {
        setError(null);
        setValue('');
        onChange(r);
      },
      (e) =>
        setError(
          e instanceof ApiError && (e.status === 401 || e.status === 403)
            ? 'Tags are read-only here (writes are not allowed)'
            : (e as Error).message,
        ),
    );
  return (
    <div class={`tags ${compact ? 'compact' : ''}`} aria-label={label}>
      {tags.map((t) => (
        <span class="tag" data-tag={t}>
          {t}
          <button type="button" aria-label={`Remove tag ${t}`} onClick={() => run(remove(t))}>
            ×
          </button>
        </span>
      ))}
      <form
        class="tag-add"
        onSubmit={(e) => {
          e.preventDefault();
          if (value.trim()) run(add(value.trim()));
        }}
      >
        <input
          value={value}
          onInput={(e) => setValue((e.target as HTMLInputElement).value)}
          placeholder="add tag"
          aria-label={`Add a tag (${label})`}
          size={compact ? 8 : 12}
        />
      </form>
      {error && <span class="error small">{error}</span>}
    </div>
  );
}

function Versions({ ds, highlight }: { ds: Dataset; highlight: string | null }) {
  const list = useAsync(
    (signal) => api.datasetVersions(ds.namespace, ds.name, { limit: 100 }, signal),
    [ds.namespace, ds.name],
  );
  if (list.error) return <ErrorBox error={list.error} onRetry={list.reload} />;
  if (!list.data) return <Loading what="versions" />;
  const versions: DatasetVersion[] = list.data.versions;
  return (
    <>
      <p class="muted">
        {list.data.totalCount} version{list.data.totalCount === 1 ? '' : 's'}, newest first
        {list.data.totalCount > versions.length ? ` (the newest ${versions.length} shown)` : ''}.
      </p>
      <table class="list" data-testid="versions">
        <thead>
          <tr>
            <th scope="col">Version</th>
            <th scope="col">Created</th>
            <th scope="col">Written by</th>
            <th scope="col">Run state</th>
            <th scope="col">Schema changes</th>
          </tr>
        </thead>
        <tbody>
          {versions.map((v, i) => {
            const older = versions[i + 1];
            const changes = older ? schemaChanges(older.fields, v.fields) : null;
            const run = v.createdByRun;
            return (
              <tr data-version={v.version} class={v.version === highlight ? 'highlight' : ''}>
                <td>
                  <code title={v.version}>{shortId(v.version)}</code>
                  {v.version === ds.currentVersion && <span class="badge current">current</span>}
                </td>
                <td>{formatTime(v.createdAt)}</td>
                <td>
                  {run ? (
                    <>
                      <a href={paths.run(run.id)}>run {shortId(run.id)}</a>
                      {run.jobVersion && (
                        <>
                          {' '}
                          of{' '}
                          <a href={paths.job(run.jobVersion.namespace, run.jobVersion.name)}>{run.jobVersion.name}</a>
                        </>
                      )}
                    </>
                  ) : (
                    <span class="muted">no run (first read or declared)</span>
                  )}
                </td>
                <td>{run ? <StateBadge state={run.state} /> : '—'}</td>
                <td data-testid="schema-changes">
                  {changes === null ? (
                    <span class="muted">{v.fields.length} fields (oldest shown)</span>
                  ) : changes.length === 0 ? (
                    <span class="muted">none</span>
                  ) : (
                    <ul class="changes">
                      {changes.map((c) => (
                        <li class={`change-${c.kind}`}>
                          {c.kind === 'added' ? '+' : c.kind === 'removed' ? '−' : '~'} <code>{c.field}</code>{' '}
                          {c.detail}
                        </li>
                      ))}
                    </ul>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </>
  );
}

/** The jobs that write and read the dataset (its lineage at depth 0, all history). */
function ProducersConsumers({ ds }: { ds: Dataset }) {
  const id = nodeIds.dataset(ds.namespace, ds.name);
  const lineage = useAsync((signal) => api.lineage({ nodeId: id, depth: 0, window: 'all' }, signal), [id]);
  if (lineage.error) return <ErrorBox error={lineage.error} onRetry={lineage.reload} />;
  if (!lineage.data) return <Loading />;
  const self = lineage.data.graph.find(
    (n) =>
      n.type === 'DATASET' &&
      (n.data as { name?: string }).name === ds.name &&
      (n.data as { namespace?: string }).namespace === ds.namespace,
  );
  const jobs = new Map(
    lineage.data.graph.filter((n) => n.type === 'JOB').map((n) => [n.id, n.data as unknown as LineageJobData]),
  );
  const producers = (self?.inEdges ?? []).map((e) => jobs.get(e.origin)).filter((j): j is LineageJobData => Boolean(j));
  const consumers = (self?.outEdges ?? [])
    .map((e) => jobs.get(e.destination))
    .filter((j): j is LineageJobData => Boolean(j));
  const list = (jobs: LineageJobData[], testid: string) =>
    jobs.length === 0 ? (
      <p class="muted">none</p>
    ) : (
      <ul class="plain" data-testid={testid}>
        {jobs.map((j) => (
          <li data-job={j.name}>
            <a href={paths.job(j.namespace, j.name)}>{j.name}</a> <StateBadge state={j.latestRun?.state} />
          </li>
        ))}
      </ul>
    );
  return (
    <div class="two-col">
      <div>
        <h3>Written by</h3>
        {list(producers, 'producers')}
      </div>
      <div>
        <h3>Read by</h3>
        {list(consumers, 'consumers')}
      </div>
    </div>
  );
}

export function DatasetPage({ ns, name, loc }: { ns: string; name: string; loc: Location }) {
  const tab = loc.params.get('tab') ?? 'schema';
  const ds = useAsync((signal) => api.dataset(ns, name, signal), [ns, name]);
  const [updated, setUpdated] = useState<Dataset | null>(null);
  // Opened through a symlink alias, the API answers with the primary: a tag edit answers the primary too.
  const d =
    updated && ds.data && updated.name === ds.data.name && updated.namespace === ds.data.namespace ? updated : ds.data;
  if (ds.error)
    return (
      <main class="page">
        <ErrorBox error={ds.error} onRetry={ds.reload} />
      </main>
    );
  if (!d)
    return (
      <main class="page">
        <Loading what="dataset" />
      </main>
    );
  const id = nodeIds.dataset(d.namespace, d.name);
  const via = openedViaAlias({ namespace: ns, name }, d);
  const aliases = symlinkAliases(d.facets, d);
  if (via && !aliases.some((a) => a.namespace === via.namespace && a.name === via.name)) aliases.unshift(via);
  return (
    <main class="page" data-testid="dataset-page">
      <p class="crumbs">
        <a href={paths.home()}>Namespaces</a> /{' '}
        <a href={paths.namespace(d.namespace, { tab: 'datasets' })}>{d.namespace}</a> /
      </p>
      <h1>
        <KindBadge kind="dataset" /> <span data-testid="title">{d.name}</span>
      </h1>
      {via && (
        <p class="note" data-testid="opened-via-alias">
          Opened via the alias <span class="muted">{via.namespace}</span> <strong>{via.name}</strong>: this is the
          dataset it names,{' '}
          <a href={paths.dataset(d.namespace, d.name)} data-testid="canonical">
            <span class="muted">{d.namespace}</span> {d.name}
          </a>
          .
        </p>
      )}
      {d.description && <p>{d.description}</p>}
      <dl class="facts">
        {aliases.length > 0 && (
          <>
            <dt>Also known as</dt>
            <dd>
              <ul class="plain" data-testid="aliases">
                {aliases.map((a) => (
                  <li data-namespace={a.namespace} data-name={a.name}>
                    <span class="muted">{a.namespace}</span> {a.name}
                    {a.type ? <span class="muted"> ({a.type})</span> : null}
                  </li>
                ))}
              </ul>
            </dd>
          </>
        )}
        <dt>Source</dt>
        <dd>{d.sourceName ?? '—'}</dd>
        <dt>Current version</dt>
        <dd data-testid="current-version">
          <code title={d.currentVersion ?? ''}>{shortId(d.currentVersion)}</code>
        </dd>
        <dt>Last modified</dt>
        <dd>{formatTime(d.lastModifiedAt)}</dd>
        <dt>Lifecycle</dt>
        <dd>{d.lastLifecycleState ?? '—'}</dd>
        <dt>Quality</dt>
        <dd data-testid="quality">{qualitySummary(d.facets) ?? '—'}</dd>
        <dt>Tags</dt>
        <dd>
          <TagEditor
            tags={d.tags}
            label="Dataset tags"
            add={(t) => api.tagDataset(d.namespace, d.name, t)}
            remove={(t) => api.untagDataset(d.namespace, d.name, t)}
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
        <a class="button" href={paths.columnLineage(id)}>
          Column lineage
        </a>
      </div>
      <Section title="Producers and consumers" id="io">
        <ProducersConsumers ds={d} />
      </Section>
      <Tabs
        tabs={[
          ['schema', `Schema (${d.fields.length})`],
          ['versions', 'Versions'],
          ['facets', 'Facets'],
        ]}
        current={tab}
        href={(t) => paths.dataset(d.namespace, d.name, t)}
      />
      {tab === 'schema' && <Schema ds={d} onChange={setUpdated} />}
      {tab === 'versions' && <Versions ds={d} highlight={loc.params.get('version')} />}
      {tab === 'facets' && <Facets facets={d.facets} />}
    </main>
  );
}
