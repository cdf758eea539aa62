/** Direct reads of the graph for assertions: the graph schema is a public interface, so tests check it. */
import type { Db } from '../../src/store/db.js';
import { toNative } from '../../src/store/db.js';
import { digest, parseStamps, DELETED } from '../../src/domain/facet-stamps.js';
import { testDriver } from '../helper.js';

export async function rows(
  db: Db,
  query: string,
  params: Record<string, unknown> = {},
): Promise<Record<string, any>[]> {
  const res = await db.read({ op: 'test' }, (tx) => tx.run(query, params));
  return res.records.map((r) => toNative(r.toObject()) as Record<string, any>);
}

export async function value<T = any>(db: Db, query: string, params: Record<string, unknown> = {}): Promise<T> {
  const r = await rows(db, query, params);
  return (r[0] ? Object.values(r[0])[0] : undefined) as T;
}

/** Node counts per label and relationship counts per type: a fingerprint of the graph's shape. */
export async function graphShape(db: Db): Promise<Record<string, number>> {
  const nodes = await rows(db, 'MATCH (n) UNWIND labels(n) AS l RETURN l AS k, count(*) AS c');
  const rels = await rows(db, 'MATCH ()-[r]->() RETURN type(r) AS k, count(*) AS c');
  const shape: Record<string, number> = {};
  for (const r of [...nodes, ...rels]) shape[r.k] = r.c;
  return shape;
}

/** Every node id/key and relationship, as sorted strings: equal graphs give equal snapshots. */
export async function graphSnapshot(db: Db): Promise<string[]> {
  const nodes = await rows(
    db,
    `MATCH (n) RETURN labels(n)[0] + ':' + coalesce(n.id, n.namespace + '/' + coalesce(n.dataset + '/', '') + ` +
      `n.name, n.name) AS k`,
  );
  const rels = await rows(
    db,
    `MATCH (a)-[r]->(b)
     RETURN labels(a)[0] + ':' + coalesce(a.id, a.namespace + '/' + coalesce(a.dataset + '/', '') + a.name, a.name)
       + ' -' + type(r) + '-> '
       + labels(b)[0] + ':' + coalesce(b.id, b.namespace + '/' + coalesce(b.dataset + '/', '') + b.name, b.name) AS k`,
  );
  return [...nodes, ...rels].map((r) => r.k as string).sort();
}

/**
 * Entries of `facetStamps` lists that do not match their property's value (src/domain/facet-stamps.ts):
 * a wrong entry would let a changed facet go unsent. Empty when the invariant holds. Checks nodes and
 * relationships (READ keeps the run's input facets).
 */
export async function staleFacetDigests(db: Db): Promise<string[]> {
  const owners = await rows(
    db,
    `CALL () {
       MATCH (n) WHERE n.facetStamps IS NOT NULL RETURN labels(n)[0] + ' ' + coalesce(n.id,
         n.namespace + "/" + n.name) AS key, properties(n) AS props
       UNION ALL
       MATCH (r:Run)-[rd:READ]->(v) WHERE rd.facetStamps IS NOT NULL RETURN 'READ ' + r.id + ' ' + v.id AS key,
         properties(rd) AS props
     } RETURN key, props`,
  );
  const stale: string[] = [];
  for (const { key, props } of owners) {
    for (const [prop, stamp] of parseStamps(props.facetStamps as string[])) {
      if (!prop.includes('acet.')) continue;
      const value = props[prop];
      if (
        stamp.digest === DELETED
          ? value !== undefined && value !== null
          : typeof value !== 'string' || digest(value) !== stamp.digest
      )
        stale.push(`${key}: ${prop}`);
    }
  }
  return stale;
}

/** Holds the write lock of run `id` in an open transaction until `release` is called (then rolls back). */
export async function holdRunLock(id: string): Promise<() => Promise<void>> {
  const session = testDriver().session({ database: process.env.TEST_NEO4J_DATABASE ?? 'neo4j' });
  const tx = session.beginTransaction();
  await tx.run('MERGE (r:Run {id: $id}) SET r.lockedByTest = true', { id });
  return async () => {
    await tx.rollback();
    await session.close();
  };
}
