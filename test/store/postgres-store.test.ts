/**
 * The PostgreSQL store against the machine's PostgreSQL server, on a fresh database for this
 * file: the same store, license, OAuth and correction contracts as SQLite (each test on emptied
 * tables), and what only PostgreSQL has: migrations under an advisory lock when several
 * instances start at once, a refusal of a schema newer than this linkguard, and 503
 * `service_unavailable` when the server cannot be reached.
 */
import pg from 'pg';
import { describe, expect, it } from 'vitest';

import { isAppError } from '../../src/errors.js';
import { openStore } from '../../src/store/open-store.js';
import type { Store } from '../../src/store/ports/store.js';
import {
  migratePostgres,
  POSTGRES_MIGRATIONS,
  type PostgresMigration,
} from '../../src/store/postgres/migrate.js';
import { openPostgresStore } from '../../src/store/postgres/open-postgres-store.js';
import {
  createTestDatabase,
  dropTestDatabase,
  emptyLinkguardTables,
  postgresUrl,
  usePostgresDatabase,
} from '../helpers/postgres.js';
import { runCli } from '../helpers/run-cli.js';
import { describeCorrectionStoreContract } from './correction-store-contract.js';
import { describeLicenseStoreContract } from './license-store-contract.js';
import { describeOAuthStore } from './oauth-store-contract.js';
import { describeStoreContract } from './store-contract.js';

const databaseUrl = usePostgresDatabase();

/** A new store on emptied tables (the first call also migrates the fresh database). */
async function freshStore(): Promise<Store> {
  const store = await openPostgresStore(databaseUrl());
  await emptyLinkguardTables(databaseUrl());
  return store;
}

describeStoreContract('postgres', freshStore);
describeLicenseStoreContract('postgres', freshStore);
describeCorrectionStoreContract('postgres', async () => {
  const a = await freshStore();
  const b = await openPostgresStore(databaseUrl());
  return {
    a,
    b,
    seenOnNextCall: false,
    close: async () => {
      await a.close();
      await b.close();
    },
  };
});
describeOAuthStore('PostgreSQL', async () => {
  const a = await freshStore();
  const b = await openPostgresStore(databaseUrl());
  return {
    a,
    b,
    revokedAtOf: async (grantId) => {
      const client = new pg.Client({ connectionString: databaseUrl() });
      await client.connect();
      try {
        const { rows } = await client.query<{ revoked_at: string | null }>(
          'SELECT revoked_at FROM oauth_grants WHERE id = $1',
          [grantId],
        );
        const value = rows[0]?.revoked_at ?? null;
        return value === null ? null : Number(value);
      } finally {
        await client.end();
      }
    },
    close: async () => {
      await a.close();
      await b.close();
    },
  };
});

describe('PostgreSQL migrations', () => {
  it('eight instances opening one fresh database at once apply each migration once', async () => {
    const name = await createTestDatabase();
    try {
      const pools = Array.from(
        { length: 8 },
        () => new pg.Pool({ connectionString: postgresUrl(name), max: 1 }),
      );
      const applied = await Promise.all(pools.map((pool) => migratePostgres(pool)));
      await Promise.all(pools.map((pool) => pool.end()));
      // Exactly one opener applied every step; the others waited on the lock and found nothing.
      expect(applied.flat().sort()).toEqual(POSTGRES_MIGRATIONS.map((m) => m.version));
      expect(applied.filter((versions) => versions.length > 0)).toHaveLength(1);

      const store = await openStore({ kind: 'postgres', url: postgresUrl(name) });
      await expect(store.ping()).resolves.toBeUndefined();
      await store.close();
    } finally {
      await dropTestDatabase(name);
    }
  });

  it('a failing migration is rolled back and not recorded; a newer schema is refused', async () => {
    const name = await createTestDatabase();
    const pool = new pg.Pool({ connectionString: postgresUrl(name), max: 1 });
    try {
      const broken: PostgresMigration = {
        version: POSTGRES_MIGRATIONS.length + 1,
        name: 'broken',
        sql: 'CREATE TABLE half_done (id integer); SELECT no_such_function();',
      };
      await expect(migratePostgres(pool, [...POSTGRES_MIGRATIONS, broken])).rejects.toThrow(
        `migration ${broken.version} (broken) failed`,
      );
      const tables = await pool.query("SELECT 1 FROM pg_tables WHERE tablename = 'half_done'");
      expect(tables.rowCount).toBe(0);
      const versions = await pool.query<{ version: number }>(
        'SELECT version FROM schema_migrations ORDER BY version',
      );
      expect(versions.rows.map((r) => r.version)).toEqual(
        POSTGRES_MIGRATIONS.map((m) => m.version),
      );

      await pool.query('INSERT INTO schema_migrations (version, applied_at) VALUES (99, 0)');
      await expect(openPostgresStore(postgresUrl(name))).rejects.toThrow(
        /schema version 99 is newer than this linkguard/,
      );
    } finally {
      await pool.end();
      await dropTestDatabase(name);
    }
  });
});

// The real CLI from source: each run transpiles and loads it (seconds on a loaded machine).
describe('linkguard migrate on PostgreSQL', { timeout: 120_000 }, () => {
  it('creates the schema of a fresh database, then finds it up to date', async () => {
    const name = await createTestDatabase();
    try {
      const env = { DATABASE_URL: postgresUrl(name) };
      const first = await runCli(['migrate'], env);
      expect(first.stderr).toBe('');
      expect(first.stdout).toContain('Store is up to date (postgres).');
      expect(first.code).toBe(0);
      const pool = new pg.Pool({ connectionString: postgresUrl(name), max: 1 });
      try {
        const versions = await pool.query<{ version: number }>(
          'SELECT version FROM schema_migrations ORDER BY version',
        );
        expect(versions.rows.map((r) => r.version)).toEqual(
          POSTGRES_MIGRATIONS.map((m) => m.version),
        );
      } finally {
        await pool.end();
      }
      expect((await runCli(['migrate'], env)).code).toBe(0);
    } finally {
      await dropTestDatabase(name);
    }
  });

  it('fails with a clear message and exit code when the server cannot be reached', async () => {
    const result = await runCli(['migrate'], {
      DATABASE_URL: 'postgres://linkguard:s3cret-password@127.0.0.1:1/linkguard',
    });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('The store is unavailable');
    expect(result.stderr + result.stdout).not.toContain('s3cret');
  });
});

describe('PostgreSQL unreachable', () => {
  it('opening fails with 503 service_unavailable, naming no credentials', async () => {
    // A loopback port nothing listens on (port 1 needs root to bind; nothing does here).
    const url = 'postgres://linkguard:s3cret-password@127.0.0.1:1/linkguard';
    const error: unknown = await openPostgresStore(url).catch((e: unknown) => e);
    expect(isAppError(error) && error.code).toBe('service_unavailable');
    expect(isAppError(error) && error.retryAfter).toBe(5);
    expect((error as Error).message).not.toContain('s3cret');
  });
});
