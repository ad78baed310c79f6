import type { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';

import { OutageNotice } from '../redis/redis-client.js';
import { cacheGeneration, SharedVerdictCache } from './shared-verdict-cache.js';

const BASE = {
  serviceVersion: '1.0.0',
  engineData: 'a'.repeat(64),
  threatIndex: 'b'.repeat(64),
  layers: { rdap: true, webRisk: false, page: true, llm: null },
};

describe('cacheGeneration', () => {
  it('changes with the release, the engine data, the threat index and the layers that run', () => {
    const base = cacheGeneration(BASE);
    expect(base).toMatch(/^[0-9a-f]{16}$/);
    const variants = [
      { ...BASE, serviceVersion: '1.0.1' },
      { ...BASE, engineData: 'c'.repeat(64) },
      { ...BASE, threatIndex: 'd'.repeat(64) },
      { ...BASE, layers: { ...BASE.layers, rdap: false } },
      { ...BASE, layers: { ...BASE.layers, llm: 'some-model' } },
    ].map(cacheGeneration);
    expect(new Set([base, ...variants]).size).toBe(6);
  });

  it('does not depend on the order the layers are listed in', () => {
    const reordered = { ...BASE, layers: { llm: null, page: true, webRisk: false, rdap: true } };
    expect(cacheGeneration(reordered)).toBe(cacheGeneration(BASE));
  });
});

describe('SharedVerdictCache', () => {
  it('a read slower than its budget is a miss, and the outage is reported once', async () => {
    // A Redis that never answers (the pipeline's reply never comes).
    const silent = {
      pipeline: () => {
        const never = new Promise<never>(() => undefined);
        const chain = { get: () => chain, pttl: () => chain, exec: () => never };
        return chain;
      },
    } as unknown as Redis;
    const events: string[] = [];
    const cache = new SharedVerdictCache({
      client: silent,
      keyPrefix: 'p:',
      generation: 'g',
      readBudgetMs: 20,
      outage: new OutageNotice((event) => events.push(event)),
    });
    const started = performance.now();
    expect(await cache.read(cache.keyFor('https://a.example/'))).toBeUndefined();
    expect(await cache.read(cache.keyFor('https://b.example/'))).toBeUndefined();
    expect(performance.now() - started).toBeLessThan(1000);
    expect(events).toEqual(['down']);
  });

  it('keys name the prefix, the generation and the URL’s SHA-256, never the URL', () => {
    const cache = new SharedVerdictCache({
      client: {} as unknown as Redis,
      keyPrefix: 'lg:',
      generation: '0123456789abcdef',
      outage: new OutageNotice(() => undefined),
    });
    const key = cache.keyFor('https://secret-path.example.com/reset?token=x');
    expect(key).toMatch(/^lg:verdict:0123456789abcdef:[0-9a-f]{64}$/);
    cache.setGeneration('fedcba9876543210');
    expect(cache.keyFor('https://secret-path.example.com/reset?token=x')).not.toBe(key);
  });
});
