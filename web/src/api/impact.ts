/**
 * The impact view's data source. Until the service has impact endpoints, the blast radius is the
 * downstream walk of GET /api/v1/lineage (direction=downstream), computed here; when
 * `/api/v1/impact` lands, `fetchImpact` switches to it and the view stays as it is.
 */
import { api } from './client';
import { downstreamOf, toModel, type DownstreamEntry, type ViewNode } from '../graph/model';

export interface ImpactAnswer {
  /** Where the list came from (shown under the table). */
  source: 'lineage';
  start: ViewNode | null;
  entries: DownstreamEntry[];
  /** The lineage answer hit the service's node cap: the list may be incomplete. */
  truncated: boolean;
}

export async function fetchImpact(nodeId: string, depth: number, signal?: AbortSignal): Promise<ImpactAnswer> {
  const answer = await api.lineage({ nodeId, depth, direction: 'downstream', window: 'all' }, signal);
  const model = toModel(answer);
  // The answer names the start as the service resolved it (an alias resolves to its primary name).
  const start = model.byId.get(nodeId) ?? model.nodes.find((n) => model.in.get(n.id)!.length === 0) ?? null;
  return { source: 'lineage', start, entries: start ? downstreamOf(model, start.id) : [], truncated: answer.truncated };
}
