/**
 * npm run bench:seek-cost — what finding a node costs Neo4j, by the way it is found: by its unique
 * key (what every ingest stage does for the runs, jobs and datasets it touches) or by the element id
 * an earlier statement of the same transaction returned. It bounds what stages that hand found nodes
 * on to each other could save (docs/performance/ingest-journal.md).
 *
 * On a fresh Neo4j: 100,000 runs and 100,000 datasets with the service's key shapes, then statements of
 * BENCH_SEEK_ROWS (800) rows, each in a transaction rolled back, in alternating rounds: the rows alone
 * (the baseline), then each way of finding the row's node, without and with a property write. The
 * result is the median time per statement over the last rounds and, against the baseline, per row.
 * One client, so the time is Neo4j's (and the driver's packing of the same rows in every variant).
 * Result: bench/results/seek-cost.json.
 */
const { machine, startBenchNeo4j, writeResult, cpuSpeedProbe } = await import('./support.js');
const { createDriver } = await import('../src/neo4j/runtime.js');

const ROWS = Number(process.env.BENCH_SEEK_ROWS ?? 800);
const NODES = 100_000;
const ROUNDS = 14;
const DISCARDED_ROUNDS = 4;
const STATEMENTS_PER_ROUND = 10;

const VARIANTS: Record<string, string> = {
  rowsOnly: 'UNWIND $rows AS x RETURN count(x) AS c',
  runByKey: 'UNWIND $rows AS x MATCH (r:Run {id: x.id}) RETURN count(r) AS c',
  runByElementId: 'UNWIND $rows AS x MATCH (r:Run) WHERE elementId(r) = x.runEid RETURN count(r) AS c',
  datasetByKey: 'UNWIND $rows AS x MATCH (d:Dataset {namespace: x.namespace, name: x.name}) RETURN count(d) AS c',
  datasetByElementId: 'UNWIND $rows AS x MATCH (d:Dataset) WHERE elementId(d) = x.datasetEid RETURN count(d) AS c',
  datasetByKeyThenSet:
    'UNWIND $rows AS x MATCH (d:Dataset {namespace: x.namespace, name: x.name}) SET d.touched = 1 RETURN count(d) AS c',
  datasetByElementIdThenSet:
    'UNWIND $rows AS x MATCH (d:Dataset) WHERE elementId(d) = x.datasetEid SET d.touched = 1 RETURN count(d) AS c',
};

const runId = (i: number) => `8f0c${String(i).padStart(8, '0')}-0b1c-4d3e-8f5a-6b7c8d9e0f1a`;
const datasetName = (i: number) => `warehouse.schema_${i % 50}.table_${i}`;

async function main() {
  const neo4j = await startBenchNeo4j('seek-cost');
  const driver = createDriver(neo4j.uri, 'neo4j', '');
  const session = driver.session();
  try {
    const probeBefore = cpuSpeedProbe();
    await session.run('CREATE CONSTRAINT run_id IF NOT EXISTS FOR (r:Run) REQUIRE r.id IS UNIQUE');
    await session.run(
      'CREATE CONSTRAINT dataset_key IF NOT EXISTS FOR (d:Dataset) REQUIRE (d.namespace, d.name) IS UNIQUE',
    );
    for (let from = 0; from < NODES; from += 10_000) {
      const nodes = Array.from({ length: 10_000 }, (_, k) => ({ id: runId(from + k), name: datasetName(from + k) }));
      await session.run(
        'UNWIND $nodes AS n CREATE (:Run {id: n.id}), ' +
          "(:Dataset {namespace: 'postgres://warehouse:5432', name: n.name})",
        { nodes },
      );
    }
    const picks = Array.from({ length: ROWS }, () => Math.floor(Math.random() * NODES));
    const rows = picks.map((i) => ({ id: runId(i), namespace: 'postgres://warehouse:5432', name: datasetName(i) }));
    const runEids = (
      await session.run('UNWIND $rows AS x MATCH (r:Run {id: x.id}) RETURN elementId(r) AS e', { rows })
    ).records.map((r) => r.get('e') as string);
    const datasetEids = (
      await session.run(
        'UNWIND $rows AS x MATCH (d:Dataset {namespace: x.namespace, name: x.name}) RETURN elementId(d) AS e',
        { rows },
      )
    ).records.map((r) => r.get('e') as string);
    const params = { rows: rows.map((row, i) => ({ ...row, runEid: runEids[i], datasetEid: datasetEids[i] })) };

    const times: Record<string, number[]> = Object.fromEntries(Object.keys(VARIANTS).map((name) => [name, []]));
    for (let round = 0; round < ROUNDS; round++)
      for (const [name, text] of Object.entries(VARIANTS)) {
        const start = process.hrtime.bigint();
        for (let k = 0; k < STATEMENTS_PER_ROUND; k++) {
          const tx = session.beginTransaction();
          const result = await tx.run(`CYPHER replan=skip ${text}`, params);
          const found = Number(result.records[0].get('c'));
          await tx.rollback();
          if (found !== ROWS) throw new Error(`${name} found ${found} of ${ROWS} rows`);
        }
        times[name].push(Number(process.hrtime.bigint() - start) / 1e6 / STATEMENTS_PER_ROUND);
      }
    const median = (xs: number[]) => {
      const sorted = xs.slice(DISCARDED_ROUNDS).sort((a, b) => a - b);
      return sorted[Math.floor(sorted.length / 2)];
    };
    const base = median(times.rowsOnly);
    const variants = Object.fromEntries(
      Object.entries(times).map(([name, t]) => {
        const ms = median(t);
        return [name, { msPerStatement: round2(ms), usPerRowOverRowsOnly: round2(((ms - base) * 1000) / ROWS) }];
      }),
    );
    const result = {
      benchmark: 'seek-cost',
      machine: { ...machine(), cpuSpeedProbe: [probeBefore, cpuSpeedProbe()] },
      method:
        `${NODES} runs and ${NODES} datasets; statements of ${ROWS} rows, each in a transaction rolled back; ` +
        `${ROUNDS} alternating rounds of ${STATEMENTS_PER_ROUND} statements a variant, the first ` +
        `${DISCARDED_ROUNDS} discarded; median per statement, and per row over the rows-only statement`,
      variants,
    };
    console.log(variants);
    console.log(`results: ${writeResult(process.env.BENCH_SEEK_RESULT ?? 'seek-cost', result)}`);
  } finally {
    await session.close();
    await driver.close();
    await neo4j.stop();
  }
}

function round2(x: number): number {
  return Math.round(x * 100) / 100;
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
