/**
 * The lineage graph of a job or dataset: depth (0-20), direction, time travel (`asOf`, `window`),
 * selection, the path between two nodes, and links to every node's page. All of it is in the URL.
 */
import { useMemo, useState } from 'preact/hooks';
import { api, type Direction } from '../api/client';
import { ErrorBox, Loading, StateBadge, useAsync } from '../components/common';
import { ago, formatTime } from '../format';
import { GraphCanvas } from '../graph/GraphCanvas';
import { describeNode, shortestPath, toModel, type GraphModel, type ViewNode } from '../graph/model';
import { navigate, paths, type LineageState, type Location } from '../router';

const DIRECTIONS: [Direction, string][] = [
  ['both', 'Both'],
  ['upstream', 'Upstream'],
  ['downstream', 'Downstream'],
];

// The service's default is LINEAGE_WINDOW (30 days unless set otherwise), which the page does not know.
const WINDOWS: [string, string][] = [
  ['', 'Service default'],
  ['P1D', '1 day'],
  ['P7D', '7 days'],
  ['P30D', '30 days'],
  ['P90D', '90 days'],
  ['P365D', '1 year'],
  ['all', 'All history'],
];

export const DEFAULT_DEPTH = 5;

export function readLineageState(params: URLSearchParams): LineageState {
  const depth = Number(params.get('depth') ?? DEFAULT_DEPTH);
  const direction = params.get('direction');
  return {
    node: params.get('node') ?? '',
    depth: Number.isInteger(depth) && depth >= 0 && depth <= 20 ? depth : DEFAULT_DEPTH,
    direction: direction === 'upstream' || direction === 'downstream' ? direction : 'both',
    asOf: params.get('asOf'),
    window: params.get('window'),
    selected: params.get('selected'),
    to: params.get('to'),
  };
}

