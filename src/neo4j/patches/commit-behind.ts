/**
 * COMMIT sent right behind a transaction's last statement, before that statement's answer is back.
 *
 * The driver's `Transaction.commit()` waits for the answers of every statement still open in the
 * transaction before it sends COMMIT. Under ingest load that wait is one loopback round trip plus the
 * time the answer sits in the event loop behind other work (2-3 ms on average at 32 producers on the
 * 2-core VM, measured with monitorEventLoopDelay), per transaction, while the transaction holds its
 * locks. Bolt runs a connection's messages in order, and a failed statement makes the server ignore
 * what follows it and roll the transaction back, so sending COMMIT early is safe: the statement's
 * error still comes back as that statement's, and the COMMIT then fails too.
 *
 * This relies on two internals of neo4j-driver-core 5 (checked at each call; without them it falls
 * back to the driver's order, correct but not pipelined): the transaction's list of open results
 * (`_results`), which commit() waits for, and a result's promise of its stream observer
 * (`_streamObserverPromise`), which resolves once the statement was written to the connection, so
 * COMMIT cannot overtake it.
 */
import type { Result, Transaction } from 'neo4j-driver';

interface TransactionInternals {
  _results?: unknown[];
}
interface ResultInternals {
  _streamObserverPromise?: Promise<unknown>;
}

/** The driver-core modules whose internals commitBehind relies on. */
export const TRANSACTION_MODULE = 'neo4j-driver-core/lib/transaction.js';
export const RESULT_MODULE = 'neo4j-driver-core/lib/result.js';

/** Why commitBehind cannot apply to a given driver's modules (null: it can): checked on their source text. */
export function commitBehindGuard(transactionModule: unknown, resultModule: unknown): string | null {
  const Transaction = (transactionModule as { default?: unknown } | null)?.default;
  const Result = (resultModule as { default?: unknown } | null)?.default;
  if (typeof Transaction !== 'function') return `${TRANSACTION_MODULE} has no default export class (Transaction)`;
  if (typeof Result !== 'function') return `${RESULT_MODULE} has no default export class (Result)`;
  if (!/this\._results = \[\]/.test(String(Transaction))) return 'Transaction no longer keeps its open results in _results';
  const commit = (Transaction.prototype as { commit?: unknown } | undefined)?.commit;
  if (typeof commit !== 'function' || !/pendingResults: this\._results/.test(String(commit))) return 'Transaction.commit() no longer waits for _results (pendingResults)';
  if (!/this\._streamObserverPromise = /.test(String(Result))) return 'Result no longer holds _streamObserverPromise';
  return null;
}

/** Whether the driver exposes what commitBehind needs (tests check it, so an upgrade cannot silently fall back). */
export function canCommitBehind(tx: Transaction, last: Result): boolean {
  return Array.isArray((tx as unknown as TransactionInternals)._results) && (last as unknown as ResultInternals)._streamObserverPromise instanceof Promise;
}

/** Commits `tx`, sending COMMIT as soon as `last` (its last statement) has been written. */
export async function commitBehind(tx: Transaction, last: Result): Promise<void> {
  if (!canCommitBehind(tx, last)) {
    await last;
    return tx.commit();
  }
  await (last as unknown as ResultInternals)._streamObserverPromise;
  const internals = tx as unknown as TransactionInternals;
  const open = internals._results!;
  internals._results = [];
  try {
    return tx.commit();
  } finally {
    internals._results = open;
  }
}
