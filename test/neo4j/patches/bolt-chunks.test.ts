import { expect } from 'chai';
import type { Driver } from 'neo4j-driver';
import { createDriver } from '../../../src/neo4j/runtime.js';
import { CHUNK_BUFFER_BYTES, CHUNKING_MODULE, installBoltChunks } from '../../../src/neo4j/patches/bolt-chunks.js';
import { requireFromDriver, unpatched } from '../../../src/neo4j/patches/driver-internals.js';

const testDriver = () =>
  createDriver(
    process.env.TEST_NEO4J_URI!,
    process.env.TEST_NEO4J_USER ?? 'neo4j',
    process.env.TEST_NEO4J_PASSWORD ?? '',
  );

/** Every object reachable from the driver (its pool, connections, channels) that is a driver Chunker. */
function chunkersOf(driver: Driver, Chunker: new (...args: never[]) => unknown): { _bufferSize: number }[] {
  const found = new Set<{ _bufferSize: number }>();
  const seen = new Set<unknown>();
  let frontier: unknown[] = [driver];
  for (let depth = 0; depth < 12 && frontier.length > 0; depth++) {
    const next: unknown[] = [];
    for (const value of frontier) {
      if (!value || typeof value !== 'object' || seen.has(value) || Buffer.isBuffer(value)) continue;
      seen.add(value);
      if (value instanceof Chunker) found.add(value as { _bufferSize: number });
      next.push(
        ...(value instanceof Map ? [...value.values()] : value instanceof Set ? [...value] : Object.values(value)),
      );
    }
    frontier = next;
  }
  return [...found];
}

describe('driver Bolt chunk size', () => {
  it('is installed on the pinned driver (a false here means a driver upgrade moved the chunker)', () => {
    expect(installBoltChunks()).to.equal(true);
  });

  it('gives every new connection the larger chunker, still an instance of the driver class', async () => {
    const driver = testDriver();
    try {
      const session = driver.session();
      const tx = await session.beginTransaction();
      await tx.run('RETURN 1');
      const Chunker = unpatched((requireFromDriver(CHUNKING_MODULE) as { Chunker: never }).Chunker);
      const chunkers = chunkersOf(driver, Chunker);
      await tx.rollback();
      await session.close();
      expect(chunkers.length).to.be.greaterThan(0);
      expect(chunkers.map((c) => c._bufferSize)).to.deep.equal(chunkers.map(() => CHUNK_BUFFER_BYTES));
    } finally {
      await driver.close();
    }
  });

  it('sends messages larger than many chunks intact (multi-byte text across chunk boundaries)', async () => {
    const driver = testDriver();
    try {
      // 3-byte and 4-byte UTF-8 characters at odd offsets, 600 KB in all, plus a list of many small values.
      const text = 'a✓𝄞b'.repeat(60_000);
      const list = Array.from({ length: 20_000 }, (_, i) => `item-${i}`);
      const { records } = await driver.executeQuery('RETURN $text AS text, $list AS list', { text, list });
      expect(records[0].get('text')).to.equal(text);
      expect(records[0].get('list')).to.deep.equal(list);
    } finally {
      await driver.close();
    }
  });
});
