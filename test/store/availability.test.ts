import { expect } from 'chai';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { createDriver } from '../../src/neo4j/runtime.js';
import { Db, PingTimeout, TransactionDeadlineExceeded } from '../../src/store/db.js';
import { Neo4jAvailability, Neo4jUnavailable, isConfigurationError } from '../../src/neo4j/availability.js';
import { healsByItself } from '../../src/server.js';
import { findFreePort } from '../../src/free-port.js';
import { testDriver } from '../helper.js';

/**
 * A Bolt "server" that completes the handshake and answers SUCCESS to HELLO and LOGON, then never
 * answers again: a hung or stopped Neo4j, as seen from the driver.
 */
async function silentBoltServer(): Promise<{ uri: string; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  // SUCCESS {} : chunk of 3 bytes (B1 70 A0), then the 00 00 end marker.
  const success = Buffer.from([0x00, 0x03, 0xb1, 0x70, 0xa0, 0x00, 0x00]);
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let handshaken = false;
    let answered = 0;
    socket.on('data', (data: Buffer) => {
      if (!handshaken) {
        handshaken = true;
        // Bolt 5.0: HELLO carries everything, one SUCCESS is enough.
        socket.write(Buffer.from([0x00, 0x00, 0x00, 0x05]));
        return;
      }
      // Answer HELLO (and LOGON, if any) once each; everything after stays unanswered.
      if (answered < 1 && data.length > 0) {
        answered++;
        socket.write(success);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    uri: `bolt://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe('Neo4j availability: fail fast while down, heal by itself', () => {
  it(
    'a refused connection marks Neo4j down; transactions then fail at once with Neo4jUnavailable, without the retry ' +
      'budget',
    async () => {
      const port = await findFreePort();
      const driver = createDriver(`bolt://127.0.0.1:${port}`, 'neo4j', '');
      const db = new Db(driver, 'neo4j', 10_000, { probeIntervalMs: 60_000 });
      try {
        const t0 = performance.now();
        const first = await db.read({ op: 'test' }, (tx) => tx.run('RETURN 1')).catch((e: unknown) => e);
        expect(first).to.be.instanceOf(Neo4jUnavailable);
        expect(db.availability.isDown).to.equal(true);
        // The driver's own retry budget (15 s of reconnect attempts) was not spent.
        expect(performance.now() - t0).to.be.lessThan(5000);
        const outages = db.availability.outages;
        const second = await db.write({ op: 'test' }, (tx) => tx.run('RETURN 1')).catch((e: unknown) => e);
        expect(second).to.be.instanceOf(Neo4jUnavailable);
        expect((second as Error).message).to.match(/unavailable/);
        expect(db.availability.outages, 'the same outage').to.equal(outages);
      } finally {
        db.availability.close();
        await driver.close();
      }
    },
  );

  it('marked down, it probes Neo4j and is up again as soon as Neo4j answers; listeners hear both', async () => {
    const db = new Db(testDriver(), process.env.TEST_NEO4J_DATABASE ?? 'neo4j', 10_000, { probeIntervalMs: 100 });
    const changes: string[] = [];
    db.availability.onChange((up) => changes.push(up ? 'up' : 'down'));
    try {
      db.availability.markDown('test: the local Neo4j exited');
      const refused = await db.read({ op: 'test' }, (tx) => tx.run('RETURN 1')).catch((e: unknown) => e);
      expect(refused).to.be.instanceOf(Neo4jUnavailable);
      expect((refused as Error).message).to.include('the local Neo4j exited');
      for (let i = 0; i < 100 && db.availability.isDown; i++) await new Promise((r) => setTimeout(r, 50));
      expect(db.availability.isDown).to.equal(false);
      const res = await db.read({ op: 'test' }, (tx) => tx.run('RETURN 1 AS one'));
      expect(res.records[0].get('one').toNumber()).to.equal(1);
      expect(changes).to.deep.equal(['down', 'up']);
    } finally {
      db.availability.close();
    }
  });

  it(
    'a server that stops answering: the transaction is answered within its timeout and a grace period, not ' + 'never',
    async () => {
      const silent = await silentBoltServer();
      const driver = createDriver(silent.uri, 'neo4j', '');
      const db = new Db(driver, 'neo4j', 500);
      try {
        const t0 = performance.now();
        const err = await db.read({ op: 'test hang' }, (tx) => tx.run('RETURN 1')).catch((e: unknown) => e);
        // The server accepted the session and went silent: the deadline answers (timeout + grace), never a hang.
        expect(err, String(err)).to.be.instanceOf(TransactionDeadlineExceeded);
        expect(performance.now() - t0).to.be.lessThan(15_000);
      } finally {
        db.availability.close();
        await silent.close();
        await driver.close().catch(() => undefined);
      }
    },
  );

  it('a heartbeat left unanswered counts as down only after several in a row; a refused one at once', async () => {
    let answer: 'ok' | 'timeout' | 'refused' = 'timeout';
    const ping = async () => {
      if (answer === 'ok') return;
      const err =
        answer === 'refused'
          ? Object.assign(new Error('connect ECONNREFUSED'), { code: 'ServiceUnavailable' })
          : new Error('no answer within 1000 ms');
      throw err;
    };
    const a = new Neo4jAvailability(ping, { heartbeatMs: 10, heartbeatMisses: 3, probeIntervalMs: 10 });
    try {
      a.startHeartbeat();
      await new Promise((r) => setTimeout(r, 15));
      expect(a.isDown, 'one miss').to.equal(false);
      await new Promise((r) => setTimeout(r, 200));
      expect(a.isDown, 'three misses in a row').to.equal(true);
      answer = 'ok';
      await new Promise((r) => setTimeout(r, 100));
      expect(a.isDown).to.equal(false);
      answer = 'refused';
      expect(await a.check()).to.equal(false);
      expect(a.isDown, 'refused: down at once').to.equal(true);
    } finally {
      a.close();
    }
  });

  it('a held Db refuses all work with Neo4jUnavailable; its start-up view works; release lifts it', async () => {
    const db = new Db(testDriver(), process.env.TEST_NEO4J_DATABASE ?? 'neo4j', 10_000, { probeIntervalMs: 60_000 });
    try {
      db.hold('the graph schema is not applied yet');
      const refusals = [
        await db.read({ op: 'test' }, (tx) => tx.run('RETURN 1')).catch((e: unknown) => e),
        await db.execute('READ', 'test', 'RETURN 1').catch((e: unknown) => e),
        await db.rehearse({ op: 'test' }, (tx) => tx.run('RETURN 1')).catch((e: unknown) => e),
      ];
      for (const err of refusals) {
        expect(err).to.be.instanceOf(Neo4jUnavailable);
        expect((err as Error).message).to.include('the graph schema is not applied yet');
      }
      expect(db.availability.isDown, 'Neo4j itself is not marked down').to.equal(false);
      const view = db.startupView();
      expect(view.availability).to.equal(db.availability);
      expect((await view.execute('READ', 'test', 'RETURN 1 AS one')).records[0].get('one').toNumber()).to.equal(1);
      db.release();
      expect((await db.execute('READ', 'test', 'RETURN 1 AS one')).records).to.have.length(1);
    } finally {
      db.availability.close();
    }
  });

  it('tells errors that heal by themselves from configuration errors', () => {
    const neo4jError = (code: string, message = code) => Object.assign(new Error(message), { code });
    for (const err of [
      neo4jError('Neo.ClientError.Security.Unauthorized'),
      neo4jError('Neo.ClientError.Security.AuthenticationRateLimit'),
      neo4jError('Neo.ClientError.Database.DatabaseNotFound'),
      neo4jError('N/A', 'Server responded HTTP. Make sure you are not trying to connect to the http endpoint'),
    ]) {
      expect(isConfigurationError(err), (err as Error).message).to.equal(true);
      expect(healsByItself(err), (err as Error).message).to.equal(false);
    }
    for (const err of [
      neo4jError('ServiceUnavailable', 'Failed to connect to server. Caused by: connect ECONNREFUSED 127.0.0.1:1'),
      neo4jError('Neo.TransientError.General.DatabaseUnavailable'),
      new Neo4jUnavailable('down'),
      new PingTimeout(1000),
      new TransactionDeadlineExceeded('schema', 1000),
    ]) {
      expect(isConfigurationError(err), (err as Error).message).to.equal(false);
      expect(healsByItself(err), (err as Error).message).to.equal(true);
    }
    expect(
      healsByItself(neo4jError('Neo.ClientError.Statement.SyntaxError')),
      'a server the schema does not suit',
    ).to.equal(false);
  });
});
