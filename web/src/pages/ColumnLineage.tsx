/** Column lineage of a dataset or one of its columns: a graph of columns and the mappings as a table. */
import { counted } from '../format';
import { useMemo } from 'preact/hooks';
import { api } from '../api/client';
import type { ColumnFieldData } from '../api/types';
import { columnMappings } from '../columns';
import { ErrorBox, Loading, useAsync } from '../components/common';
import { GraphCanvas } from '../graph/GraphCanvas';
import { toModel } from '../graph/model';
import { navigate, paths, type Location } from '../router';

export function ColumnLineagePage({ loc }: { loc: Location }) {
  const node = loc.params.get('node') ?? '';
  const rawDepth = Number(loc.params.get('depth') ?? 20);
  const depth = Number.isInteger(rawDepth) && rawDepth >= 1 && rawDepth <= 20 ? rawDepth : 20;
  const downstream = loc.params.get('downstream') === 'true';
  const answer = useAsync(
    (signal) =>
      node ? api.columnLineage({ nodeId: node, depth, withDownstream: downstream }, signal) : Promise.resolve(null),
    [node, depth, downstream],
  );
  const model = useMemo(() => (answer.data ? toModel(answer.data) : null), [answer.data]);
  // Every column of the answer, by dataset and name, with its node id (the impact view takes it).
  const columns = (answer.data?.graph ?? [])
    .map((n) => ({ id: n.id, d: n.data as unknown as ColumnFieldData }))
    .sort((a, b) => `${a.d.dataset}.${a.d.field}`.localeCompare(`${b.d.dataset}.${b.d.field}`));
  // One row per input column → output column pair: the graph's edges, whichever jobs map them.
  const mappings = useMemo(() => columnMappings(answer.data?.graph ?? []), [answer.data]);
  return (
    <main class="page lineage-page" data-testid="column-lineage-page">
      <h1>
        Column lineage of <span data-testid="column-start">{node.replace(/^(dataset|datasetField|job):/, '')}</span>
      </h1>
      <form class="controls" onSubmit={(e) => e.preventDefault()}>
        <label>
          Depth <output>{depth}</output>
          <input
            type="range"
            min={1}
            max={20}
            value={depth}
            onChange={(e) =>
              navigate(paths.columnLineage(node, { depth: Number((e.target as HTMLInputElement).value), downstream }))
            }
            aria-label="Depth in column hops"
          />
        </label>
        <label>
          <input
            type="checkbox"
            checked={downstream}
            onChange={(e) =>
              navigate(paths.columnLineage(node, { depth, downstream: (e.target as HTMLInputElement).checked }))
            }
            data-testid="with-downstream"
          />
          Also downstream
        </label>
      </form>
      {answer.error ? <ErrorBox error={answer.error} onRetry={answer.reload} /> : null}
      {answer.loading && !answer.data && <Loading what="column lineage" />}
      {model && (
        <>
          <p class="summary" data-testid="graph-summary">
            {counted(model.nodes.length, 'column')}, {counted(mappings.length, 'mapping')} (input column → output
            column, a row each in the table below)
          </p>
          {model.nodes.length > 0 && (
            <div class="lineage-body single">
              <GraphCanvas
                model={model}
                focus={null}
                selected={null}
                path={null}
                label="Column lineage"
                onTap={() => undefined}
              />
            </div>
          )}
          {model.nodes.length > 0 && (
            <table class="list" data-testid="columns">
              <caption>Columns in this graph</caption>
              <thead>
                <tr>
                  <th scope="col">Column</th>
                  <th scope="col">Type</th>
                  <th scope="col">What depends on it</th>
                </tr>
              </thead>
              <tbody>
                {columns.map(({ id, d }) => (
                  <tr data-column={`${d.dataset}.${d.field}`}>
                    <td>
                      <a href={paths.dataset(d.namespace, d.dataset)}>{d.dataset}</a>.<code>{d.field}</code>
                    </td>
                    <td>{d.fieldType ?? '—'}</td>
                    <td>
                      <a href={paths.impact(id)} data-testid="column-impact">
                        Impact
                      </a>
                      {id !== node && (
                        <>
                          {' · '}
                          <a href={paths.columnLineage(id, { depth, downstream: true })}>Column lineage</a>
                        </>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <table class="list" data-testid="column-mappings">
            <caption>Mappings (input column → output column)</caption>
            <thead>
              <tr>
                <th scope="col">Column</th>
                <th scope="col">From</th>
                <th scope="col">Job</th>
                <th scope="col">Transformations</th>
              </tr>
            </thead>
            <tbody>
              {mappings.map((m) => (
                <tr data-column={`${m.output.dataset}.${m.output.field}`}>
                  <td>
                    <a href={paths.dataset(m.output.namespace, m.output.dataset)}>{m.output.dataset}</a>.
                    <code>{m.output.field}</code>
                  </td>
                  <td>
                    <a href={paths.dataset(m.input.namespace, m.input.dataset)}>{m.input.dataset}</a>.
                    <code>{m.input.field}</code>
                  </td>
                  <td>
                    {m.jobs.length === 0
                      ? '—'
                      : m.jobs.map((j, k) => (
                          <>
                            {k > 0 && ', '}
                            <a href={paths.job(j.namespace, j.name)}>{j.name}</a>
                          </>
                        ))}
                  </td>
                  <td data-testid="transformations">{m.transformations.join(', ') || '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </main>
  );
}
