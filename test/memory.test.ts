/**
 * The memory settings (src/memory.ts) are applied by the service process itself, however it is
 * started: its start-up log and /metrics say which are in effect. A process pointed at a Neo4j that
 * does not answer still listens (unready), which is all this needs.
 */
import { expect } from 'chai';
import { findFreePort } from '../src/free-port.js';
import { startServer, until, type ServerProcess } from './support/process.js';

async function metricsOf(env: Record<string, string>): Promise<{ metrics: string; log: string }> {
  const port = await findFreePort();
  const boltPort = await findFreePort();
  const proc: ServerProcess = startServer({
    LOG_FORMAT: 'json',
    HOST: '127.0.0.1',
    PORT: String(port),
    NEO4J_URI: `bolt://127.0.0.1:${boltPort}`,
    ...env,
  });
  try {
    await until(
      'the service to listen',
      () => proc.output().includes('lineage service listening') || proc.child.exitCode !== null,
      60_000,
    );
    expect(proc.child.exitCode, proc.output()).to.equal(null);
    const metrics = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    return { metrics, log: proc.output() };
  } finally {
    proc.child.kill('SIGKILL');
    await proc.exited;
  }
}

const gauge = (metrics: string, name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(metrics)?.[1]);

describe('memory settings of the service process', function () {
  this.timeout(120_000);

  it('applies HEAP_GROWTH_PERCENT (default 50), reported with the heap limit in the log and /metrics', async () => {
    // Two processes at once.
    const [byDefault, set] = await Promise.all([metricsOf({}), metricsOf({ HEAP_GROWTH_PERCENT: '35' })]);
    expect(gauge(byDefault.metrics, 'lineage_heap_growth_percent')).to.equal(50);
    expect(byDefault.log).to.match(/"heapGrowthPercent":50,"heapSizeLimitMiB":\d+.*"msg":"memory settings"/);

    expect(gauge(set.metrics, 'lineage_heap_growth_percent')).to.equal(35);
    expect(gauge(set.metrics, 'lineage_heap_size_limit_bytes')).to.be.greaterThan(0);
  });

  it('leaves V8 its own heap growth with HEAP_GROWTH_PERCENT=0', async () => {
    const off = await metricsOf({ HEAP_GROWTH_PERCENT: '0' });
    expect(gauge(off.metrics, 'lineage_heap_growth_percent')).to.equal(0);
  });
});
