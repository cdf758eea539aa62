/** Namespace aggregate: the root of the object model. */
import type { Namespace, Page } from '../api/types.js';
import { int, toNative, type Db } from './db.js';
import { iso } from './time.js';

export type { Namespace, Page } from '../api/types.js';

export function toNamespace(raw: unknown): Namespace {
  const p = toNative(raw) as Record<string, unknown>;
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
    await this.db.command('namespaces/ensure-default', { now: now.toISOString() });
  }

  async list(offset: number, limit: number): Promise<Page<Namespace>> {
    const res = await this.db.query('namespaces/list', { offset: int(offset), limit: int(limit) });
    const row = res.records[0];
    return {
      totalCount: Number(row.get('totalCount')),
      items: (row.get('namespaces') as unknown[]).map(toNamespace),
    };
  }

  async get(name: string): Promise<Namespace | null> {
    const res = await this.db.query('namespaces/get', { name });
    return res.records.length ? toNamespace(res.records[0].get('namespace')) : null;
  }

  /** PUT: creates the namespace or replaces its owner and description; un-hides it. */
  async upsert(name: string, ownerName: string, description: string | null, now = new Date()): Promise<Namespace> {
    const res = await this.db.command('namespaces/upsert', { name, ownerName, description, now: now.toISOString() });
    return toNamespace(res.records[0].get('namespace'));
  }

  /** Soft delete: hides the namespace and soft-deletes its datasets and jobs. null when it does not exist. */
  async softDelete(name: string, now = new Date()): Promise<Namespace | null> {
    const res = await this.db.command('namespaces/delete', { name, now: now.toISOString() });
    return res.records.length ? toNamespace(res.records[0].get('namespace')) : null;
  }
}
