import { describe, expect, it } from 'vitest';

import { TtlLru } from './ttl-lru.js';

describe('TtlLru', () => {
  it('returns a value until its expiry and drops it after', () => {
    const cache = new TtlLru<string>(10);
    cache.set('a', 'one', 1000);
    expect(cache.get('a', 999)).toBe('one');
    expect(cache.get('a', 1000)).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('evicts the least recently used entry when full', () => {
    const cache = new TtlLru<number>(2);
    cache.set('a', 1, 100);
    cache.set('b', 2, 100);
    expect(cache.get('a', 0)).toBe(1); // a is now the most recently used
    cache.set('c', 3, 100);
    expect(cache.get('b', 0)).toBeUndefined();
    expect(cache.get('a', 0)).toBe(1);
    expect(cache.get('c', 0)).toBe(3);
    expect(cache.size).toBe(2);
  });

  it('replaces an entry in place without evicting another', () => {
    const cache = new TtlLru<number>(2);
    cache.set('a', 1, 100);
    cache.set('b', 2, 100);
    cache.set('a', 10, 200);
    expect(cache.get('b', 0)).toBe(2);
    expect(cache.get('a', 150)).toBe(10);
  });

  it('rejects a capacity below one', () => {
    expect(() => new TtlLru(0)).toThrow(RangeError);
  });
});
