import { expect } from 'chai';
import { testDb, wipe } from '../helper.js';
import { applySchema, schemaStatements } from '../../src/store/schema.js';

describe('graph schema', () => {
  let db: ReturnType<typeof testDb>;
  before(() => {
    db = testDb();
  });

  async function schemaNames(): Promise<string[]> {
    const c = await db.read({ op: 'test' }, (tx) => tx.run('SHOW CONSTRAINTS YIELD name RETURN name'));
    const i = await db.read({ op: 'test' }, (tx) =>
      tx.run(
        "SHOW INDEXES YIELD name, owningConstraint WHERE owningConstraint IS NULL AND name <> 'index_343aff4e' AND " +
          "name <> 'index_f7700477' RETURN name",
      ),
    );
    return [...c.records, ...i.records].map((r) => r.get('name') as string).sort();
  }

  it('applies every constraint and index, and applying again changes nothing', async () => {
    const n = await applySchema(db);
    expect(n).to.equal(schemaStatements().length);
    const first = await schemaNames();
    expect(first).to.include.members([
      'dataset_key',
      'job_key',
      'run_id',
      'dataset_version_id',
      'job_version_id',
      'namespace_name',
    ]);
    await applySchema(db);
    expect(await schemaNames()).to.deep.equal(first);
  });

  it('applies on a database that already holds data, and the constraints hold', async () => {
    await wipe(db);
    await db.write({ op: 'test' }, (tx) => tx.run("CREATE (:Dataset {namespace: 'ns', name: 'd'})"));
    await applySchema(db);
    let error: any = null;
    try {
      await db.write({ op: 'test' }, (tx) => tx.run("CREATE (:Dataset {namespace: 'ns', name: 'd'})"));
    } catch (err) {
      error = err;
    }
    expect(error?.code).to.equal('Neo.ClientError.Schema.ConstraintValidationFailed');
    await wipe(db);
  });
});
