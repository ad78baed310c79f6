/**
 * @module store/postgres/open-postgres-store
 * The scale-out store: every port on one PostgreSQL database shared by N linkguard instances and
 * the CLI, through a connection pool per process. Opening migrates the schema under an advisory
 * lock, so instances may start at once. Claims, reservations and counters are read and written
 * in the database on every call; only look-ups of keys and licenses by hash and the snapshot of
 * the overrides in force are cached, and every change to those tables clears the cache of every
 * instance through LISTEN/NOTIFY (`credential-cache.ts`).
 */

import type { OverrideSnapshot } from '../ports/correction-store.js';
import type { ApiKeyRecord } from '../ports/key-store.js';
import type { LicenseRecord } from '../ports/license-store.js';
import type { Store } from '../ports/store.js';
import { CredentialCache, CredentialListener, type NotifiedCache } from './credential-cache.js';
import { migratePostgres } from './migrate.js';
import { NotifiedSnapshotCache } from './notified-snapshot-cache.js';
import { DEFAULT_PG_POOL, PgDatabase, type PgPoolOptions } from './pg-database.js';
import { storeError } from './pg-errors.js';
import { PgIntelStore } from './pg-intel-store.js';
import { PgKeyStore } from './pg-key-store.js';
import { PgLicenseStore } from './pg-license-store.js';
import { PgOAuthStore } from './pg-oauth-store.js';
import { PgOverrideStore } from './pg-override-store.js';
import { PgPaymentStore } from './pg-payment-store.js';
import { PgReportStore } from './pg-report-store.js';
import { PgUsageStore } from './pg-usage-store.js';

/** What the PostgreSQL store reports outside a call: failures of idle pooled connections. */
export interface PostgresStoreOptions {
  /**
   * Called when an idle connection of the pool fails (server restart, network cut). The pool
   * drops that connection by itself and the next call reconnects or fails with 503, so this is
   * for the log only. Also told when the connection receiving credential notifications fails
   * (the credential caches are bypassed until it is back).
   */
  onIdleError?: (error: Error) => void;
  pool?: PgPoolOptions;
}

/**
 * Open the PostgreSQL store at `url` and apply pending migrations.
 *
 * @param url `postgres://user:password@host:port/database` (or `postgresql://`); libpq
 *   parameters such as `sslmode` are honoured by pg.
 * @returns the store, with a pool of `options.pool.maxConnections` connections (10 by default).
 * @throws AppError `service_unavailable` when the server cannot be reached; Error when a
 *   migration fails or the schema is newer than this linkguard.
 */
export async function openPostgresStore(
  url: string,
  options: PostgresStoreOptions = {},
): Promise<Store> {
  const onIdleError = options.onIdleError ?? (() => undefined);
  const db = new PgDatabase(url, onIdleError, {
    ...DEFAULT_PG_POOL,
    ...options.pool,
  });
  try {
    await migratePostgres(db.pool);
  } catch (error) {
    await db.close();
    throw storeError(error);
  }
  const keyCache = new CredentialCache<ApiKeyRecord>();
  const licenseCache = new CredentialCache<LicenseRecord>();
  // Both the report and the override store write overrides, so both clear this one cache.
  const overrideCache = new NotifiedSnapshotCache<OverrideSnapshot>();
  const listener = new CredentialListener(
    url,
    new Map<string, NotifiedCache>([
      ['api_keys', keyCache],
      ['licenses', licenseCache],
      ['verdict_overrides', overrideCache],
    ]),
    onIdleError,
  );
  await listener.start();
  const usage = new PgUsageStore(db);
  const intel = new PgIntelStore(db);
  let closed = false;
  return {
    keys: new PgKeyStore(db, keyCache),
    usage,
    payments: new PgPaymentStore(db),
    intel,
    licenses: new PgLicenseStore(db, licenseCache),
    oauth: new PgOAuthStore(db),
    reports: new PgReportStore(db, overrideCache),
    overrides: new PgOverrideStore(db, overrideCache),
    ping: async () => {
      await db.query('SELECT 1');
      if (usage.writeError !== null) {
        throw new Error('usage rows cannot be written', { cause: usage.writeError });
      }
    },
    close: async () => {
      if (closed) return;
      closed = true;
      try {
        await Promise.all([usage.flush(), intel.flushHistory()]);
      } finally {
        await listener.close();
        await db.close();
      }
    },
  };
}
