/**
 * When a batch makes a name a symlink alias of another dataset, and the graph had already recorded
 * things under that name as a dataset of its own (a reader that named a table by its location before
 * any event said the location is that table), the record is taken apart and the stored events that
 * made it are replayed in the same transaction: resolved to the primary this time, they give the
 * graph the symlink would have given from the start (cypher/ingest/alias-repair.cypher). Rare: it
 * happens once per alias, and only for aliases used before they were declared.
 */
import { runQuery } from './cypher.js';
import type { TxRunner } from './db.js';
import type { Incoming } from '../domain/ingest/rows.js';
import type { DatasetRef } from '../domain/openlineage/types.js';
import { parseEvent } from '../domain/openlineage/normalize.js';

/** The stored events to replay for `names` (after taking apart what was recorded under them). */
export async function takeApartAliasHistory(tx: TxRunner, names: DatasetRef[]): Promise<Incoming[]> {
  const result = await runQuery(tx, 'ingest/alias-repair', { names });
  const payloads = (result.records[0]?.get('events') as string[] | undefined) ?? [];
  return payloads.sort().flatMap((payload) => storedIncoming(payload, null) ?? []);
}

/**
 * A stored event's payload, as the ingest path takes it again (received at `receivedAt`, else at its own
 * event time); null if it no longer parses (every stored event was valid when it was accepted).
 */
export function storedIncoming(payload: string, receivedAt: string | null): Incoming | null {
  const parsed = parseEvent(JSON.parse(payload));
  return parsed.ok ? { event: parsed.event, receivedAt: receivedAt ?? parsed.event.eventTime } : null;
}
