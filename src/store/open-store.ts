/**
 * @module store/open-store
 * Open the store named by the configuration (`DATABASE_URL`, see `config/config.ts`).
 */

import type { Store } from './ports/store.js';
import { openSqliteStore } from './sqlite/open-sqlite-store.js';

/** Where the store lives. `sqlite` is the embedded default; `postgres` is the scale-out store. */
export type StoreLocation =
  | { kind: 'sqlite'; /** file path, or `:memory:` */ path: string }
  | { kind: 'postgres'; url: string };

/**
 * Open the store at `location`: the embedded SQLite store, migrated on open.
 *
 * @throws Error for a `postgres` location: the scale-out store is not part of this version.
 * @throws when the SQLite file cannot be opened or migrated.
 */
export function openStore(location: StoreLocation): Promise<Store> {
  switch (location.kind) {
    case 'sqlite':
      return Promise.resolve(openSqliteStore(location.path));
    case 'postgres':
      throw new Error(
        'PostgreSQL store is not available in this version; use a sqlite: DATABASE_URL',
      );
  }
}
