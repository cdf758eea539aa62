/**
 * npm run bench:new-entity-floor — what the graph that new-entity traffic (issue 22's onboarding shape)
 * makes costs Neo4j to write at all, against what the service's ingest statements cost to write it.
 *
 * In process, one Neo4j, alternating rounds on the same growing graph:
 * - a *service* round writes BENCH_FLOOR_EVENTS (4,000) events of jobs never seen before (bench:ingest-ab's
 *   new-entity generator: first runs, START + terminal event) through `writeEvents`, in transactions of 16
 *   events, two writers at once, as the service's committer does, but without HTTP;
 * - a *copy* round then writes a copy of exactly the nodes and relationships that the service round
 *   created (same labels, types, properties and endpoints; keys renamed so that they stay unique) with
 *   plain `UNWIND … CREATE`, the nodes found again by element id, no `MERGE`, no read of anything: the same
 *   number of transactions, two writers at once. That is the floor of writing this graph with this schema
 *   (its constraints and indexes included) on this machine: whatever the ingest statements do on top of it
 *   (finding what exists, idempotency, updates a later event makes, versions decided) costs more.
 *
 * Reported per round: events/s (the copy's events are the service round's), Neo4j's CPU per event (its
 * process, JIT and collector included), this process's CPU per event (the planner in a service round), and
 * the nodes and relationships per event by label and type. The first round pair is a warm-up (it also
 * creates the shared namespace and source nodes, which a copy could not create again under their keys).
 * Result: bench/results/new-entity-floor.json, or <BENCH_FLOOR_RESULT>.json.
 */
const { TrafficGenerator } = await import('./traffic.js');
const { machine, normalizedEvents, startBenchNeo4j, writeResult, cpuSpeedProbe, processCpuSeconds } = await import(
  './support.js'
);
const { createDriver } = await import('../src/neo4j/runtime.js');
const { Db } = await import('../src/store/db.js');
const { applySchema } = await import('../src/store/schema.js');
const { writeEvents } = await import('../src/store/ingest.js');
import type { NormalizedEvent } from '../src/domain/openlineage/types.js';

const ROUNDS = Number(process.env.BENCH_FLOOR_ROUNDS ?? 4);
const ROUND_EVENTS = Number(process.env.BENCH_FLOOR_EVENTS ?? 4_000);
const BATCH = 16;
const WRITERS = 2;
// The same length, so the copy's strings are the same size as the service's.
const SUFFIX = '-svc';
const COPY_SUFFIX = '-cpy';
// Ids: UUIDs (runs, versions) and SHA-256 digests in hex (stored events).
const ID = /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{64})$/;

type Props = Record<string, unknown>;
interface NodeRow {
  id: string;
  labels: string[];
  props: Props;
}
interface RelRow {
  id: string;
  type: string;
  from: string;
  to: string;
  props: Props;
}

interface CopyKind {
  /** Replaces SUFFIX in every string, so names stay unique. */
  suffix: string;
  /** Replaces an id's first character. */
  idPrefix: string;
  withColumns: boolean;
}
const FULL_COPY: CopyKind = { suffix: COPY_SUFFIX, idPrefix: 'z', withColumns: true };
const NO_COLUMNS_COPY: CopyKind = { suffix: '-nco', idPrefix: 'y', withColumns: false };

/** A string of the service's graph as it is in a copy: another namespace suffix, another id. */
function copied(value: unknown, kind: CopyKind): unknown {
  if (typeof value === 'string') {
    if (ID.test(value)) return `${kind.idPrefix}${value.slice(1)}`;
    return value.replaceAll(SUFFIX, kind.suffix);
  }
  if (Array.isArray(value)) return value.map((v) => copied(v, kind));
  return value;
}
const copiedProps = (props: Props, kind: CopyKind) =>
  Object.fromEntries(Object.entries(props).map(([k, v]) => [k, copied(v, kind)]));

