/**
 * A generator of realistic OpenLineage traffic: pipelines of jobs chained through shared datasets
 * (so lineage connects), a START and a terminal event per run (about 5% FAIL), schema facets of 5-50
 * fields, SQL, source-code and parent facets, giving events of roughly 1-15 KB.
 */
import { randomUUID } from 'node:crypto';

const PRODUCER = 'https://github.com/OpenLineage/OpenLineage/tree/1.24.0/integration/airflow';
/** Runs in progress at any time: a run's terminal event follows this many later STARTs. */
const RUNNING_JOBS = 64;
const TYPES = ['INTEGER', 'BIGINT', 'VARCHAR', 'TIMESTAMP', 'DECIMAL(18,2)', 'BOOLEAN', 'DATE', 'JSONB'];

/** Deterministic PRNG so runs are comparable. */
export function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function facet(body: Record<string, unknown>, name: string) {
  return {
    _producer: PRODUCER,
    _schemaURL: `https://openlineage.io/spec/facets/1-0-0/${name}.json#/$defs/${name}`,
    ...body,
  };
}

interface Dataset {
  namespace: string;
  name: string;
  fields: { name: string; type: string; description: string }[];
}

export interface TrafficOptions {
  pipelines: number;
  jobsPerPipeline: number;
  seed?: number;
  /** Appended to the job and dataset namespaces: generators with different suffixes share no job or dataset. */
  namespaceSuffix?: string;
}

export class TrafficGenerator {
  private readonly rand: () => number;
  private readonly datasets: Dataset[][] = [];
  private readonly startTime = Date.parse('2024-06-01T00:00:00Z');
  /** Runs generated so far. */
  private emitted = 0;
  /** Terminal events of the runs still going. */
  private readonly running: Record<string, unknown>[] = [];

  constructor(private readonly opts: TrafficOptions) {
    this.rand = rng(opts.seed ?? 42);
    // Stage k of pipeline p reads stage k-1 (and sometimes a shared dimension) and writes stage k.
    for (let p = 0; p < opts.pipelines; p++) {
      const stages: Dataset[] = [];
      for (let k = 0; k <= opts.jobsPerPipeline; k++) stages.push(this.dataset(`pipeline_${p}.stage_${k}`));
      this.datasets.push(stages);
    }
  }

  private dataset(name: string): Dataset {
    const n = 5 + Math.floor(this.rand() * 46);
    const fields = Array.from({ length: n }, (_, i) => ({
      name: `col_${i}_${name.length % 7}`,
      type: TYPES[Math.floor(this.rand() * TYPES.length)],
      description:
        this.rand() < 0.5 ? `Column ${i} of ${name}, documented by the owning team for downstream consumers.` : '',
    }));
    return {
      namespace: `postgres://warehouse.internal:5432${this.opts.namespaceSuffix ?? ''}`,
      name: `analytics.${name}`,
      fields,
    };
  }

  private ds(d: Dataset, withSchema: boolean) {
    const facets: Record<string, unknown> = {
      dataSource: facet({ name: 'warehouse', uri: 'postgres://warehouse.internal:5432' }, 'DatasourceDatasetFacet'),
    };
    if (withSchema) facets.schema = facet({ fields: d.fields }, 'SchemaDatasetFacet');
    return { namespace: d.namespace, name: d.name, facets };
  }

  /** The START and terminal events of one run of job k of pipeline p. */
  run(p: number, k: number, time: number): Record<string, unknown>[] {
    const stages = this.datasets[p];
    const runId = randomUUID();
    const shared = this.datasets[(p + 1) % this.datasets.length][0];
    const inputs = [this.ds(stages[k], true), ...(this.rand() < 0.3 ? [this.ds(shared, false)] : [])];
    const outputs = [this.ds(stages[k + 1], true)];
    const job = {
      namespace: `airflow-prod${this.opts.namespaceSuffix ?? ''}`,
      name: `pipeline_${p}.task_${k}`,
      facets: {
        sql: facet(
          {
            query:
              `INSERT INTO ${stages[k + 1].name} SELECT ${stages[k].fields.map((f) => f.name).join(', ')} FROM ` +
              `${stages[k].name}`,
          },
          'SQLJobFacet',
        ),
        sourceCodeLocation: facet(
          { type: 'git', url: `https://git.example.com/data/pipelines/blob/main/pipeline_${p}.py` },
          'SourceCodeLocationJobFacet',
        ),
        jobType: facet({ processingType: 'BATCH', integration: 'AIRFLOW', jobType: 'TASK' }, 'JobTypeJobFacet'),
      },
    };
    const parent = facet(
      {
        run: { runId: randomUUID() },
        job: { namespace: `airflow-prod${this.opts.namespaceSuffix ?? ''}`, name: `pipeline_${p}` },
      },
      'ParentRunFacet',
    );
    const base = {
      producer: PRODUCER,
      schemaURL: 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent',
      job,
    };
    const failed = this.rand() < 0.05;
    return [
      {
        ...base,
        eventType: 'START',
        eventTime: new Date(time).toISOString(),
        run: { runId, facets: { parent } },
        inputs,
        outputs: [],
      },
      {
        ...base,
        eventType: failed ? 'FAIL' : 'COMPLETE',
        eventTime: new Date(time + 30_000 + Math.floor(this.rand() * 600_000)).toISOString(),
        run: { runId, facets: { parent } },
        inputs: [],
        outputs: failed ? [] : outputs,
      },
    ];
  }

  /**
   * The events of the next `runs` runs (START before its terminal event, which comes after the STARTs
   * of the next RUNNING_JOBS runs, so the stream interleaves many running jobs). Successive calls
   * continue where the last one stopped: the clock moves on and every job of every pipeline takes its
   * turn, so later calls are new runs of existing jobs, as in a service that has been up for a while.
   */
  events(runs: number): Record<string, unknown>[] {
    const out: Record<string, unknown>[] = [];
    for (let n = 0; n < runs; n++, this.emitted++) {
      const i = this.emitted;
      const p = i % this.opts.pipelines;
      const k = Math.floor(i / this.opts.pipelines) % this.opts.jobsPerPipeline;
      const [start, end] = this.run(p, k, this.startTime + i * 1000);
      out.push(start);
      // Jobs take a while: a run's terminal event comes after the STARTs of the runs begun meanwhile.
      this.running.push(end);
      if (this.running.length > RUNNING_JOBS) out.push(this.running.shift()!);
    }
    return out;
  }
}
