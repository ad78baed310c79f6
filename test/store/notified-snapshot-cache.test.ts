/**
 * The PostgreSQL store's cache of the overrides in force (`notified-snapshot-cache.ts`) on its
 * own, with loads the test controls: bypassed until the listener enables it, one load while
 * enabled, dropped by a notification, and a load that was in flight when a notification arrived
 * or the listener went down is returned but not cached. The same cache driven by real
 * notifications is tested in postgres-credential-cache.test.ts.
 */
import { describe, expect, it } from 'vitest';

import { NotifiedSnapshotCache } from '../../src/store/postgres/notified-snapshot-cache.js';

/** A load whose result the test releases, counting how often it was called. */
function controlledLoads(): {
  load: () => Promise<{ n: number }>;
  calls: () => number;
  release: () => void;
} {
  let calls = 0;
  const waiting: (() => void)[] = [];
  return {
    load: () => {
      calls += 1;
      const value = { n: calls };
      return new Promise((resolve) =>
        waiting.push(() => {
          resolve(value);
        }),
      );
    },
    calls: () => calls,
    release: () => {
      for (const resolve of waiting.splice(0)) resolve();
    },
  };
}

/** Start `cache.get(load)` and release the load at once. */
async function getNow<V>(
  cache: NotifiedSnapshotCache<V>,
  loads: {
    load: () => Promise<V>;
    release: () => void;
  },
): Promise<V> {
  const pending = cache.get(loads.load);
  loads.release();
  return pending;
}

describe('NotifiedSnapshotCache', () => {
  it('loads on every call until enabled, then once until invalidated', async () => {
    const cache = new NotifiedSnapshotCache<{ n: number }>();
    const loads = controlledLoads();
    expect(await getNow(cache, loads)).toEqual({ n: 1 });
    expect(await getNow(cache, loads)).toEqual({ n: 2 });

    cache.setEnabled(true);
    const first = await getNow(cache, loads);
    expect(first).toEqual({ n: 3 });
    expect(await getNow(cache, loads)).toBe(first);
    expect(loads.calls()).toBe(3);

    cache.invalidate();
    expect(await getNow(cache, loads)).toEqual({ n: 4 });
    expect(await getNow(cache, loads)).toEqual({ n: 4 });

    cache.setEnabled(false);
    expect(await getNow(cache, loads)).toEqual({ n: 5 });
    expect(await getNow(cache, loads)).toEqual({ n: 6 });
  });

  it('does not cache a load in flight when a notification arrives', async () => {
    const cache = new NotifiedSnapshotCache<{ n: number }>();
    cache.setEnabled(true);
    const loads = controlledLoads();
    const inFlight = cache.get(loads.load);
    cache.invalidate();
    loads.release();
    expect(await inFlight).toEqual({ n: 1 });
    // The stale value was handed to its caller but not kept: the next call loads again.
    expect(await getNow(cache, loads)).toEqual({ n: 2 });
    expect(await getNow(cache, loads)).toEqual({ n: 2 });
  });

  it('does not cache a load in flight when the listener goes down and comes back', async () => {
    const cache = new NotifiedSnapshotCache<{ n: number }>();
    cache.setEnabled(true);
    const loads = controlledLoads();
    const inFlight = cache.get(loads.load);
    cache.setEnabled(false);
    cache.setEnabled(true);
    loads.release();
    expect(await inFlight).toEqual({ n: 1 });
    expect(await getNow(cache, loads)).toEqual({ n: 2 });
  });
});
