/**
 * Neo4j killed (SIGKILL) under load, with the service as `npm start` runs it: requests fail fast
 * with 503 + Retry-After while the service knows Neo4j is down (not after the driver's retry
 * budget), the supervisor restarts Neo4j, the service warms up and turns ready again by itself, and
 * no acknowledged event is lost. Slow (a Neo4j start and a restart). The figures at a larger scale:
 * `npm run bench:faults`.
 */
import { expect } from 'chai';
import { runFaultDrill, type DrillResult } from './support/fault-drill.js';
import { SHORT_LIVED_NEO4J_JVM_ARGS } from './support/process.js';

describe('faults: the local Neo4j killed under load', function () {
  this.timeout(600_000);
  let drill: DrillResult;

  before(async () => {
    drill = await runFaultDrill({
      producers: 16,
      loadBeforeKillMs: 4000,
      loadAfterReadyMs: 3000,
      recoveryTimeoutMs: 240_000,
      env: { NEO4J_LOCAL_JVM_ARGS: SHORT_LIVED_NEO4J_JVM_ARGS.join(' ') },
    });
  });

  it('refuses requests with 503 + Retry-After while Neo4j is down, fast rather than after the retry budget', () => {
    const during = drill.answers.filter(
      (a) => a.sentAt >= drill.killedAt && (drill.readyAgainAt === null || a.sentAt < drill.readyAgainAt),
    );
    const refused = during.filter((a) => a.status === 503);
    expect(refused.length, 'requests refused during the outage').to.be.greaterThan(0);
    for (const a of refused) {
      expect(a.retryAfter, 'Retry-After').to.match(/^\d+$/);
      expect(a.error).to.be.oneOf(['unavailable', 'overloaded']);
    }
    // Mechanism: the service knew Neo4j was down, so requests were refused without waiting for it.
    // (A generous bound that tells "refused at once" from "hung for the driver's 15-25 s".)
    const sentWhileKnownDown = refused.filter(
      (a) =>
        drill.readyzDownAt !== null &&
        a.sentAt > drill.readyzDownAt + 1000 &&
        (drill.neo4jBackAt === null || a.sentAt < drill.neo4jBackAt),
    );
    expect(sentWhileKnownDown.length, 'requests sent while the service knew Neo4j was down').to.be.greaterThan(0);
    expect(Math.max(...sentWhileKnownDown.map((a) => a.ms)), 'slowest refusal (ms)').to.be.lessThan(5000);
    // Nothing else: no 500, no hang (the client waits up to 120 s).
    expect(
      during.filter((a) => a.status !== 201 && a.status !== 503).map((a) => `${a.status} ${a.error}`),
    ).to.deep.equal([]);
  });

  it('/readyz and /metrics say Neo4j is down at once', () => {
    expect(drill.readyzDownAt, 'readyz 503 after the kill').to.be.a('number');
    expect(drill.readyzDownAt! - drill.killedAt).to.be.lessThan(5000);
    expect(drill.readyzDownBody).to.include({ neo4j: 'down' });
    expect(drill.metricsDuringOutage).to.match(/^lineage_neo4j_up 0$/m);
  });

  it('the supervisor restarts Neo4j, logs why it died, and the service turns ready again by itself', () => {
    expect(drill.readyAgainAt, 'ready again').to.be.a('number');
    expect(drill.metricsAfter).to.match(/^lineage_neo4j_restarts_total 1$/m);
    expect(drill.metricsAfter).to.match(/^lineage_neo4j_up 1$/m);
    expect(drill.log.join('\n')).to.match(/local Neo4j killed by SIGKILL/);
    expect(drill.log.join('\n')).to.include('local Neo4j is back');
    expect(drill.log.join('\n')).to.include('write path warmed up');
  });

  it('serves again once ready: the first POST is stored, and later events too', () => {
    expect(drill.firstPostAfterReady?.status).to.equal(201);
    const after = drill.answers.filter((a) => drill.readyAgainAt !== null && a.sentAt > drill.readyAgainAt);
    expect(after.filter((a) => a.status === 201).length).to.be.greaterThan(0);
  });

  it('loses no acknowledged event, and stops cleanly', () => {
    expect(drill.acknowledged).to.be.greaterThan(0);
    expect(drill.lostAcknowledged).to.deep.equal([]);
    expect(drill.exitCode).to.equal(0);
  });
});
