/** Graceful shutdown of the HTTP server's connections (src/http/connections.ts). */
import { expect } from 'chai';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { trackConnections } from '../../src/http/connections.js';

describe('connections on shutdown', () => {
  it(
    'a request in flight when the drain starts is answered with Connection: close, and its connection then ' +
      'closes, so a keep-alive client does not send its next request on a socket being closed',
    async () => {
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let arrived!: () => void;
      const inHandler = new Promise<void>((resolve) => (arrived = resolve));
      const server = http.createServer(async (_req, res) => {
        arrived();
        await released;
        res.end('done');
      });
      const connections = trackConnections(server);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
      const { port } = server.address() as AddressInfo;
      const agent = new http.Agent({ keepAlive: true });
      const answer = new Promise<{ connection: string | undefined; body: string }>((resolve, reject) => {
        http
          .get({ port, host: '127.0.0.1', agent }, (res) => {
            let body = '';
            res.on('data', (d) => (body += d));
            res.on('end', () => resolve({ connection: res.headers.connection, body }));
          })
          .on('error', reject);
      });
      await inHandler;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      connections.drain();
      release();
      expect(await answer).to.deep.equal({ connection: 'close', body: 'done' });
      await closed;
      expect(connections.open).to.equal(0);
      agent.destroy();
    },
  );
});