async function main() {
  const neo4j = await startBenchNeo4j('new-entity-floor');
  const driver = createDriver(neo4j.uri, 'neo4j', '');
  const db = new Db(driver, 'neo4j', 600_000);
  const neo4jPid = neo4j.jvmPid!;
  try {
    const probeBefore = cpuSpeedProbe();
    await applySchema(db);
    const traffic = new TrafficGenerator({ pipelines: 10_000, jobsPerPipeline: 10, namespaceSuffix: SUFFIX });

    /** Runs `jobs` on WRITERS concurrent loops, each job one transaction, then `last`; rate and CPU per event. */
    async function timed(events: number, jobs: (() => Promise<void>)[], last?: () => Promise<void>) {
      const neo4jCpu0 = processCpuSeconds(neo4jPid);
      const ownCpu0 = process.cpuUsage();
      const start = performance.now();
      let next = 0;
      await Promise.all(
        Array.from({ length: WRITERS }, async () => {
          while (next < jobs.length) await jobs[next++]();
        }),
      );
      if (last) await last();
      const seconds = (performance.now() - start) / 1000;
      const own = process.cpuUsage(ownCpu0);
      return {
        events,
        eventsPerSecond: Math.round(events / seconds),
        neo4jCpuMsPerEvent: Math.round(((processCpuSeconds(neo4jPid) - neo4jCpu0) * 1000 * 100) / events) / 100,
        benchProcessCpuMsPerEvent: Math.round(((own.user + own.system) / 1000 / events) * 100) / 100,
      };
    }

    const allIds = async () =>
      db.read({ op: 'bench:new-entity-floor' }, async (tx) => {
        const nodes = await tx.run('MATCH (n) RETURN elementId(n) AS id');
        const rels = await tx.run('MATCH ()-[r]->() RETURN elementId(r) AS id');
        return {
          nodes: new Set(nodes.records.map((r) => r.get('id') as string)),
          rels: new Set(rels.records.map((r) => r.get('id') as string)),
        };
      });

    async function serviceRound(events: NormalizedEvent[]) {
      const jobs: (() => Promise<void>)[] = [];
      for (let i = 0; i < events.length; i += BATCH) {
        const items = events.slice(i, i + BATCH).map((event) => ({ event, receivedAt: new Date().toISOString() }));
        jobs.push(() =>
          db.write({ op: 'bench:new-entity-floor' }, async (tx) => {
            const last = await writeEvents(tx, items);
            if (last) await last.result;
          }),
        );
      }
      return { ...(await timed(events.length, jobs)), transactions: jobs.length };
    }

    /** What the last service round created: every node and relationship not there before it. */
    async function created(before: { nodes: Set<string>; rels: Set<string> }) {
      const after = await allIds();
      const nodeIds = [...after.nodes].filter((id) => !before.nodes.has(id));
      const relIds = [...after.rels].filter((id) => !before.rels.has(id));
      return db.read({ op: 'bench:new-entity-floor' }, async (tx) => {
        const nodes = await tx.run(
          'UNWIND $ids AS id MATCH (n) WHERE elementId(n) = id RETURN id, labels(n) AS labels, properties(n) AS props',
          { ids: nodeIds },
        );
        const rels = await tx.run(
          'UNWIND $ids AS id MATCH (a)-[r]->(b) WHERE elementId(r) = id ' +
            'RETURN id, type(r) AS type, elementId(a) AS from, elementId(b) AS to, properties(r) AS props',
          { ids: relIds },
        );
        return {
          nodes: nodes.records.map((r) => r.toObject() as unknown as NodeRow),
          rels: rels.records.map((r) => r.toObject() as unknown as RelRow),
        };
      });
    }

    async function copyRound(
      events: number,
      graph: { nodes: NodeRow[]; rels: RelRow[] },
      transactions: number,
      kind: CopyKind,
    ) {
      // A node with nothing to rename (the shared source, only ever made in round 0) is not copied: its
      // copy would break its key's constraint; the copy links to it as it is.
      // Without columns: no DatasetField node and no relationship of one.
      const isColumn = (n: NodeRow) => n.labels.includes('DatasetField');
      const nodes = graph.nodes.filter(
        (n) =>
          (kind.withColumns || !isColumn(n)) && JSON.stringify(copiedProps(n.props, kind)) !== JSON.stringify(n.props),
      );
      const columnIds = new Set(graph.nodes.filter(isColumn).map((n) => n.id));
      const rels = kind.withColumns
        ? graph.rels
        : graph.rels.filter((r) => !columnIds.has(r.from) && !columnIds.has(r.to));
      const chunkOf = new Map<string, number>();
      const nodeChunks: NodeRow[][] = Array.from({ length: transactions }, () => []);
      nodes.forEach((n, i) => {
        const chunk = Math.floor((i * transactions) / nodes.length);
        nodeChunks[chunk].push(n);
        chunkOf.set(n.id, chunk);
      });
      // A relationship is written by the first transaction that starts after both its ends are committed,
      // or that makes the ends itself (two writers: an end made by the other one may not be committed yet).
      // An end the round did not create exists already, and is linked as it is.
      const copyId = new Map<string, string>();
      const committed = new Set<number>();
      let pending = rels;
      const ready = (end: string, chunk: number) => {
        const c = chunkOf.get(end);
        return c === undefined || c === chunk || committed.has(c);
      };
      const endId = (id: string) => copyId.get(id) ?? id;
      let relationshipsWritten = 0;
      const writeChunk = (chunk: number) =>
        db
          .write({ op: 'bench:new-entity-floor' }, async (tx) => {
            const own = chunk < nodeChunks.length ? nodeChunks[chunk] : [];
            if (own.length > 0) {
              const result = await tx.run(
                'UNWIND $rows AS row CREATE (n:$(row.labels)) SET n = row.props ' +
                  'RETURN row.id AS id, elementId(n) AS copy',
                { rows: own.map((n) => ({ id: n.id, labels: n.labels, props: copiedProps(n.props, kind) })) },
              );
              for (const r of result.records) copyId.set(r.get('id'), r.get('copy'));
            }
            const now = pending.filter((r) => ready(r.from, chunk) && ready(r.to, chunk));
            pending = pending.filter((r) => !(ready(r.from, chunk) && ready(r.to, chunk)));
            if (now.length > 0) {
              const result = await tx.run(
                'UNWIND $rows AS row MATCH (a) WHERE elementId(a) = row.from MATCH (b) WHERE elementId(b) = row.to ' +
                  'CREATE (a)-[e:$(row.type)]->(b) SET e = row.props RETURN count(e) AS n',
                {
                  rows: now.map((r) => ({
                    from: endId(r.from),
                    to: endId(r.to),
                    type: r.type,
                    props: copiedProps(r.props, kind),
                  })),
                },
              );
              relationshipsWritten += Number(result.records[0].get('n'));
            }
          })
          .then(() => committed.add(chunk));
      const jobs = nodeChunks.map((_nodes, chunk) => () => writeChunk(chunk).then(() => undefined));
      // The relationships left when the last two transactions ran side by side.
      const timing = await timed(events, jobs, async () => {
        if (pending.length > 0) await writeChunk(nodeChunks.length);
      });
      if (relationshipsWritten !== rels.length)
        throw new Error(`copy wrote ${relationshipsWritten} of ${rels.length} relationships`);
      return { ...timing, transactions, nodes: nodes.length, relationships: rels.length };
    }

    const countBy = (keys: string[], events: number) => {
      const counts: Record<string, number> = {};
      for (const k of keys) counts[k] = (counts[k] ?? 0) + 1;
      return Object.fromEntries(
        Object.entries(counts)
          .sort((a, b) => b[1] - a[1])
          .map(([k, v]) => [k, Math.round((v / events) * 100) / 100]),
      );
    };

    /** UTF-8 bytes of string properties per event: in all, and the largest properties by label or type. */
    const stringBytes = (graph: { nodes: NodeRow[]; rels: RelRow[] }, events: number) => {
      const bytes = new Map<string, number>();
      const add = (owner: string, props: Props) => {
        for (const [k, v] of Object.entries(props)) {
          const n = typeof v === 'string' ? Buffer.byteLength(v) : 0;
          if (n > 0) bytes.set(`${owner}.${k}`, (bytes.get(`${owner}.${k}`) ?? 0) + n);
        }
      };
      for (const n of graph.nodes) add(n.labels.sort().join(':'), n.props);
      for (const r of graph.rels) add(r.type, r.props);
      const total = [...bytes.values()].reduce((a, b) => a + b, 0);
      return {
        total: Math.round(total / events),
        largest: Object.fromEntries(
          [...bytes]
            .sort((a, b) => b[1] - a[1])
            .slice(0, 15)
            .map(([k, v]) => [k, Math.round(v / events)]),
        ),
      };
    };

    const rounds = [];
    for (let round = 0; round < ROUNDS; round++) {
      const before = await allIds();
      const events = normalizedEvents(traffic.events(ROUND_EVENTS / 2));
      const service = await serviceRound(events);
      const graph = await created(before);
      const copy = await copyRound(events.length, graph, service.transactions, FULL_COPY);
      const copyWithoutColumns = await copyRound(events.length, graph, service.transactions, NO_COLUMNS_COPY);
      const entry = {
        round,
        warmUp: round === 0,
        service,
        copy,
        copyWithoutColumns,
        copyOverService: {
          eventsPerSecond: Math.round((copy.eventsPerSecond / service.eventsPerSecond) * 100) / 100,
          neo4jCpuPerEvent: Math.round((copy.neo4jCpuMsPerEvent / service.neo4jCpuMsPerEvent) * 100) / 100,
        },
        perEvent: {
          nodes: Math.round((graph.nodes.length / events.length) * 100) / 100,
          relationships: Math.round((graph.rels.length / events.length) * 100) / 100,
          nodesByLabels: countBy(
            graph.nodes.map((n) => n.labels.sort().join(':')),
            events.length,
          ),
          relationshipsByType: countBy(
            graph.rels.map((r) => r.type),
            events.length,
          ),
          stringBytes: stringBytes(graph, events.length),
        },
      };
      rounds.push(entry);
      console.log(
        `round ${round}: service ${service.eventsPerSecond} events/s, Neo4j ${service.neo4jCpuMsPerEvent} ms/event;` +
          ` copy ${copy.eventsPerSecond} events/s, Neo4j ${copy.neo4jCpuMsPerEvent} ms/event;` +
          ` without columns ${copyWithoutColumns.eventsPerSecond} events/s,` +
          ` Neo4j ${copyWithoutColumns.neo4jCpuMsPerEvent} ms/event;` +
          ` ${entry.perEvent.nodes} nodes, ${entry.perEvent.relationships} relationships per event`,
      );
    }
    const measured = rounds.filter((r) => !r.warmUp);
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const result = {
      benchmark: 'new-entity-floor',
      machine: { ...machine(), cpuSpeedProbe: [probeBefore, cpuSpeedProbe()] },
      method:
        `in process, one Neo4j; rounds of ${ROUND_EVENTS} new-entity events (first runs of jobs never seen) through ` +
        `writeEvents in transactions of ${BATCH}, ${WRITERS} writers, each followed by a copy of the nodes and ` +
        'relationships it created written with plain UNWIND CREATE in as many transactions; round 0 is a warm-up',
      median: {
        serviceEventsPerSecond: median(measured.map((r) => r.service.eventsPerSecond)),
        copyEventsPerSecond: median(measured.map((r) => r.copy.eventsPerSecond)),
        serviceNeo4jCpuMsPerEvent: median(measured.map((r) => r.service.neo4jCpuMsPerEvent)),
        copyNeo4jCpuMsPerEvent: median(measured.map((r) => r.copy.neo4jCpuMsPerEvent)),
        copyWithoutColumnsEventsPerSecond: median(measured.map((r) => r.copyWithoutColumns.eventsPerSecond)),
        copyWithoutColumnsNeo4jCpuMsPerEvent: median(measured.map((r) => r.copyWithoutColumns.neo4jCpuMsPerEvent)),
        serviceProcessCpuMsPerEvent: median(measured.map((r) => r.service.benchProcessCpuMsPerEvent)),
        copyOverServiceNeo4jCpu: median(measured.map((r) => r.copyOverService.neo4jCpuPerEvent)),
      },
      rounds,
    };
    console.log(JSON.stringify(result.median));
    console.log(`results: ${writeResult(process.env.BENCH_FLOOR_RESULT ?? 'new-entity-floor', result)}`);
  } finally {
    await driver.close();
    await neo4j.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
