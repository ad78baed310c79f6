/**
 * @module net/pool-cache
 * The connection pools of the outbound client.
 */
import { Pool } from 'undici';

import type { PinnedConnectorFactory } from './pinned-connector.js';

/** Pools kept (one per origin × pinned address); the least recently used is closed beyond this. */
const MAX_POOLS = 64;

/**
 * undici pools keyed by origin and pinned address. One pool never connects anywhere but its
 * address, so reusing a keep-alive connection never reuses an unchecked one. Bounded: the least
 * recently used pool is closed (gracefully) when more than {@link MAX_POOLS} exist.
 */
export class PoolCache {
  private isClosed = false;
  private readonly pools = new Map<string, Pool>();

  constructor(
    private readonly connectorFor: PinnedConnectorFactory,
    private readonly connections: number,
  ) {}

  get(origin: string, address: string): Pool {
    const key = `${origin} ${address}`;
    let pool = this.pools.get(key);
    pool ??= new Pool(origin, {
      connect: this.connectorFor(address),
      connections: this.connections,
    });
    // Re-insert to mark as most recently used (Map iterates in insertion order).
    this.pools.delete(key);
    this.pools.set(key, pool);
    for (const [oldKey, oldPool] of this.pools) {
      if (this.pools.size <= MAX_POOLS) break;
      this.pools.delete(oldKey);
      oldPool.close().catch(() => undefined);
    }
    return pool;
  }

  /** True once {@link close} has been called. */
  get closed(): boolean {
    return this.isClosed;
  }

  async close(): Promise<void> {
    this.isClosed = true;
    const pools = [...this.pools.values()];
    this.pools.clear();
    await Promise.all(pools.map((pool) => pool.close()));
  }
}
