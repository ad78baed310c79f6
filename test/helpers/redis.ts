/**
 * Redis for the scale-out tests: the machine's Redis on 127.0.0.1:6379, started here when it is
 * not running. Tests share it with others running in parallel, so each test writes under its own
 * key prefix and deletes exactly those keys afterwards (SCAN + DEL by prefix, never FLUSHALL).
 * An unreachable Redis is simulated without touching the real one: a closed loopback port, or a
 * loopback TCP proxy in front of Redis that the test closes (and reopens) mid-test.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { connect, createServer, type Server, type Socket } from 'node:net';

import { Redis } from 'ioredis';

import { createRedisClient, waitUntilReady } from '../../src/redis/redis-client.js';

export const REDIS_HOST = '127.0.0.1';
export const REDIS_PORT = 6379;

/** How long to wait for a Redis started here to answer. */
const START_WAIT_MS = 10_000;

/** A plain client for test set-up and clean-up (not the service's fail-fast client). */
export function adminClient(): Redis {
  return new Redis({
    host: REDIS_HOST,
    port: REDIS_PORT,
    connectTimeout: 1000,
    maxRetriesPerRequest: 1,
    lazyConnect: true,
  });
}

async function answers(): Promise<boolean> {
  const client = adminClient();
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.ping();
    return true;
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}

/**
 * Make sure Redis answers on 127.0.0.1:6379, starting it (daemonized, no persistence) when it
 * does not.
 *
 * @throws when it still does not answer after {@link START_WAIT_MS}.
 */
export async function ensureRedis(): Promise<void> {
  if (await answers()) return;
  // prettier-ignore
  execFileSync('redis-server', [
    '--daemonize', 'yes', '--bind', '127.0.0.1', '-::1', '--port', String(REDIS_PORT),
    '--save', '', '--appendonly', 'no', '--dir', '/var/lib/redis',
    '--logfile', '/var/log/redis/ci.log',
  ]);
  const deadline = Date.now() + START_WAIT_MS;
  while (Date.now() < deadline) {
    if (await answers()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`Redis did not answer on ${REDIS_HOST}:${REDIS_PORT} after starting it`);
}

/** A key prefix no other test uses: `linkguard-test:<uuid>:`. */
export function uniquePrefix(): string {
  return `linkguard-test:${randomUUID()}:`;
}

/** Every key under `prefix`, found with SCAN (never KEYS, never FLUSHALL). */
export async function keysUnder(admin: Redis, prefix: string): Promise<string[]> {
  const found: string[] = [];
  let cursor = '0';
  do {
    const [next, keys] = await admin.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
    found.push(...keys);
    cursor = next;
  } while (cursor !== '0');
  return found;
}

/** Delete every key under `prefix`; returns how many were deleted. */
export async function deleteKeysUnder(admin: Redis, prefix: string): Promise<number> {
  const keys = await keysUnder(admin, prefix);
  return keys.length === 0 ? 0 : admin.del(...keys);
}

/** The service's client for `port` on loopback, waited for until ready (at most 5 s). */
export async function serviceClient(port: number = REDIS_PORT): Promise<Redis> {
  const client = createRedisClient(`redis://${REDIS_HOST}:${port}`);
  if (!(await waitUntilReady(client, 5000))) {
    client.disconnect();
    throw new Error(`Redis client for port ${port} not ready`);
  }
  return client;
}

/** A loopback port nothing listens on (bound, then released). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, REDIS_HOST, resolve));
  const address = server.address();
  await new Promise<void>((resolve) =>
    server.close(() => {
      resolve();
    }),
  );
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** A TCP proxy on a loopback port in front of Redis, to cut and restore the connection. */
export interface RedisProxy {
  port: number;
  /** Stop listening and drop every connection: Redis is unreachable through the proxy. */
  cut(): Promise<void>;
  /** Listen again on the same port: clients reconnect. */
  restore(): Promise<void>;
  /** Cut and forget (idempotent). */
  close(): Promise<void>;
}

export async function redisProxy(): Promise<RedisProxy> {
  const sockets = new Set<Socket>();
  let server: Server | null = null;
  let port = 0;
  const open = async (): Promise<void> => {
    const s = createServer((client) => {
      sockets.add(client);
      const upstream = connect(REDIS_PORT, REDIS_HOST);
      sockets.add(upstream);
      client.pipe(upstream).pipe(client);
      const drop = (): void => {
        client.destroy();
        upstream.destroy();
        sockets.delete(client);
        sockets.delete(upstream);
      };
      client.on('error', drop).on('close', drop);
      upstream.on('error', drop).on('close', drop);
    });
    await new Promise<void>((resolve, reject) => {
      s.once('error', reject);
      s.listen(port, REDIS_HOST, () => {
        resolve();
      });
    });
    const address = s.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    port = address.port;
    server = s;
  };
  const cut = async (): Promise<void> => {
    const s = server;
    server = null;
    for (const socket of sockets) socket.destroy();
    sockets.clear();
    if (s !== null)
      await new Promise<void>((resolve) =>
        s.close(() => {
          resolve();
        }),
      );
  };
  await open();
  return { port, cut, restore: open, close: cut };
}
