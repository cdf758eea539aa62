/**
 * npm run bench:column-cost — what a new dataset's columns cost Neo4j to write, by how they are stored.
 * bench:new-entity-floor found the `DatasetField` nodes and their `HAS_FIELD` to be about half of what the
 * graph of new-entity traffic costs to write at all; this prices the ways a column could be kept:
 * - `keyedNodes`: as the service keeps them (cypher/README.md): a `DatasetField` node per column with
 *   `namespace`, `dataset`, `name`, `type`, `description` under the `dataset_field_key` constraint, and
 *   its `HAS_FIELD`;
 * - `unkeyedNodes`: the same nodes and properties under a label with no constraint or index;
 * - `slimNodes`: nodes with `name`, `type`, `description` only, no constraint (the dataset they belong to
 *   known only from their `HAS_FIELD`);
 * - `lists`: no node, three list properties on the dataset (names, types, descriptions);
 * - `none`: the dataset alone, the baseline every other variant is measured against.
 *
 * On a fresh Neo4j with the service's dataset constraints, alternating rounds of BENCH_COLUMN_TRANSACTIONS
 * (100) committed transactions per variant, each creating 16 new datasets (a batch of new-entity events
 * makes about one each) of 5-50 columns, half of them described, one client. Reported: Neo4j's CPU per
 * dataset and, over the baseline, per column, the median of the rounds after the first ones.
 * Result: bench/results/column-cost.json.
 */
const { machine, startBenchNeo4j, writeResult, cpuSpeedProbe, processCpuSeconds } = await import('./support.js');
const { rng } = await import('./traffic.js');
const { createDriver } = await import('../src/neo4j/runtime.js');

const TRANSACTIONS = Number(process.env.BENCH_COLUMN_TRANSACTIONS ?? 100);
const DATASETS_PER_TRANSACTION = 16;
const ROUNDS = 8;
const DISCARDED_ROUNDS = 2;
const NAMESPACE = 'postgres://warehouse.internal:5432';
const TYPES = ['VARCHAR', 'BIGINT', 'INTEGER', 'DOUBLE', 'TIMESTAMP', 'BOOLEAN', 'DATE', 'DECIMAL(18,2)'];

const DATASET = 'CREATE (d:Dataset {namespace: x.namespace, name: x.name, createdAt: x.createdAt})';
const VARIANTS: Record<string, string> = {
  none: `UNWIND $datasets AS x ${DATASET}`,
  keyedNodes:
    `UNWIND $datasets AS x ${DATASET} WITH d, x UNWIND x.fields AS f ` +
    'CREATE (d)-[:HAS_FIELD]->(:DatasetField {namespace: x.namespace, dataset: x.name, name: f.name, ' +
    'type: f.type, description: f.description})',
  unkeyedNodes:
    `UNWIND $datasets AS x ${DATASET} WITH d, x UNWIND x.fields AS f ` +
    'CREATE (d)-[:HAS_FIELD]->(:UnkeyedField {namespace: x.namespace, dataset: x.name, name: f.name, ' +
    'type: f.type, description: f.description})',
  slimNodes:
    `UNWIND $datasets AS x ${DATASET} WITH d, x UNWIND x.fields AS f ` +
    'CREATE (d)-[:HAS_FIELD]->(:SlimField {name: f.name, type: f.type, description: f.description})',
  lists:
    `UNWIND $datasets AS x ${DATASET} ` +
    'SET d.fieldNames = [f IN x.fields | f.name], d.fieldTypes = [f IN x.fields | f.type], ' +
    "d.fieldDescriptions = [f IN x.fields | coalesce(f.description, '')]",
};

