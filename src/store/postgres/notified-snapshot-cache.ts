/**
 * @module store/postgres/notified-snapshot-cache
 * One value read from the database on every verdict served (the overrides in force), cached per
 * process and dropped by the `CredentialListener` when a trigger notifies that its table
 * changed (migration 005: `verdict_overrides`), with the semantics of `CredentialCache`:
 * bypassed (every call loads) while the listening connection is down, so a lost notification
 * cannot keep a removed override in force; and a load that was in flight when a notification
 * arrived is returned but not cached (generation check), since it may predate the change.
 */

import type { NotifiedCache } from './credential-cache.js';

export class NotifiedSnapshotCache<V> implements NotifiedCache {
  #value: V | undefined = undefined;
  #generation = 0;
  #enabled = false;

  /** The cached value, or `load()` — cached when enabled and no notification arrived meanwhile. */
  async get(load: () => Promise<V>): Promise<V> {
    if (!this.#enabled) return load();
    if (this.#value !== undefined) return this.#value;
    const generation = this.#generation;
    const value = await load();
    if (this.#unchangedSince(generation)) this.#value = value;
    return value;
  }

  /** True when caching is on and no notification arrived since `generation` was read. */
  #unchangedSince(generation: number): boolean {
    return this.#enabled && generation === this.#generation;
  }

  invalidate(): void {
    this.#generation += 1;
    this.#value = undefined;
  }

  setEnabled(enabled: boolean): void {
    this.invalidate();
    this.#enabled = enabled;
  }
}
