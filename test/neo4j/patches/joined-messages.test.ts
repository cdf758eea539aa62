import { expect } from 'chai';
import { createDriver } from '../../../src/neo4j/runtime.js';
import { CHUNKING_MODULE } from '../../../src/neo4j/patches/bolt-chunks.js';
import { ORIGINAL, requireFromDriver } from '../../../src/neo4j/patches/driver-internals.js';
import {
  CHANNEL_BUF_MODULE,
  installJoinedMessages,
  joinedMessagesGuard,
} from '../../../src/neo4j/patches/joined-messages.js';

interface Part {
  _buffer?: Buffer;
}
type OnHeader = ((this: { _currentMessage: Part[] }, header: number) => unknown) & { [ORIGINAL]?: OnHeader };
const dechunker = () =>
  (requireFromDriver(CHUNKING_MODULE) as { Dechunker: { prototype: { _onHeader: OnHeader } } }).Dechunker.prototype;

const testDriver = () =>
  createDriver(
    process.env.TEST_NEO4J_URI!,
    process.env.TEST_NEO4J_USER ?? 'neo4j',
    process.env.TEST_NEO4J_PASSWORD ?? '',
  );

// A record of several hundred KB, as the blast radius returns: strings short and long, multi-byte
// characters, numbers, nested lists and maps, null; its bytes span several chunks and socket reads.
const BIG_RECORD = `RETURN [i IN range(0, 30000) | [
  'ns-' + toString(i % 7), 'name ü 😀 ' + toString(i), i * 1000003, i / 7.0, i % 3 = 0, null,
  [j IN range(0, i % 4) | 'p' + toString(j)], {k: toString(i), v: [i, -i]},
  CASE WHEN i % 1000 = 0 THEN reduce(s = '', j IN range(0, 2000) | s + 'x') END
]] AS rows, 'after' AS tail`;

describe('driver messages of several chunks, joined', () => {
  it('is installed on the pinned driver (a false here means a driver upgrade moved the dechunker)', () => {
    expect(installJoinedMessages()).to.equal(true);
    expect(joinedMessagesGuard(requireFromDriver)).to.equal(null);
    expect(dechunker()._onHeader[ORIGINAL]).to.be.a('function');
  });

  it('hands the driver one buffer holding the pieces, in order, at the message boundary', () => {
    const ChannelBuffer = (requireFromDriver(CHANNEL_BUF_MODULE) as { default: new (b: Buffer) => Part }).default;
    const pieces = [Buffer.from([0xb1, 0x71]), Buffer.from([0x91, 0x85]), Buffer.from('hello')];
    const messages: Part[] = [];
    const fake = {
      _currentMessage: pieces.map((p) => new ChannelBuffer(p)),
      onmessage: (m: Part) => messages.push(m),
      AWAITING_CHUNK: 'awaiting',
    };
    expect(dechunker()._onHeader.call(fake, 0)).to.equal('awaiting');
    expect(messages).to.have.length(1);
    expect(messages[0]).to.be.instanceOf(ChannelBuffer);
    expect(messages[0]._buffer).to.deep.equal(Buffer.concat(pieces));
    expect(fake._currentMessage).to.deep.equal([]);
    // A one-piece message and a chunk header are the driver's own business.
    const one = new ChannelBuffer(Buffer.from([1]));
    fake._currentMessage = [one];
    dechunker()._onHeader.call(fake, 0);
    expect(messages[1]).to.equal(one);
  });

  it("reads a many-chunk record to the driver's own values, from one buffer", async function () {
    this.timeout(60_000);
    const proto = dechunker();
    const patched = proto._onHeader;
    const original = patched[ORIGINAL]!;
    // What reaches the driver's own code at each message boundary: how many pieces.
    let largest = 0;
    const counting = (inner: OnHeader): OnHeader =>
      function (this: { _currentMessage: Part[] }, header: number) {
        if (header === 0) largest = Math.max(largest, this._currentMessage.length);
        return inner.call(this, header);
      };
    const driver = testDriver();
    try {
      const read = async (onHeader: OnHeader) => {
        proto._onHeader = onHeader;
        try {
          largest = 0;
          const { records } = await driver.executeQuery(BIG_RECORD);
          return { rows: records[0].get('rows') as unknown[], tail: records[0].get('tail'), largest };
        } finally {
          proto._onHeader = patched;
        }
      };
      // The driver's own: the record arrives as several pieces, read through its combined buffer.
      const own = await read(counting(original));
      expect(own.largest).to.be.greaterThan(1);
      // Patched: the same values.
      const joined = await read(patched);
      expect(joined.rows).to.have.length(30001);
      expect(joined.rows).to.deep.equal(own.rows);
      expect(joined.tail).to.equal('after');
    } finally {
      proto._onHeader = patched;
      await driver.close();
    }
  });
});
