/** Namespace aggregate: the root of the object model. */
import { cypher } from './cypher.js';
import { int, type Db } from './db.js';
import { iso } from './time.js';

export interface Namespace {
  name: string;
  createdAt: string;
  updatedAt: string;
  ownerName: string;
  description: string | null;
  isHidden: boolean;
}

export interface Page<T> {
  items: T[];
  totalCount: number;
}

export function toNamespace(p: Record<string, unknown>): Namespace {
  return {
    name: p.name as string,
    createdAt: iso(p.createdAt)!,
    updatedAt: iso(p.updatedAt)!,
    ownerName: (p.ownerName as string | undefined) ?? 'anonymous',
    description: (p.description as string | undefined) ?? null,
    isHidden: Boolean(p.isHidden),
  };
}

export class NamespaceRepository {
  constructor(private readonly db: Db) {}

  async ensureDefault(now = new Date()): Promise<void> {
    await this.db.write({ op: 'namespaces/ensure-default' }, (tx) => tx.run(cypher('namespaces/ensure-default'), { now: now.toISOString() }));
  }

  async list(offset: number, limit: number): Promise<Page<Namespace>> {
    const res = await this.db.query('namespaces/list', { offset: int(offset), limit: int(limit) });
    const row = res.records[0];
    return {
      totalCount: Number(row.get('totalCount')),
      items: (row.get('namespaces') as Record<string, unknown>[]).map(toNamespace),
    };
  }

  async get(name: string): Promise<Namespace | null> {
    const res = await this.db.query('namespaces/get', { name });
    return res.records.length ? toNamespace(res.records[0].get('namespace')) : null;
  }
}
