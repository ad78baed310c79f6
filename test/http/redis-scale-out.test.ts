/**
 * Two linkguard instances over one real Redis (REDIS_URL), each with its own store, through
 * `buildApp()` and `inject()`: shared per-IP budget, shared verdict cache (keys without URLs,
 * under a generation that changes with the threat index), and service that goes on when Redis
 * is unreachable, with each fallback logged once and no secret in the log.
 */
import type { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { loadConfig } from '../../src/config/config.js';
import type { Engine } from '../../src/engine/create-engine.js';
import { IntelLayer } from '../../src/intel/intel-layer.js';
import { createLogger } from '../../src/observability/logger.js';
import { createRedisClient } from '../../src/redis/redis-client.js';
import { buildApp } from '../../src/server/build-app.js';
import { openStore } from '../../src/store/open-store.js';
import type { Store } from '../../src/store/ports/store.js';
import { detect, detectWithKey, jsonBody } from '../helpers/detect-request.js';
import { createEnterpriseKey } from '../helpers/enterprise-key.js';
import {
  adminClient,
  closedPort,
  deleteKeysUnder,
  ensureRedis,
  keysUnder,
  serviceClient,
  uniquePrefix,
} from '../helpers/redis.js';
import { logCapture, NO_CHAIN_RPC, sharedEngine, testClock } from '../helpers/test-app.js';

let engine: Engine;
let admin: Redis;
let prefix = '';
const cleanups: (() => Promise<void>)[] = [];

beforeAll(async () => {
  engine = sharedEngine();
  await ensureRedis();
  admin = adminClient();
  await admin.connect();
});

afterAll(() => {
  admin.disconnect();
});

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await deleteKeysUnder(admin, prefix);
});

/** One instance: its own in-memory store and intel layer, the given Redis client. */
async function instance(client: Redis, env: Record<string, string> = {}) {
  const config = loadConfig({
    ...NO_CHAIN_RPC,
    PAGE_ANALYSIS: 'off',
    ...env,
    DATABASE_URL: 'sqlite::memory:',
  });
  const store = await openStore(config.store);
  const logs = logCapture();
  const intel = new IntelLayer({ engine, store: store.intel });
  const app = await buildApp({
    config,
    store,
    engine,
    clock: testClock(),
    logger: createLogger('info', logs),
    intel,
    redis: { client, keyPrefix: prefix },
  });
  cleanups.push(async () => {
    await app.close();
    await store.close();
  });
  const key = await createEnterpriseKey(store, { rateLimitPerMinute: 10 });
  return { app, store, intel, logs, key };
}

const METRICS_TOKEN = 'metrics-token-for-scale-out-0123456789';