/** `datetime-local` value (local time, no zone) ↔ ISO 8601 UTC. */
function toLocalInput(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

function pageOf(n: ViewNode): string | null {
  if (n.kind === 'job') return paths.job(n.namespace, n.name);
  if (n.kind === 'dataset') return paths.dataset(n.namespace, n.name);
  return null;
}

function NodeDetails({ model, id, state }: { model: GraphModel; id: string; state: LineageState }) {
  const n = model.byId.get(id);
  if (!n) return null;
  const ins = model.in.get(id) ?? [];
  const outs = model.out.get(id) ?? [];
  const page = pageOf(n);
  return (
    <div class="node-details" data-testid="node-details" data-node-id={id}>
      <h3>
        <span class={`kind kind-${n.kind}`}>{n.kind}</span> {n.label}
      </h3>
      <p class="muted wrap">{n.namespace}</p>
      {n.kind === 'job' && (
        <p>
          Latest run: <StateBadge state={n.state} />
        </p>
      )}
      <div class="actions">
        {page && <a href={page}>Open {n.kind} page</a>}
        {id !== state.node && (
          <a href={paths.lineage({ ...state, node: id, selected: null, to: null })} data-testid="recenter">
            Re-centre here
          </a>
        )}
        <a href={paths.impact(id)}>Impact</a>
        {n.kind === 'dataset' && <a href={paths.columnLineage(id)}>Column lineage</a>}
      </div>
      <p class="hint">Shift+click another node to highlight the path between them.</p>
      {(ins.length > 0 || outs.length > 0) && (
        <table class="edges">
          <caption>Edges (last seen)</caption>
          <tbody>
            {ins.map((e) => (
              <tr>
                <td>← {model.byId.get(e.source)?.label}</td>
                <td title={formatTime(e.lastSeenAt)} class={`staleness-${e.staleness}`}>
                  {e.lastSeenAt ? ago(e.lastSeenAt) : '—'}
                </td>
              </tr>
            ))}
            {outs.map((e) => (
              <tr>
                <td>→ {model.byId.get(e.target)?.label}</td>
                <td title={formatTime(e.lastSeenAt)} class={`staleness-${e.staleness}`}>
                  {e.lastSeenAt ? ago(e.lastSeenAt) : '—'}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

function NodeList({
  model,
  onPick,
  selected,
}: {
  model: GraphModel;
  onPick: (id: string) => void;
  selected: string | null;
}) {
  const [filter, setFilter] = useState('');
  const f = filter.trim().toLowerCase();
  const matching = f
    ? model.nodes.filter((n) => n.label.toLowerCase().includes(f) || n.namespace.toLowerCase().includes(f))
    : model.nodes;
  const shown = matching.slice(0, 200);
  return (
    <div class="node-list">
      <label>
        Find a node in the graph
        <input
          type="search"
          value={filter}
          onInput={(e) => setFilter((e.target as HTMLInputElement).value)}
          placeholder="name or namespace"
          data-testid="node-filter"
        />
      </label>
      <ul data-testid="node-list">
        {shown.map((n) => (
          <li>
            <button
              type="button"
              class={n.id === selected ? 'active' : ''}
              onClick={() => onPick(n.id)}
              data-node-id={n.id}
              data-kind={n.kind}
              data-state={n.state ?? undefined}
              aria-label={describeNode(n)}
            >
              <span class={`dot kind-${n.kind} state-${(n.state ?? 'none').toLowerCase()}`} aria-hidden="true" />
              <span class="node-name">{n.label}</span>
              <span class="node-meta" aria-hidden="true">
                {n.kind} · {n.namespace}
              </span>
            </button>
          </li>
        ))}
      </ul>
      {matching.length > shown.length && <p class="muted">{matching.length - shown.length} more: refine the filter.</p>}
    </div>
  );
}

function Legend() {
  return (
    <div class="legend" aria-label="Legend">
      <span>
        <i class="sw job state-completed" /> completed
      </span>
      <span>
        <i class="sw job state-running" /> running
      </span>
      <span>
        <i class="sw job state-failed" /> failed
      </span>
      <span>
        <i class="sw job state-aborted" /> aborted
      </span>
      <span>
        <i class="sw dataset" /> dataset
      </span>
      <span>
        <i class="ln fresh" /> seen in the last day
      </span>
      <span>
        <i class="ln recent" /> last 7 days
      </span>
      <span>
        <i class="ln stale" /> older
      </span>
    </div>
  );
}

export function LineagePage({ loc }: { loc: Location }) {
  const state = readLineageState(loc.params);
  const set = (patch: Partial<LineageState>, replace = false) =>
    navigate(paths.lineage({ ...state, ...patch }), { replace });
  const answer = useAsync(
    (signal) =>
      state.node
        ? api.lineage(
            {
              nodeId: state.node,
              depth: state.depth,
              direction: state.direction,
              asOf: state.asOf ?? undefined,
              window: state.window ?? undefined,
              // The graph draws names, kinds, job states and edges: the slim answer is enough.
              fields: 'minimal',
            },
            signal,
          )
        : Promise.resolve(null),
    [state.node, state.depth, state.direction, state.asOf, state.window],
  );
  const model = useMemo(
    () => (answer.data ? toModel(answer.data, state.asOf ? Date.parse(state.asOf) : Date.now()) : null),
    [answer.data],
  );
  const path = useMemo(
    () => (model && state.selected && state.to ? shortestPath(model, state.selected, state.to) : null),
    [model, state.selected, state.to],
  );
  const focus = model ? (model.byId.has(state.node) ? state.node : null) : null;

  if (!state.node) {
    return (
      <main class="page">
        <h1>Lineage</h1>
        <p>Search for a job or dataset above, then open its lineage.</p>
      </main>
    );
  }
  const focusNode = model?.byId.get(state.node);
  return (
    <main class="page lineage-page">
      <div class="lineage-head">
        <h1>
          Lineage of <span data-testid="lineage-start">{focusNode ? focusNode.label : state.node}</span>
        </h1>
        {focusNode && pageOf(focusNode) && <a href={pageOf(focusNode)!}>Open {focusNode.kind} page</a>}
      </div>
      <form class="controls" onSubmit={(e) => e.preventDefault()} aria-label="Graph controls">
        <label>
          Depth <output data-testid="depth-value">{state.depth}</output>
          <input
            type="range"
            min={0}
            max={20}
            value={state.depth}
            onChange={(e) => set({ depth: Number((e.target as HTMLInputElement).value), to: null })}
            data-testid="depth"
            aria-label="Depth in job hops"
          />
        </label>
        <fieldset class="segmented">
          <legend>Direction</legend>
          {DIRECTIONS.map(([d, text]) => (
            <label class={state.direction === d ? 'on' : ''}>
              <input
                type="radio"
                name="direction"
                value={d}
                checked={state.direction === d}
                onChange={() => set({ direction: d, to: null })}
                data-testid={`direction-${d}`}
              />
              {text}
            </label>
          ))}
        </fieldset>
        <label>
          As of
          <input
            type="datetime-local"
            value={toLocalInput(state.asOf)}
            onChange={(e) => {
              const v = (e.target as HTMLInputElement).value;
              set({ asOf: v ? new Date(v).toISOString() : null });
            }}
            data-testid="as-of"
          />
        </label>
        {state.asOf && (
          <button type="button" onClick={() => set({ asOf: null })}>
            Now
          </button>
        )}
        <label>
          Window
          <select
            value={state.window ?? ''}
            onChange={(e) => set({ window: (e.target as HTMLSelectElement).value || null })}
            data-testid="window"
          >
            {/* A window from the URL that the list does not offer (PT12H, P14D) is shown as it was given. */}
            {(state.window && !WINDOWS.some(([v]) => v === state.window)
              ? [...WINDOWS, [state.window, state.window] as [string, string]]
              : WINDOWS
            ).map(([v, text]) => (
              <option value={v}>{text}</option>
            ))}
          </select>
        </label>
      </form>
      {answer.error ? <ErrorBox error={answer.error} onRetry={answer.reload} /> : null}
      {!model && answer.loading && <Loading what="lineage" />}
      {model && (
        <>
          <p class="summary" data-testid="graph-summary" aria-live="polite">
            {model.nodes.length} nodes ({model.nodes.filter((n) => n.kind === 'job').length} jobs,{' '}
            {model.nodes.filter((n) => n.kind === 'dataset').length} datasets), {model.edges.length} edges
            {state.asOf ? ` as of ${formatTime(state.asOf)}` : ''}
            {answer.loading ? ' · updating…' : ''}
            {answer.data?.truncated && (
              <strong class="warn"> · truncated at the service's node cap: lower the depth</strong>
            )}
          </p>
          <div class="lineage-body">
            <GraphCanvas
              model={model}
              focus={focus}
              selected={state.selected ?? null}
              path={path}
              label={`Lineage of ${state.node}`}
              onTap={(id, additive) => {
                if (id && additive && state.selected && id !== state.selected) set({ to: id }, true);
                else set({ selected: id, to: null }, true);
              }}
              onDoubleTap={(id) => set({ node: id, selected: null, to: null })}
            />
            <aside class="side" aria-label="Details">
              {state.selected && model.byId.has(state.selected) ? (
                <NodeDetails model={model} id={state.selected} state={state} />
              ) : (
                <p class="muted">Click a node for its details; double-click to re-centre on it.</p>
              )}
              {state.selected && state.to && (
                <div class="path-info" data-testid="path-info">
                  <h3>Path</h3>
                  {path ? (
                    <ol>
                      {path.nodes.map((id) => (
                        <li>{model.byId.get(id)?.label}</li>
                      ))}
                    </ol>
                  ) : (
                    <p>These two nodes are not connected in this graph.</p>
                  )}
                  <button type="button" onClick={() => set({ to: null }, true)}>
                    Clear path
                  </button>
                </div>
              )}
              <NodeList
                model={model}
                selected={state.selected ?? null}
                onPick={(id) => set({ selected: id, to: null }, true)}
              />
            </aside>
          </div>
          <Legend />
        </>
      )}
    </main>
  );
}
