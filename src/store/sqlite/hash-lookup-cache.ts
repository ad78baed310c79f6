/**
 * @module store/sqlite/hash-lookup-cache
 * A per-connection cache of credential look-ups by hash (enterprise keys, licenses), because
 * every authenticated request makes one. It is dropped whenever the database may have changed
 * under it: SQLite's `PRAGMA data_version` changes each time another connection (the CLI's
 * `revoke`, another instance) commits, and the owning store clears it on its own writes. So a
 * revocation is effective on the very next request (spec §5). The check costs ~2 µs against
 * ~7 µs for the query it saves.
 */

import type Database from 'better-sqlite3';

/** Cache size bound: far above any real number of credentials, low enough to cap memory. */
const MAX_CACHED = 10_000;

export class HashLookupCache<V> {
  readonly #dataVersion: Database.Statement<[], number>;
  readonly #entries = new Map<string, V | null>();
  #version = -1;

  constructor(db: Database.Database) {
    this.#dataVersion = db.prepare<[], number>('PRAGMA data_version').pluck();
  }

  /**
   * The cached value for `hash`, or `load(hash)` cached. Unknown hashes (null) are cached too,
   * so a flood of made-up credentials costs no queries; the cache is bounded by clearing it.
   */
  get(hash: Buffer, load: (hash: Buffer) => V | null): V | null {
    const version = this.#dataVersion.get() ?? -1;
    if (version !== this.#version) {
      this.#entries.clear();
      this.#version = version;
    }
    const key = hash.toString('hex');
    const cached = this.#entries.get(key);
    if (cached !== undefined) return cached;
    const value = load(hash);
    if (this.#entries.size >= MAX_CACHED) this.#entries.clear();
    this.#entries.set(key, value);
    return value;
  }

  /** Forget everything: call on every write through the owning connection. */
  clear(): void {
    this.#entries.clear();
  }
}
