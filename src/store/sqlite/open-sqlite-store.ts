/**
 * @module store/sqlite/open-sqlite-store
 * The embedded store (docs/architecture.md, "Store"): one better-sqlite3 connection per process, in WAL mode so
 * readers (CLI, readiness probe) never block the server's writes. Opening migrates the schema.
 */

import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

import Database from 'better-sqlite3';

import type { OverrideSnapshot } from '../ports/correction-store.js';
import type { Store } from '../ports/store.js';
import { asPromise } from './as-promise.js';
import { migrate } from './migrate.js';
import { SnapshotCache } from './snapshot-cache.js';
import { SqliteIntelStore } from './sqlite-intel-store.js';
import { SqliteKeyStore } from './sqlite-key-store.js';
import { SqliteLicenseStore } from './sqlite-license-store.js';
import { SqliteOAuthStore } from './sqlite-oauth-store.js';
import { SqliteOverrideStore } from './sqlite-override-store.js';
import { SqlitePaymentStore } from './sqlite-payment-store.js';
import { SqliteReportStore } from './sqlite-report-store.js';
import { SqliteUsageStore } from './sqlite-usage-store.js';

const IN_MEMORY = ':memory:';

/**
 * Open (creating if needed) the SQLite store at `path` and apply pending migrations.
 *
 * Pragmas: `journal_mode=WAL` (concurrent readers; ignored for `:memory:`), `synchronous=NORMAL`
 * (durable across process crashes; in WAL mode a power loss can only lose the last commits,
 * never corrupt the file), `busy_timeout=5000` ms (a second process, e.g. the CLI, waits for the
 * write lock instead of failing), `foreign_keys=ON` (usage rows must name an existing key).
 *
 * @param path a file path (its parent directory is created) or `:memory:` for a private
 *   in-memory database (tests).
 * @throws when the file cannot be opened or a migration fails (see `migrate`).
 */
export function openSqliteStore(path: string): Store {
  if (path !== IN_MEMORY) mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('busy_timeout = 5000');
    db.pragma('foreign_keys = ON');
    migrate(db);
  } catch (error) {
    db.close();
    throw error;
  }

  const ping = db.prepare('SELECT 1');
  const usage = new SqliteUsageStore(db);
  const intel = new SqliteIntelStore(db);
  // Both write overrides (a resolution may add one), so both clear the one cache.
  const overrideCache = new SnapshotCache<OverrideSnapshot>(db);
  return {
    keys: new SqliteKeyStore(db),
    usage,
    payments: new SqlitePaymentStore(db),
    intel,
    licenses: new SqliteLicenseStore(db),
    oauth: new SqliteOAuthStore(db),
    reports: new SqliteReportStore(db, overrideCache),
    overrides: new SqliteOverrideStore(db, overrideCache),
    ping: () =>
      asPromise(() => {
        ping.get();
        if (usage.writeError !== null) {
          throw new Error('usage rows cannot be written', { cause: usage.writeError });
        }
      }),
    close: () =>
      asPromise(() => {
        if (!db.open) return;
        try {
          usage.flushNow();
          intel.flushHistory();
        } finally {
          db.close();
        }
      }),
  };
}
