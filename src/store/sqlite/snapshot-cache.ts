/**
 * @module store/sqlite/snapshot-cache
 * One value read from the database on every verdict served (the overrides in force), kept until
 * the database may have changed under it, in the pattern of `hash-lookup-cache.ts`: SQLite's
 * `PRAGMA data_version` changes each time another connection (another instance, the CLI)
 * commits, and the owning stores clear it on their own writes, which `data_version` does not
 * count. So a change committed anywhere is seen on the next call, and an unchanged database
 * costs one pragma read (~2 µs) instead of a query.
 */

import type Database from 'better-sqlite3';

export class SnapshotCache<V> {
  readonly #dataVersion: Database.Statement<[], number>;
  #value: V | undefined = undefined;
  #version = -1;

  constructor(db: Database.Database) {
    this.#dataVersion = db.prepare<[], number>('PRAGMA data_version').pluck();
  }

  /**
   * The cached value, or `load()` cached when another connection committed since it was read or
   * {@link clear} was called. `data_version` is read before loading: a commit landing between
   * the two only causes one reload too many, never a stale value.
   */
  get(load: () => V): V {
    const version = this.#dataVersion.get() ?? -1;
    if (this.#value !== undefined && version === this.#version) return this.#value;
    const value = load();
    this.#value = value;
    this.#version = version;
    return value;
  }

  /** Forget the value: call on every write through the owning connection. */
  clear(): void {
    this.#value = undefined;
  }
}
