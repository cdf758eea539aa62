// Migration `dataset-wide-column-lineage` (src/store/migrations.ts), read step: the next batch of stored
// events after a cursor, and of them the ones whose payload holds a ColumnLineage facet with dataset-wide
// inputs (`"dataset":[{...}]`), which versions before 2026-11-27 did not turn into FEEDS edges. The service
// delivers those again to its own ingest path, which is idempotent: only what was missing is written.
// The test is on the payload text (canonical JSON, compact): a false match is harmless (a re-delivery).
// Params: $after (string: the last event id of the previous batch; '' for the first), $limit (integer).
// Returns one row: last (the batch's last event id; null when no event was left), events ([[payload,
//   receivedAt (ISO)]]: the matching events of the batch).
MATCH (e:LineageEvent) WHERE e.id > $after
WITH e ORDER BY e.id LIMIT $limit
WITH collect(e) AS batch
RETURN batch[-1].id AS last, [e IN batch WHERE e.payload CONTAINS '"columnLineage":'
  AND e.payload CONTAINS '"dataset":[{' | [e.payload, toString(e.receivedAt)]] AS events