async function main() {
  const neo4j = await startBenchNeo4j('column-cost');
  const driver = createDriver(neo4j.uri, 'neo4j', '');
  const session = driver.session();
  const pid = neo4j.jvmPid!;
  try {
    const probeBefore = cpuSpeedProbe();
    await session.run(
      'CREATE CONSTRAINT dataset_key IF NOT EXISTS FOR (d:Dataset) REQUIRE (d.namespace, d.name) IS UNIQUE',
    );
    await session.run(
      'CREATE CONSTRAINT dataset_field_key IF NOT EXISTS FOR (f:DatasetField) ' +
        'REQUIRE (f.namespace, f.dataset, f.name) IS UNIQUE',
    );
    const rand = rng(7);
    let made = 0;
    const batch = () =>
      Array.from({ length: DATASETS_PER_TRANSACTION }, () => {
        const name = `analytics.pipeline_${made % 1000}.stage_${made++}`;
        const n = 5 + Math.floor(rand() * 46);
        return {
          namespace: NAMESPACE,
          name,
          createdAt: new Date().toISOString(),
          fields: Array.from({ length: n }, (_, i) => ({
            name: `col_${i}_${name.length % 7}`,
            type: TYPES[Math.floor(rand() * TYPES.length)],
            description:
              rand() < 0.5 ? `Column ${i} of ${name}, documented by the owning team for downstream consumers.` : null,
          })),
        };
      });
    const samples: Record<string, { cpuMsPerDataset: number; columnsPerDataset: number }[]> = Object.fromEntries(
      Object.keys(VARIANTS).map((name) => [name, []]),
    );
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, text] of Object.entries(VARIANTS)) {
        const batches = Array.from({ length: TRANSACTIONS }, batch);
        const columns = batches.flat().reduce((sum, d) => sum + d.fields.length, 0);
        const cpu0 = processCpuSeconds(pid);
        for (const datasets of batches)
          await session.executeWrite((tx) => tx.run(`CYPHER replan=skip ${text}`, { datasets }));
        const datasets = TRANSACTIONS * DATASETS_PER_TRANSACTION;
        samples[name].push({
          cpuMsPerDataset: ((processCpuSeconds(pid) - cpu0) * 1000) / datasets,
          columnsPerDataset: columns / datasets,
        });
      }
      console.log(
        `round ${round}: ${Object.entries(samples)
          .map(([name, s]) => `${name} ${s[round].cpuMsPerDataset.toFixed(3)}`)
          .join(', ')} ms per dataset`,
      );
    }
    const median = (xs: number[]) => {
      const s = [...xs].sort((a, b) => a - b);
      return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    };
    const kept = (name: string) => samples[name].slice(DISCARDED_ROUNDS);
    const none = median(kept('none').map((s) => s.cpuMsPerDataset));
    const variants = Object.fromEntries(
      Object.keys(VARIANTS).map((name) => {
        const perDataset = median(kept(name).map((s) => s.cpuMsPerDataset));
        const columns = median(kept(name).map((s) => s.columnsPerDataset));
        return [
          name,
          {
            neo4jCpuMsPerDataset: Math.round(perDataset * 1000) / 1000,
            overBaselineUsPerColumn: name === 'none' ? 0 : Math.round(((perDataset - none) / columns) * 1000 * 10) / 10,
          },
        ];
      }),
    );
    const result = {
      benchmark: 'column-cost',
      machine: { ...machine(), cpuSpeedProbe: [probeBefore, cpuSpeedProbe()] },
      method:
        `one client, ${ROUNDS} alternating rounds (the first ${DISCARDED_ROUNDS} discarded) of ${TRANSACTIONS} ` +
        `committed transactions per variant, ${DATASETS_PER_TRANSACTION} new datasets of 5-50 columns each; ` +
        "Neo4j's process CPU (JIT and collector included)",
      variants,
      rounds: samples,
    };
    console.log(JSON.stringify(variants));
    console.log(`results: ${writeResult(process.env.BENCH_COLUMN_RESULT ?? 'column-cost', result)}`);
  } finally {
    await session.close();
    await driver.close();
    await neo4j.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
