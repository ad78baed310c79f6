/**
 * @module store/sqlite/migrate
 * Schema migrations of the embedded store. Migrations are TypeScript modules (so `tsc` ships them
 * with the build, no loose `.sql` files to copy), numbered from 1 without gaps, and applied in
 * order, each in its own transaction together with its row in `schema_migrations`: a migration
 * is either applied and recorded, or not at all. `openSqliteStore` runs this on every open; an
 * up-to-date database costs one indexed read per migration.
 */

import type Database from 'better-sqlite3';

import { migration001 } from './migrations/001-initial.js';
import { migration002 } from './migrations/002-payment-claims.js';
import { migration003 } from './migrations/003-threat-intel.js';
import { migration004 } from './migrations/004-licenses.js';
import { migration005 } from './migrations/005-oauth.js';
import { migration006 } from './migrations/006-server-secrets.js';
import { migration007 } from './migrations/007-oauth-sources.js';
import { migration008 } from './migrations/008-corrections.js';
import { migration009 } from './migrations/009-report-redaction.js';

/** One schema step. `version` is its number (1, 2, …); `sql` may hold several statements. */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** Every migration of the SQLite store, in order. Append new ones; never edit applied ones. */
export const MIGRATIONS: readonly Migration[] = [
  migration001,
  migration002,
  migration003,
  migration004,
  migration005,
  migration006,
  migration007,
  migration008,
  migration009,
];

/**
 * Apply the pending migrations to `db`.
 *
 * Each step runs in a `BEGIN IMMEDIATE` transaction that re-checks `schema_migrations` after
 * taking the write lock, so two processes opening a fresh file at once apply each step once.
 *
 * @param migrations the list to apply, {@link MIGRATIONS} unless a test passes its own.
 * @param now clock for `applied_at` (epoch ms).
 * @returns the versions applied by this call, in order; `[]` when the database was up to date.
 * @throws Error when the list is not numbered 1..n, when the database was migrated by a newer
 *   linkguard (a version this code does not know), or when a migration's SQL fails (that
 *   migration is rolled back and not recorded; earlier ones stay applied).
 */
export function migrate(
  db: Database.Database,
  migrations: readonly Migration[] = MIGRATIONS,
  now: () => number = Date.now,
): number[] {
  migrations.forEach((m, i) => {
    if (m.version !== i + 1) {
      throw new Error(`migration "${m.name}" has version ${m.version}, expected ${i + 1}`);
    }
  });

  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY,
    applied_at INTEGER NOT NULL
  ) STRICT`);

  const newest = db
    .prepare<[], { v: number | null }>('SELECT max(version) AS v FROM schema_migrations')
    .get();
  const known = migrations.length;
  if (newest?.v != null && newest.v > known) {
    throw new Error(
      `database schema version ${newest.v} is newer than this linkguard (knows up to ${known}); ` +
        'upgrade linkguard or use another database',
    );
  }

  const isApplied = db.prepare<[number], { one: 1 }>(
    'SELECT 1 AS one FROM schema_migrations WHERE version = ?',
  );
  const record = db.prepare<[number, number]>(
    'INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)',
  );
  const applyOne = db.transaction((m: Migration): boolean => {
    if (isApplied.get(m.version) !== undefined) return false;
    db.exec(m.sql);
    record.run(m.version, now());
    return true;
  });

  const applied: number[] = [];
  for (const m of migrations) {
    if (applyOne.immediate(m)) applied.push(m.version);
  }
  return applied;
}
