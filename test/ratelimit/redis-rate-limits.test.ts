/**
 * Rate limits over a real Redis (REDIS_URL): two `RateLimits` are two instances behind a load
 * balancer. They share the per-IP and per-key budgets; when Redis is unreachable each serves on
 * its in-process insurance limiter and reports the fallback once, and the recovery once.
 */
import type { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import {
  AUTH_FAILURE_WINDOW_SECONDS,
  AUTH_FAILURES_PER_SOURCE,
  RateLimits,
} from '../../src/ratelimit/rate-limits.js';
import { createRedisClient, waitUntilReady } from '../../src/redis/redis-client.js';
import {
  adminClient,
  closedPort,
  deleteKeysUnder,
  ensureRedis,
  keysUnder,
  type RedisProxy,
  redisProxy,
  serviceClient,
  uniquePrefix,
} from '../helpers/redis.js';

let admin: Redis;
const clients: Redis[] = [];
const proxies: RedisProxy[] = [];
let prefix = '';

beforeAll(async () => {
  await ensureRedis();
  admin = adminClient();
  await admin.connect();
});

afterAll(() => {
  admin.disconnect();
});

afterEach(async () => {
  for (const client of clients.splice(0)) client.disconnect();
  for (const proxy of proxies.splice(0)) await proxy.close();
  await deleteKeysUnder(admin, prefix);
});

/** An instance's limits over `client`, recording fallback transitions. */
function instance(client: Redis, publicPerMinute = 60, keyPerMinute = 10_000) {
  const events: ('down' | 'up')[] = [];
  const limits = new RateLimits(publicPerMinute, keyPerMinute, {
    redis: { client, keyPrefix: prefix, onFallback: (event) => events.push(event) },
  });
  return { limits, events };
}

async function connected(port?: number): Promise<Redis> {
  const client = await serviceClient(port);
  clients.push(client);
  return client;
}

describe('RateLimits over Redis', () => {
  it('two instances share one per-IP budget: the 61st request is refused on either', async () => {
    prefix = uniquePrefix();
    const a = instance(await connected());
    const b = instance(await connected());
    const ip = '203.0.113.7';
    const remaining: number[] = [];
    for (let i = 0; i < 60; i++) {
      const state = await (i % 2 === 0 ? a : b).limits.consumePublic(ip);
      expect(state.allowed).toBe(true);
      remaining.push(state.remaining);
    }
    // One count across both instances: 59, 58, …, 0 whichever instance answered.
    expect(remaining).toEqual(Array.from({ length: 60 }, (_, i) => 59 - i));
    const onA = await a.limits.consumePublic(ip);
    const onB = await b.limits.consumePublic(ip);
    expect([onA.allowed, onB.allowed]).toEqual([false, false]);
    expect(onA).toMatchObject({ policy: 'per-ip', limit: 60, remaining: 0 });
    expect(onA.resetSeconds).toBeGreaterThanOrEqual(1);
    expect(onA.resetSeconds).toBeLessThanOrEqual(60);
    // Another IP has its own budget; the peek counts nothing.
    expect((await b.limits.consumePublic('203.0.113.8')).remaining).toBe(59);
    expect((await a.limits.peekPublic(ip)).remaining).toBe(0);
    expect((await a.limits.peekPublic('203.0.113.8')).remaining).toBe(59);
    // The counters are in Redis under the test's prefix, and no fallback happened.
    expect((await keysUnder(admin, prefix)).sort()).toEqual([
      `${prefix}rl:per-ip:ip:203.0.113.7`,
      `${prefix}rl:per-ip:ip:203.0.113.8`,
    ]);
    expect([...a.events, ...b.events]).toEqual([]);
  });

  it('two instances share a per-key budget (the key’s own limit, or the default)', async () => {
    prefix = uniquePrefix();
    const a = instance(await connected(), 60, 4);
    const b = instance(await connected(), 60, 4);
    const own = [
      await a.limits.consumeKey('key-1', 3),
      await b.limits.consumeKey('key-1', 3),
      await a.limits.consumeKey('key-1', 3),
      await b.limits.consumeKey('key-1', 3),
    ];
    expect(own.map((s) => [s.allowed, s.remaining])).toEqual([
      [true, 2],
      [true, 1],
      [true, 0],
      [false, 0],
    ]);
    expect(own[0]).toMatchObject({ policy: 'per-key', limit: 3 });
    const byDefault = [];
    for (let i = 0; i < 5; i++) {
      byDefault.push(await (i % 2 === 0 ? b : a).limits.consumeKey('key-2', null));
    }
    expect(byDefault.map((s) => s.allowed)).toEqual([true, true, true, true, false]);
    expect(byDefault[0]?.limit).toBe(4);
  });

  it('two instances share one failed-authentication budget per source, an IPv6 source by /64', async () => {
    prefix = uniquePrefix();
    const a = instance(await connected());
    const b = instance(await connected());
    for (let i = 0; i < AUTH_FAILURES_PER_SOURCE; i++) {
      expect((await a.limits.peekFailures('2001:db8:5:6::1')).allowed).toBe(true);
      // Every guess from another address of the same /64, on either instance.
      const state = await (i % 2 === 0 ? a : b).limits.recordFailure(
        `2001:db8:5:6::${String(i + 2)}`,
      );
      expect(state).toMatchObject({
        policy: 'auth-failures',
        limit: AUTH_FAILURES_PER_SOURCE,
        windowSeconds: AUTH_FAILURE_WINDOW_SECONDS,
      });
    }
    for (const instance of [a, b]) {
      const spent = await instance.limits.peekFailures('2001:db8:5:6:ffff:ffff:ffff:ffff');
      expect(spent.allowed).toBe(false);
      expect(spent.remaining).toBe(0);
      expect(spent.resetSeconds).toBeGreaterThanOrEqual(1);
      expect(spent.resetSeconds).toBeLessThanOrEqual(AUTH_FAILURE_WINDOW_SECONDS);
    }
    // Another /64 and an IPv4 source are untouched: the budget locks out only its own source.
    expect((await b.limits.peekFailures('2001:db8:5:7::1')).allowed).toBe(true);
    expect((await b.limits.peekFailures('203.0.113.7')).allowed).toBe(true);
    expect(await keysUnder(admin, prefix)).toEqual([
      `${prefix}rl:auth-failures:fail:2001:db8:5:6::/64`,
    ]);
    // The per-IP budget groups the /64 the same way.
    await a.limits.consumePublic('2001:db8:5:6::1');
    expect((await b.limits.peekPublic('2001:db8:5:6::abcd')).remaining).toBe(59);
    expect([...a.events, ...b.events]).toEqual([]);
  });

  it('Redis unreachable (closed port): served on the insurance limiter, fallback reported once', async () => {
    prefix = uniquePrefix();
    const client = createRedisClient(`redis://127.0.0.1:${await closedPort()}`);
    clients.push(client);
    const { limits, events } = instance(client, 3);
    const states = [];
    for (let i = 0; i < 4; i++) states.push(await limits.consumePublic('198.51.100.1'));
    // Same budget in process: three allowed, the fourth refused.
    expect(states.map((s) => [s.allowed, s.remaining])).toEqual([
      [true, 2],
      [true, 1],
      [true, 0],
      [false, 0],
    ]);
    expect((await limits.peekPublic('198.51.100.1')).remaining).toBe(0);
    expect((await limits.consumeKey('key-1', 5)).allowed).toBe(true);
    expect(events).toEqual(['down']);
  });

  it('Redis lost mid-way and back: insurance while it is away, shared counts again after', async () => {
    prefix = uniquePrefix();
    const proxy = await redisProxy();
    proxies.push(proxy);
    const a = instance(await connected(proxy.port), 10);
    const b = instance(await connected(), 10);
    const ip = '192.0.2.44';
    for (let i = 0; i < 4; i++) await a.limits.consumePublic(ip);
    expect((await b.limits.consumePublic(ip)).remaining).toBe(5); // 5 spent in Redis

    await proxy.cut();
    const during = [];
    for (let i = 0; i < 3; i++) during.push(await a.limits.consumePublic(ip));
    // A counts alone now (its own 10), and says so once.
    expect(during.map((s) => [s.allowed, s.remaining])).toEqual([
      [true, 9],
      [true, 8],
      [true, 7],
    ]);
    expect(a.events).toEqual(['down']);

    await proxy.restore();
    const client = clients[0];
    if (client === undefined) throw new Error('client missing');
    expect(await waitUntilReady(client, 5000)).toBe(true);
    const after = await a.limits.consumePublic(ip);
    // Back on the shared count: 5 spent before the cut, this is the 6th.
    expect(after.remaining).toBe(4);
    expect(a.events).toEqual(['down', 'up']);
    expect(b.events).toEqual([]);
  });
});
