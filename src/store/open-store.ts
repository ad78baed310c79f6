/**
 * @module store/open-store
 * Open the store named by the configuration (`DATABASE_URL`, see `config/config.ts`).
 */

import type { StoreLocation } from '../config/config.js';
import type { Store } from './ports/store.js';
import { openSqliteStore } from './sqlite/open-sqlite-store.js';

/**
 * Open the store at `location`: the embedded SQLite store, migrated on open.
 *
 * @throws Error for a `postgres` location: the scale-out store is not part of this version.
 * @throws when the SQLite file cannot be opened or migrated.
 */
export function openStore(location: StoreLocation): Store {
  switch (location.kind) {
    case 'sqlite':
      return openSqliteStore(location.path);
    case 'postgres':
      throw new Error(
        'PostgreSQL store is not available in this version; use a sqlite: DATABASE_URL',
      );
  }
}
