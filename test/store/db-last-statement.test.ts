import { expect } from 'chai';
import neo4j from 'neo4j-driver';
import { LastStatement } from '../../src/store/db.js';
import { testDb, wipe } from '../helper.js';

const count = async (): Promise<number> => {
  const res = await testDb().read({ op: 'test' }, (tx) => tx.run('MATCH (n:DbTest) RETURN count(n) AS c'));
  return res.records[0].get('c').toNumber();
};

// Ingest ends its transaction with a statement whose records it does not read (LastStatement): Db
// awaits its answer and commits.
describe('Db transactions: a unit of work ending with an unread last statement', () => {
  beforeEach(() => wipe());

  it('commits everything the work wrote, its last statement included', async () => {
    for (let i = 0; i < 20; i++) {
      await testDb().write({ op: 'test' }, async (tx) => {
        await tx.run('CREATE (:DbTest {i: $i, first: true})', { i });
        return new LastStatement(tx.run('UNWIND range(1, 50) AS k CREATE (:DbTest {i: $i, k: k})', { i }));
      });
    }
    expect(await count()).to.equal(20 * 51);
  });

  it("a failing last statement rolls the whole transaction back and is the error thrown, not COMMIT's", async () => {
    let attempts = 0;
    const err = await testDb()
      .write({ op: 'test' }, async (tx) => {
        attempts++;
        await tx.run('CREATE (:DbTest)');
        return new LastStatement(tx.run('UNWIND [1, 0] AS x CREATE (:DbTest {v: 1 / x})'));
      })
      .catch((e: unknown) => e);
    expect(err).to.be.instanceOf(neo4j.Neo4jError);
    expect((err as neo4j.Neo4jError).code).to.equal('Neo.ClientError.Statement.ArithmeticError');
    expect(attempts).to.equal(1);
    expect(await count()).to.equal(0);
    // The connection is usable again afterwards.
    await testDb().write({ op: 'test' }, async (tx) => new LastStatement(tx.run('CREATE (:DbTest)')));
    expect(await count()).to.equal(1);
  });

  it(
    'a last statement that loses a deadlock is retried with the whole work, and both transactions ' + 'commit',
    async function () {
      this.timeout(60_000);
      await testDb().write({ op: 'test' }, (tx) => tx.run("CREATE (:DbTest {k: 'a'}), (:DbTest {k: 'b'})"));
      let attempts = 0;
      let arrived = 0;
      let release!: () => void;
      const bothLocked = new Promise<void>((resolve) => (release = resolve));
      // Each transaction locks one node, waits until the other has locked the other node, then writes
      // the other node in its last statement: a lock cycle, which Neo4j breaks by failing one of them
      // with a transient DeadlockDetected error.
      const work = (mine: string, theirs: string) =>
        testDb().write({ op: 'test' }, async (tx) => {
          const attempt = ++attempts;
          await tx.run('MATCH (n:DbTest {k: $mine}) SET n.lockedBy = $mine', { mine });
          if (attempt <= 2) {
            if (++arrived === 2) release();
            await bothLocked;
          }
          return new LastStatement(tx.run('MATCH (n:DbTest {k: $theirs}) SET n.lastWriter = $mine', { mine, theirs }));
        });
      await Promise.all([work('a', 'b'), work('b', 'a')]);
      expect(attempts, 'the deadlock victim ran again').to.be.greaterThan(2);
      const res = await testDb().read({ op: 'test' }, (tx) =>
        tx.run('MATCH (n:DbTest) RETURN n.k AS k, n.lastWriter AS w ORDER BY k'),
      );
      expect(res.records.map((r) => [r.get('k'), r.get('w')])).to.deep.equal([
        ['a', 'b'],
        ['b', 'a'],
      ]);
    },
  );
});
