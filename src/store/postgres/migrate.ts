/**
 * @module store/postgres/migrate
 * Schema migrations of the PostgreSQL store, numbered from 1 without gaps and applied in order,
 * each in its own transaction together with its row in `schema_migrations`. All of it runs while
 * holding a session-level advisory lock (`pg_advisory_lock`), so N instances starting at once
 * against a fresh database apply each step exactly once: the others wait, then find nothing left
 * to do. The lock is released when the migrating connection ends, also if the process dies.
 */

import type { Pool } from 'pg';

import { migration001 } from './migrations/001-initial.js';
import { migration002 } from './migrations/002-credential-notifications.js';
import { migration003 } from './migrations/003-server-secrets.js';
import { migration004 } from './migrations/004-oauth-sources.js';
import { migration005 } from './migrations/005-corrections.js';
import { migration006 } from './migrations/006-report-redaction.js';

/** One schema step. `version` is its number (1, 2, …); `sql` may hold several statements. */
export interface PostgresMigration {
  version: number;
  name: string;
  sql: string;
}

/** Every migration of the PostgreSQL store, in order. Append new ones; never edit applied ones. */
export const POSTGRES_MIGRATIONS: readonly PostgresMigration[] = [
  migration001,
  migration002,
  migration003,
  migration004,
  migration005,
  migration006,
];

/**
 * Key of the advisory lock that serializes migrations: an arbitrary constant of this
 * application (the first 8 bytes of SHA-256("linkguard migrations") read as a signed bigint),
 * so it does not collide with another application's locks in a shared database.
 */
export const MIGRATION_LOCK_KEY = '-1392873258909768073';

/**
 * Apply the pending migrations through one connection of `pool`.
 *
 * @param migrations the list to apply, {@link POSTGRES_MIGRATIONS} unless a test passes its own.
 * @param now clock for `applied_at` (epoch ms).
 * @returns the versions applied by this call, in order; `[]` when the database was up to date.
 * @throws Error when the list is not numbered 1..n, when the database was migrated by a newer
 *   linkguard, or when a migration's SQL fails (that migration is rolled back and not recorded;
 *   earlier ones stay applied); the driver's error when the server cannot be reached.
 */
export async function migratePostgres(
  pool: Pool,
  migrations: readonly PostgresMigration[] = POSTGRES_MIGRATIONS,
  now: () => number = Date.now,
): Promise<number[]> {
  migrations.forEach((m, i) => {
    if (m.version !== i + 1) {
      throw new Error(`migration "${m.name}" has version ${m.version}, expected ${i + 1}`);
    }
  });
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
        version integer PRIMARY KEY,
        applied_at bigint NOT NULL
      )`);
      const done = await client.query<{ version: number }>(
        'SELECT version FROM schema_migrations ORDER BY version',
      );
      const appliedBefore = new Set(done.rows.map((row) => row.version));
      const newest = Math.max(0, ...appliedBefore);
      if (newest > migrations.length) {
        throw new Error(
          `database schema version ${newest} is newer than this linkguard (knows up to ` +
            `${migrations.length}); upgrade linkguard or use another database`,
        );
      }
      const applied: number[] = [];
      for (const m of migrations) {
        if (appliedBefore.has(m.version)) continue;
        await client.query('BEGIN');
        try {
          await client.query(m.sql);
          await client.query(
            'INSERT INTO schema_migrations (version, applied_at) VALUES ($1, $2)',
            [m.version, now()],
          );
          await client.query('COMMIT');
        } catch (error) {
          await client.query('ROLLBACK');
          throw new Error(`migration ${m.version} (${m.name}) failed`, { cause: error });
        }
        applied.push(m.version);
      }
      return applied;
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  } finally {
    client.release();
  }
}
