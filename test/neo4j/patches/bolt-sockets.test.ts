import { expect } from 'chai';
import net from 'node:net';
import tls from 'node:tls';
import type { Driver } from 'neo4j-driver';
import { createDriver } from '../../../src/neo4j/runtime.js';
import { installBoltSocketTuning } from '../../../src/neo4j/patches/bolt-sockets.js';
import { selfSignedCertificate } from '../../support/certificate.js';

/** Node's own record of setNoDelay on a socket (net.Socket keeps it under this symbol; TLS sockets too). */
function noDelayOf(socket: net.Socket): boolean {
  const key = Object.getOwnPropertySymbols(socket).find((s) => s.description === 'kSetNoDelay');
  if (!key) throw new Error('this Node.js no longer records setNoDelay under kSetNoDelay: update this test');
  return (socket as unknown as Record<symbol, boolean>)[key];
}

/**
 * The sockets reachable from the driver object (its pool's connections' channels), found without knowing their field
 * names.
 */
function socketsOf(driver: Driver): net.Socket[] {
  const found = new Set<net.Socket>();
  const seen = new Set<unknown>();
  let frontier: unknown[] = [driver];
  for (let depth = 0; depth < 10 && frontier.length > 0; depth++) {
    const next: unknown[] = [];
    for (const value of frontier) {
      if (!value || typeof value !== 'object' || seen.has(value)) continue;
      seen.add(value);
      if (value instanceof net.Socket) {
        found.add(value);
        continue;
      }
      const children =
        value instanceof Map ? [...value.values()] : value instanceof Set ? [...value] : Object.values(value);
      next.push(...children);
    }
    frontier = next;
  }
  return [...found];
}

interface Upstream {
  host: string;
  port: number;
  encrypted: boolean;
}

function upstream(): Upstream {
  const url = new URL(process.env.TEST_NEO4J_URI!);
  const encrypted = /\+s(sc)?:$/.test(url.protocol);
  return { host: url.hostname, port: Number(url.port || 7687), encrypted };
}

/**
 * A proxy on 127.0.0.1 in front of the test Neo4j, so both kinds of Bolt connection can be tested
 * against one server: it terminates TLS in front of a plain Neo4j, or originates it in front of an
 * encrypted one (TEST_NEO4J_URI neo4j+s://...).
 */
async function startProxy(to: Upstream): Promise<{ port: number; accepted: number[]; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const accepted: number[] = [];
  const forward = (client: net.Socket) => {
    accepted.push(client.remotePort!);
    const server = to.encrypted
      ? tls.connect({ host: to.host, port: to.port, servername: to.host })
      : net.connect(to.port, to.host);
    for (const s of [client, server]) {
      sockets.add(s);
      s.on('error', () => undefined);
      s.on('close', () => {
        client.destroy();
        server.destroy();
      });
    }
    client.pipe(server).pipe(client);
  };
  const listener = to.encrypted ? net.createServer(forward) : tls.createServer(selfSignedCertificate(), forward);
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', () => resolve()));
  return {
    port: (listener.address() as net.AddressInfo).port,
    accepted,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => listener.close(() => resolve()));
    },
  };
}

const user = () => process.env.TEST_NEO4J_USER ?? 'neo4j';
const password = () => process.env.TEST_NEO4J_PASSWORD ?? '';

async function boltSocketsAfterAQuery(uri: string): Promise<net.Socket[]> {
  const driver = createDriver(uri, user(), password());
  try {
    const res = await driver.executeQuery(
      'RETURN 1 AS one',
      {},
      { database: process.env.TEST_NEO4J_DATABASE ?? 'neo4j' },
    );
    expect(res.records[0].get('one').toNumber()).to.equal(1);
    const sockets = socketsOf(driver);
    expect(sockets, 'the driver keeps its connection in its pool').to.not.be.empty;
    return sockets;
  } finally {
    await driver.close();
  }
}

describe('driver patch: Bolt socket tuning (TCP_NODELAY, one write per tick)', function () {
  this.timeout(60_000);
  // TEST_NEO4J_URI is set by the global fixture, after this file is loaded.
  let to: Upstream;
  let proxy: Awaited<ReturnType<typeof startProxy>>;
  before(async () => {
    to = upstream();
    proxy = await startProxy(to);
  });
  after(() => proxy?.close());

  it('is installed on the pinned driver (a false here means a driver upgrade moved the patched channel write)', () => {
    expect(installBoltSocketTuning()).to.equal(true);
  });

  it('plain Bolt connections (bolt://) get TCP_NODELAY', async () => {
    const uri = to.encrypted ? `bolt://127.0.0.1:${proxy.port}` : process.env.TEST_NEO4J_URI!;
    const sockets = await boltSocketsAfterAQuery(uri);
    for (const socket of sockets) {
      expect(socket instanceof tls.TLSSocket, 'a plain socket').to.equal(false);
      expect(noDelayOf(socket), 'TCP_NODELAY on the plain Bolt socket').to.equal(true);
    }
  });

  it('TLS Bolt connections (bolt+ssc://, as neo4j+s:// for Aura) get TCP_NODELAY too', async () => {
    const uri = to.encrypted ? process.env.TEST_NEO4J_URI! : `bolt+ssc://127.0.0.1:${proxy.port}`;
    const before = proxy.accepted.length;
    const sockets = await boltSocketsAfterAQuery(uri);
    if (!to.encrypted) expect(proxy.accepted.length, 'the driver went through the TLS proxy').to.be.greaterThan(before);
    for (const socket of sockets) {
      expect(socket instanceof tls.TLSSocket && socket.encrypted, 'a TLS socket').to.equal(true);
      expect(noDelayOf(socket), 'TCP_NODELAY on the TLS Bolt socket').to.equal(true);
    }
  });

  it('leaves every other socket of the process alone (net.connect is not replaced)', async () => {
    installBoltSocketTuning();
    const other = net.connect(proxy.port, '127.0.0.1');
    other.on('error', () => undefined);
    await new Promise<void>((resolve) => other.once('connect', () => resolve()));
    try {
      expect(noDelayOf(other), "Node's default for a socket that is not Bolt").to.equal(false);
      other.write('x');
      expect(other.writableCorked, 'not corked either').to.equal(0);
    } finally {
      other.destroy();
    }
  });
});
