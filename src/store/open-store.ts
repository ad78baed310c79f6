/**
 * @module store/open-store
 * Open the store named by the configuration (`DATABASE_URL`, see `config/config.ts`).
 */

import type { Store } from './ports/store.js';
import { openPostgresStore, type PostgresStoreOptions } from './postgres/open-postgres-store.js';
import { openSqliteStore } from './sqlite/open-sqlite-store.js';

/** Where the store lives. `sqlite` is the embedded default; `postgres` is the scale-out store. */
export type StoreLocation =
  | { kind: 'sqlite'; /** file path, or `:memory:` */ path: string }
  | { kind: 'postgres'; url: string };

/**
 * Open the store at `location`, migrated on open: the embedded SQLite file, or the PostgreSQL
 * database several instances share.
 *
 * @param options for PostgreSQL: where failures of idle pooled connections are reported.
 * @throws when the SQLite file cannot be opened or migrated; for PostgreSQL, AppError
 *   `service_unavailable` when the server cannot be reached, Error when a migration fails.
 */
export function openStore(
  location: StoreLocation,
  options: PostgresStoreOptions = {},
): Promise<Store> {
  switch (location.kind) {
    case 'sqlite':
      return Promise.resolve(openSqliteStore(location.path));
    case 'postgres':
      return openPostgresStore(location.url, options);
  }
}
