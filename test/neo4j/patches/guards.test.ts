import { expect } from 'chai';
import { patchGuards } from '../../../src/neo4j/patches/index.js';
import { requireFromDriver } from '../../../src/neo4j/patches/driver-internals.js';
import { boltSocketsGuard } from '../../../src/neo4j/patches/bolt-sockets.js';
import { plainParamsGuard } from '../../../src/neo4j/patches/plain-params.js';
import { boltChunksGuard, CHUNKING_MODULE } from '../../../src/neo4j/patches/bolt-chunks.js';
import { fastUnpackGuard, PACKSTREAM_MODULE } from '../../../src/neo4j/patches/fast-unpack.js';
import { fastPackGuard } from '../../../src/neo4j/patches/fast-pack.js';
import { joinedMessagesGuard } from '../../../src/neo4j/patches/joined-messages.js';
import { fastDateTimeGuard, UTC_TRANSFORMER_MODULE } from '../../../src/neo4j/patches/fast-datetime.js';
import { checkDriverRelease } from '../../../scripts/driver-guards.js';

// Each driver patch's guard checks that the driver function it patches still exists with the
// expected shape (src/neo4j/patches/README.md). Run against the pinned driver and against the newest
// release of its line, so that a driver upgrade is one decision: the failing guard names the patch.
describe('driver patch guards', () => {
  it('all pass on the pinned driver', () => {
    expect(patchGuards(requireFromDriver)).to.deep.equal([
      { patch: 'bolt-sockets', problem: null },
      { patch: 'plain-params', problem: null },
      { patch: 'fast-datetime', problem: null },
      { patch: 'bolt-chunks', problem: null },
      { patch: 'fast-unpack', problem: null },
      { patch: 'fast-pack', problem: null },
      { patch: 'joined-messages', problem: null },
    ]);
  });

  it('say what moved when a driver no longer has the patched function', () => {
    expect(
      boltSocketsGuard({
        default: class {
          write(_a: unknown, _b: unknown) {}
        },
      }),
    ).to.match(/write\(buffer\)/);
    expect(
      boltSocketsGuard({
        default: class {
          write(buffer: unknown) {
            return buffer;
          }
        },
      }),
    ).to.match(/_conn/);
    expect(plainParamsGuard({})).to.match(/no default export/);
    expect(fastUnpackGuard({})).to.match(/no Unpacker class/);
    expect(
      fastUnpackGuard({
        Unpacker: class {
          unpack(b: unknown, h: unknown) {
            return [b, h];
          }
        },
      }),
    ).to.match(/no longer dispatches/);
    expect(boltChunksGuard(() => ({}))).to.match(/no longer exports Chunker/);
    expect(joinedMessagesGuard(() => ({}))).to.match(/no longer exports Dechunker/);
    expect(
      joinedMessagesGuard((id) =>
        id === CHUNKING_MODULE
          ? {
              Dechunker: class {
                _onHeader(h: number) {
                  return h;
                }
              },
            }
          : requireFromDriver(id),
      ),
    ).to.match(/one-chunk message/);
    expect(fastPackGuard(() => ({}))).to.match(/no Packer class/);
    expect(fastDateTimeGuard((id) => (id === UTC_TRANSFORMER_MODULE ? {} : requireFromDriver(id)))).to.match(
      /no createDateTimeWithOffsetTransformer/,
    );
    // A driver that encodes times otherwise (here: local seconds, Bolt 4's legacy form) is refused.
    expect(
      fastDateTimeGuard((id) =>
        id === UTC_TRANSFORMER_MODULE
          ? {
              default: {
                createDateTimeWithOffsetTransformer: () => ({
                  signature: 0x49,
                  toStructure: (v: { year: number }) => ({ signature: 0x49, fields: [v.year] }),
                }),
              },
            }
          : requireFromDriver(id),
      ),
    ).to.match(/encodes .* otherwise/);
    expect(
      fastPackGuard((id) =>
        id === PACKSTREAM_MODULE
          ? {
              Packer: class {
                packable(x: unknown, d: unknown) {
                  return [x, d];
                }
              },
            }
          : requireFromDriver(id),
      ),
    ).to.match(/no longer calls packFloat/);
    expect(fastPackGuard((id) => (id === CHUNKING_MODULE ? {} : requireFromDriver(id)))).to.match(/Chunker/);
    // A driver whose connections build their chunker some other way is refused.
    expect(
      boltChunksGuard((id) => (id === CHUNKING_MODULE ? requireFromDriver(id) : { createChannelConnection() {} })),
    ).to.match(/new channel_1\.Chunker/);
    expect(
      patchGuards(() => {
        throw new Error('Cannot find module');
      }).every((g) => /cannot load/.test(g.problem ?? '')),
    ).to.equal(true);
  });

  // Needs the npm registry (as `npm ci` does): if it cannot be reached this fails saying so.
  it('all pass on the newest neo4j-driver 5.x on the npm registry', function () {
    this.timeout(240_000);
    const { version, results } = checkDriverRelease('5');
    const failing = results.filter((r) => r.problem !== null);
    expect(
      failing,
      `neo4j-driver ${version}: ${failing.map((r) => `${r.patch}: ${r.problem}`).join('; ')}`,
    ).to.deep.equal([]);
  });
});