/** The verdict-cache lookups an instance's `GET /metrics` reports, per level and result. */
async function cacheLookups(app: Awaited<ReturnType<typeof instance>>['app']) {
  const response = await app.inject({
    method: 'GET',
    url: '/metrics',
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
  const read = (level: string, result: string): number => {
    const prefix = `linkguard_verdict_cache_lookups_total{level="${level}",result="${result}"} `;
    const line = response.body.split('\n').find((l) => l.startsWith(prefix));
    return line === undefined ? 0 : Number(line.slice(prefix.length));
  };
  return {
    l1hit: read('l1', 'hit'),
    l1miss: read('l1', 'miss'),
    l2hit: read('l2', 'hit'),
    l2miss: read('l2', 'miss'),
  };
}

async function client(url?: string): Promise<Redis> {
  const made = url === undefined ? await serviceClient() : createRedisClient(url);
  cleanups.push(() => {
    made.disconnect();
    return Promise.resolve();
  });
  return made;
}

/** Add a deny feed listing `host` to a store (what `linkguard feeds import` does). */
async function listHost(store: Store, host: string): Promise<void> {
  const feed = await store.intel.upsertFeed({
    name: 'test-feed',
    format: 'plain',
    url: null,
    threat: 'credential_phishing',
  });
  await store.intel.replaceEntries(
    feed.id,
    [{ list: 'deny', kind: 'host', value: host, target: null, firstSeen: null }],
    { importedAt: Date.UTC(2026, 2, 1) },
  );
}

const URL_A = 'https://metamask-restore-wallet.com/';

describe('two instances over one Redis', () => {
  it('share the per-IP budget: the 61st keyless request in a minute is refused on either', async () => {
    prefix = uniquePrefix();
    const a = await instance(await client());
    const b = await instance(await client());
    const ip = '203.0.113.61';
    for (let i = 0; i < 60; i++) {
      const response = await detect(
        (i % 2 === 0 ? a : b).app,
        { url: URL_A },
        { remoteAddress: ip },
      );
      expect(response.statusCode).toBe(402);
    }
    for (const { app } of [b, a]) {
      const refused = await detect(app, { url: URL_A }, { remoteAddress: ip });
      expect(refused.statusCode).toBe(429);
      expect(refused.headers['ratelimit-remaining']).toBe('0');
      expect(refused.headers['ratelimit-policy']).toBe('"per-ip";q=60;w=60');
      expect(refused.headers.ratelimit).toBe(`"per-ip";r=0;t=${refused.headers['retry-after']}`);
    }
    expect(
      (await detect(a.app, { url: URL_A }, { remoteAddress: '203.0.113.62' })).statusCode,
    ).toBe(402);
  });

  it('share verdicts: judged on A, served from Redis on B; keys hold no URL', async () => {
    prefix = uniquePrefix();
    const a = await instance(await client(), { METRICS_TOKEN });
    const b = await instance(await client(), { METRICS_TOKEN });
    // The in-process cache admits a URL on its second sighting; the shared level follows it.
    await detectWithKey(a.app, URL_A, a.key.bearer);
    expect(await keysUnder(admin, `${prefix}verdict:`)).toEqual([]);
    const judged = await detectWithKey(a.app, URL_A, a.key.bearer);
    expect(judged.statusCode).toBe(200);
    const keys = await keysUnder(admin, `${prefix}verdict:`);
    expect(keys).toHaveLength(1);
    const [key = ''] = keys;
    expect(key).toMatch(new RegExp(`^${prefix}verdict:[0-9a-f]{16}:[0-9a-f]{64}$`));
    expect(key).not.toContain('metamask');
    // Lifetime: the verdict's own TTL (danger: 3600 s by default), as PX.
    const ttl = await admin.pttl(key);
    expect(ttl).toBeGreaterThan(3590_000);
    expect(ttl).toBeLessThanOrEqual(3600_000);

    // Mark the stored verdict, so B's answer shows where it came from.
    const stored = JSON.parse((await admin.get(key)) ?? 'null') as Record<string, unknown>;
    expect(stored).toEqual(jsonBody(judged));
    await admin.set(key, JSON.stringify({ ...stored, reason: 'served from Redis' }), 'PX', ttl);
    const onB = await detectWithKey(b.app, URL_A, b.key.bearer);
    expect(onB.statusCode).toBe(200);
    expect(jsonBody(onB)).toEqual({ ...stored, reason: 'served from Redis' });
    // A still answers from its own first level.
    expect(jsonBody(await detectWithKey(a.app, URL_A, a.key.bearer)).reason).toBe(stored.reason);
    // The metrics count each level: A missed both levels twice, then hit L1; B hit L2.
    expect(await cacheLookups(a.app)).toEqual({ l1hit: 1, l1miss: 2, l2hit: 0, l2miss: 2 });
    expect(await cacheLookups(b.app)).toEqual({ l1hit: 0, l1miss: 1, l2hit: 1, l2miss: 0 });

    // Something that is not a verdict under the key is not served: C judges for itself.
    await admin.set(key, JSON.stringify({ reason: 'junk' }), 'PX', ttl);
    const c = await instance(await client());
    const onC = await detectWithKey(c.app, URL_A, c.key.bearer);
    expect(onC.statusCode).toBe(200);
    expect(jsonBody(onC)).toEqual(stored);
    expect(
      c.logs.records().filter((r) => String(r.msg).startsWith('shared verdict cache unavailable')),
    ).toHaveLength(1);
  });

  it('a changed threat index reads and writes another generation: no stale verdict', async () => {
    prefix = uniquePrefix();
    const a = await instance(await client());
    await detectWithKey(a.app, URL_A, a.key.bearer);
    await detectWithKey(a.app, URL_A, a.key.bearer);
    const [before = ''] = await keysUnder(admin, `${prefix}verdict:`);
    await admin.set(before, JSON.stringify({ reason: 'stale' }), 'KEEPTTL');

    // Another instance whose index differs never reads A's verdicts.
    const listed = await instance(await client());
    await listHost(listed.store, 'metamask-restore-wallet.com');
    expect(await listed.intel.refresh()).toBe(true);
    const onListed = jsonBody(await detectWithKey(listed.app, URL_A, listed.key.bearer));
    expect(onListed.reason).not.toBe('stale');
    const listedDetails = onListed.details as { matched_patterns: string[] };
    expect(listedDetails.matched_patterns).toContain('intel:test-feed');

    // A's own index swap moves A to the same new generation.
    await listHost(a.store, 'metamask-restore-wallet.com');
    expect(await a.intel.refresh()).toBe(true);
    const afterSwap = jsonBody(await detectWithKey(a.app, URL_A, a.key.bearer));
    expect(afterSwap.reason).not.toBe('stale');
    expect(afterSwap).toEqual(onListed);
    const generations = new Set(
      (await keysUnder(admin, `${prefix}verdict:`)).map((k) => k.split(':').at(-2)),
    );
    expect(generations.size).toBe(2);
  });

  it('Redis unreachable: requests are served; each fallback is logged once, without the password', async () => {
    prefix = uniquePrefix();
    const password = 'redis-pass-7f3a9c';
    const down = await client(`redis://:${password}@127.0.0.1:${await closedPort()}`);
    const { app, logs, key } = await instance(down, { RATE_LIMIT_PUBLIC_PER_MINUTE: '2' });
    for (let i = 0; i < 3; i++) {
      const served = await detectWithKey(app, URL_A, key.bearer);
      expect(served.statusCode).toBe(200);
      expect(served.headers.ratelimit).toBe(
        `"per-key";r=${9 - i};t=${String(served.headers['ratelimit-reset'])}`,
      );
    }
    // The in-process budget still refuses.
    expect((await detect(app, { url: URL_A })).statusCode).toBe(402);
    expect((await detect(app, { url: URL_A })).statusCode).toBe(402);
    expect((await detect(app, { url: URL_A })).statusCode).toBe(429);
    const messages = logs.records().map((r) => r.msg);
    expect(
      messages.filter(
        (m) => m === 'Redis unreachable: rate limits fall back to in-process limits (per instance)',
      ),
    ).toHaveLength(1);
    expect(
      messages.filter(
        (m) => m === 'shared verdict cache unavailable (Redis): verdicts are cached per instance',
      ),
    ).toHaveLength(1);
    const warning = logs.records().find((r) => String(r.msg).startsWith('shared verdict cache'));
    expect(warning?.redis).toMatch(/^redis:\/\/127\.0\.0\.1:\d+$/);
    expect(logs.text()).not.toContain(password);
    expect(logs.text()).not.toContain('metamask');
  });
});
