/** Node ids to graph nodes: one query over all of an id's candidate (namespace, name) splits. */
import type { Record as NeoRecord } from 'neo4j-driver';
import { compactCypher } from '../cypher.js';
import type { Db } from '../db.js';
import type { ParamsOf, QueryName, RowOf } from '../catalogue.js';
import type { EntityRef, FieldRef } from '../../domain/node-id.js';
import { END_OF_TIME } from './view.js';

export interface Resolved {
  eid: string;
  namespace: string;
  name: string;
}

/** Read queries of the lineage repositories: one transaction each, with their timeout (504 past it). */
export class LineageReader {
  constructor(
    readonly db: Db,
    readonly timeoutMs: number | undefined,
  ) {}

  /**
   * One read statement (`text` is cypher/<op>.cypher as sent: compacted, bounded, directed); `signal`
   * (the HTTP request's) ends it in Neo4j when the client goes away.
   */
  async run<K extends QueryName>(op: K, text: string, params: ParamsOf<K>, signal?: AbortSignal) {
    const res = await this.db.execute<RowOf<K>>('READ', op, text, params, { timeoutMs: this.timeoutMs, signal });
    return res.records;
  }

  /** `run`, each record mapped by `map` as it arrives (Db.executeMapped): for answers of thousands of rows. */
  async runMapped<K extends QueryName, T>(
    op: K,
    text: string,
    params: ParamsOf<K>,
    map: (record: NeoRecord<RowOf<K>>) => T,
    signal?: AbortSignal,
  ): Promise<T[]> {
    return this.db.executeMapped<RowOf<K>, T>('READ', op, text, params, map, { timeoutMs: this.timeoutMs, signal });
  }

  /** The job or (primary) dataset a parsed id names, or null when none of its splits existed (undeleted) at `asOf`. */
  async resolve(
    kind: 'job' | 'dataset',
    candidates: EntityRef[],
    asOf = END_OF_TIME,
    signal?: AbortSignal,
  ): Promise<Resolved | null> {
    const recs = await this.run(
      `lineage/resolve-${kind}`,
      compactCypher(`lineage/resolve-${kind}`),
      { candidates, asOf },
      signal,
    );
    if (!recs.length) return null;
    const r = recs[0];
    return { eid: r.get('eid'), namespace: r.get('namespace'), name: r.get('name') };
  }

  async resolveField(candidates: FieldRef[]): Promise<(FieldRef & { eid: string }) | null> {
    const recs = await this.run('lineage/resolve-field', compactCypher('lineage/resolve-field'), { candidates });
    if (!recs.length) return null;
    const r = recs[0];
    return { eid: r.get('eid'), namespace: r.get('namespace'), dataset: r.get('dataset'), field: r.get('field') };
  }
}
