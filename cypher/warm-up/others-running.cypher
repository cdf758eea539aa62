// Transactions of other clients open on the service's database right now: what the idle warm-up
// (src/ingest/warm-up.ts) waits out, so that its rehearsals never take Neo4j's CPU from another
// process's work (another replica of this service behind the same load balancer, a loader, an
// engineer's query in Neo4j Browser). Community Edition keeps no count of committed transactions that
// a client can read, so this samples the open ones; the warm-up samples it at every poll of its quiet
// period. A user without the SHOW TRANSACTION privilege sees only its own transactions here, and the
// warm-up then waits only for this service's own activity.
//
// Params: $database (the service's database), $ignoredOps (transaction metadata `op` values not counted:
//   this query's own, and the rehearsals' of every replica: two idle replicas may rehearse together).
// Returns one row: running (integer: the transactions counted).
SHOW TRANSACTIONS YIELD database, metaData
WHERE database = $database AND NOT coalesce(metaData.op, '') IN $ignoredOps
RETURN count(*) AS running
