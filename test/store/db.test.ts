import { expect } from 'chai';
import neo4j from 'neo4j-driver';
import { testDb, wipe } from '../helper.js';

const count = async (): Promise<number> => {
  const res = await testDb().read({ op: 'test' }, (tx) => tx.run('MATCH (n:DbTest) RETURN count(n) AS c'));
  return res.records[0].get('c').toNumber();
};

describe('Db transactions', () => {
  beforeEach(() => wipe());

  it('commits what the work wrote and returns its answer', async () => {
    const answer = await testDb().write({ op: 'test' }, async (tx) => {
      await Promise.all([tx.run('CREATE (:DbTest {i: 1})'), tx.run('CREATE (:DbTest {i: 2})')]);
      return 'done';
    });
    expect(answer).to.equal('done');
    expect(await count()).to.equal(2);
  });

  it('retries the whole work after a transient error, keeping only the attempt that committed', async () => {
    let attempts = 0;
    await testDb().write({ op: 'test' }, async (tx) => {
      attempts++;
      await tx.run('CREATE (:DbTest {attempt: $attempt})', { attempt: attempts });
      if (attempts === 1)
        throw new neo4j.Neo4jError(
          'simulated deadlock',
          'Neo.TransientError.Transaction.DeadlockDetected',
          '50N05',
          'deadlock detected',
        );
    });
    expect(attempts).to.equal(2);
    const res = await testDb().read({ op: 'test' }, (tx) => tx.run('MATCH (n:DbTest) RETURN n.attempt AS a'));
    expect(res.records.map((r) => Number(r.get('a')))).to.deep.equal([2]);
  });

  it('rolls back and does not retry other errors', async () => {
    let attempts = 0;
    const err = await testDb()
      .write({ op: 'test' }, async (tx) => {
        attempts++;
        await tx.run('CREATE (:DbTest)');
        throw new Error('bad input');
      })
      .catch((e: Error) => e);
    expect((err as Error).message).to.equal('bad input');
    expect(attempts).to.equal(1);
    expect(await count()).to.equal(0);
  });

  it('surfaces a failing query as its Neo4j error, with nothing written', async () => {
    const err = await testDb()
      .write({ op: 'test' }, async (tx) => {
        await tx.run('CREATE (:DbTest)');
        await tx.run('RETURN 1/0');
      })
      .catch((e: { code?: string }) => e);
    expect((err as { code?: string }).code).to.equal('Neo.ClientError.Statement.ArithmeticError');
    expect(await count()).to.equal(0);
  });
});
