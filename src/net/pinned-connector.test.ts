import { createServer, type Socket } from 'node:net';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { NetError } from './net-error.js';
import { createPinnedConnectorFactory } from './pinned-connector.js';

const server = createServer((socket) => socket.end());
let port: number;

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  port = typeof address === 'object' && address !== null ? address.port : 0;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

const connectorFor = createPinnedConnectorFactory({
  connectTimeoutMs: 1000,
  extraCaCertificates: undefined,
});

function connect(address: string, hostname: string, onPort = port): Promise<Socket> {
  return new Promise((resolve, reject) => {
    connectorFor(address)(
      { hostname, host: `${hostname}:${onPort}`, protocol: 'http:', port: String(onPort) },
      (error, socket) => {
        if (error === null) resolve(socket);
        else reject(error);
      },
    );
  });
}

describe('pinned connector', { timeout: 5000 }, () => {
  it('connects to its address whatever name the origin carries, without resolving it', async () => {
    // `unresolvable.invalid` cannot resolve: reaching the server proves no lookup took place.
    const socket = await connect('127.0.0.1', 'unresolvable.invalid');
    expect(socket.remoteAddress).toBe('127.0.0.1');
    socket.destroy();
  });

  it('reports a connect failure as NetError connect_failed', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const address = closed.address();
    const closedPort = typeof address === 'object' && address !== null ? address.port : 0;
    await new Promise((resolve) => closed.close(resolve));
    const error: unknown = await connect('127.0.0.1', 'a.test.example', closedPort).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(NetError);
    expect(error).toMatchObject({
      code: 'connect_failed',
      url: `http://a.test.example:${closedPort}`,
    });
  });
});
