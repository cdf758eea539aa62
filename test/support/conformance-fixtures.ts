/**
 * The OpenLineage conformance fixtures (test/fixtures/openlineage/, described in its README): spec
 * events written from the spec's schemas, one file per facet or event shape. A file holds one event
 * or an array of events to post in order.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const FIXTURES_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'openlineage');

export type Event = Record<string, any>;

export interface Fixture {
  /** Path under the fixtures folder, e.g. `dataset/schema.json`. */
  name: string;
  events: Event[];
}

/** Every fixture, sorted by name. */
export function loadFixtures(): Fixture[] {
  return (readdirSync(FIXTURES_DIR, { recursive: true }) as string[])
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.split(path.sep).join('/'))
    .sort()
    .map((name) => {
      const data = JSON.parse(readFileSync(path.join(FIXTURES_DIR, name), 'utf8')) as Event | Event[];
      return { name, events: Array.isArray(data) ? data : [data] };
    });
}

/** One fixture by name (throws when missing, so a renamed file fails loudly). */
export function fixture(name: string): Fixture {
  const found = loadFixtures().find((f) => f.name === name);
  if (!found) throw new Error(`no fixture ${name}`);
  return found;
}
