import { describe, expect, it, vi } from 'vitest';

import { createPinnedConnectorFactory } from './pinned-connector.js';
import { PoolCache } from './pool-cache.js';

const factory = createPinnedConnectorFactory({
  connectTimeoutMs: 1000,
  extraCaCertificates: undefined,
});

describe('PoolCache', () => {
  it('keeps one pool per origin and address, each with its own pinned connector', async () => {
    const connectorFor = vi.fn(factory);
    const cache = new PoolCache(connectorFor, 2);
    const a = cache.get('http://a.test.example', '192.0.2.1');
    expect(cache.get('http://a.test.example', '192.0.2.1')).toBe(a);
    expect(cache.get('http://a.test.example', '192.0.2.2')).not.toBe(a);
    expect(connectorFor.mock.calls).toEqual([['192.0.2.1'], ['192.0.2.2']]);
    await cache.close();
    expect(cache.closed).toBe(true);
    expect(a.closed).toBe(true);
  });

  it('closes the least recently used pool beyond 64', async () => {
    const cache = new PoolCache(factory, 1);
    const first = cache.get('http://h0.test.example', '192.0.2.1');
    const second = cache.get('http://h1.test.example', '192.0.2.1');
    cache.get('http://h0.test.example', '192.0.2.1'); // h0 used again: h1 is now the oldest
    for (let i = 2; i <= 64; i += 1) cache.get(`http://h${i}.test.example`, '192.0.2.1');
    expect(second.closed).toBe(true);
    expect(first.closed).toBe(false);
    await cache.close();
  });
});
