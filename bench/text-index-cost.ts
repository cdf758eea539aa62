/**
 * npm run bench:text-index-cost — what a TEXT index (the `searchName` indexes of datasets and jobs that
 * serve GET /api/v1/search) costs Neo4j when nodes it indexes are created, by transaction size: a cost
 * per transaction that touches the index would make it a large part of new-entity ingestion, whose
 * transactions each create a few jobs and datasets.
 *
 * On a fresh Neo4j: label `Plain` with a two-property unique constraint (the dataset key's shape), label
 * `Searchable` with the same constraint and a TEXT index on `searchName`. Alternating rounds create
 * BENCH_TEXT_NODES (1,600) nodes of each label in committed transactions of 1, 16 and 64 nodes, one client.
 * Reported: Neo4j's CPU per node by label and transaction size (the median of the rounds after the first
 * ones), and what the index adds per node and per transaction. Result: bench/results/text-index-cost.json.
 */
const { machine, startBenchNeo4j, writeResult, cpuSpeedProbe, processCpuSeconds } = await import('./support.js');
const { createDriver } = await import('../src/neo4j/runtime.js');

const NODES = Number(process.env.BENCH_TEXT_NODES ?? 1_600);
const SIZES = [1, 16, 64];
const LABELS = ['Plain', 'Searchable'];
const ROUNDS = 10;
const DISCARDED_ROUNDS = 3;

async function main() {
  const neo4j = await startBenchNeo4j('text-index-cost');
  const driver = createDriver(neo4j.uri, 'neo4j', '');
  const session = driver.session();
  const pid = neo4j.jvmPid!;
  try {
    const probeBefore = cpuSpeedProbe();
    for (const label of LABELS)
      await session.run(
        `CREATE CONSTRAINT key_${label} IF NOT EXISTS FOR (n:${label}) REQUIRE (n.namespace, n.name) IS UNIQUE`,
      );
    await session.run('CREATE TEXT INDEX search_name IF NOT EXISTS FOR (n:Searchable) ON (n.searchName)');
    await session.run('CALL db.awaitIndexes(300)');
    let made = 0;
    const samples: Record<string, number[]> = {};
    for (let round = 0; round < ROUNDS; round++) {
      for (const size of SIZES)
        for (const label of LABELS) {
          const key = `${label}/${size}`;
          samples[key] ??= [];
          const cpu0 = processCpuSeconds(pid);
          for (let t = 0; t < NODES / size; t++) {
            const rows = Array.from({ length: size }, () => {
              const name = `analytics.pipeline_${made % 977}.stage_${made++}`;
              return { namespace: 'postgres://warehouse.internal:5432', name, searchName: name.toLowerCase() };
            });
            await session.executeWrite((tx) =>
              tx.run(`CYPHER replan=skip UNWIND $rows AS x CREATE (n:${label}) SET n = x`, { rows }),
            );
          }
          samples[key].push(((processCpuSeconds(pid) - cpu0) * 1000) / NODES);
        }
      console.log(
        `round ${round}: ${Object.entries(samples)
          .map(([k, v]) => `${k} ${v[round].toFixed(3)}`)
          .join(', ')} ms per node`,
      );
    }
    const median = (xs: number[]) => {
      const s = [...xs].sort((a, b) => a - b);
      return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    };
    const perNode = (key: string) => median(samples[key].slice(DISCARDED_ROUNDS));
    const round3 = (x: number) => Math.round(x * 1000) / 1000;
    const bySize = Object.fromEntries(
      SIZES.map((size) => {
        const plain = perNode(`Plain/${size}`);
        const searchable = perNode(`Searchable/${size}`);
        return [
          `${size} per transaction`,
          {
            plainMsPerNode: round3(plain),
            searchableMsPerNode: round3(searchable),
            indexAddsMsPerNode: round3(searchable - plain),
            indexAddsMsPerTransaction: round3((searchable - plain) * size),
          },
        ];
      }),
    );
    const result = {
      benchmark: 'text-index-cost',
      machine: { ...machine(), cpuSpeedProbe: [probeBefore, cpuSpeedProbe()] },
      method:
        `one client, ${ROUNDS} alternating rounds (the first ${DISCARDED_ROUNDS} discarded) of ${NODES} nodes per ` +
        "label and transaction size, committed; Neo4j's process CPU (JIT and collector included)",
      bySize,
      rounds: samples,
    };
    console.log(JSON.stringify(bySize));
    console.log(`results: ${writeResult(process.env.BENCH_TEXT_RESULT ?? 'text-index-cost', result)}`);
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
