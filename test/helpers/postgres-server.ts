/**
 * The machine's PostgreSQL server for tests and the bench (127.0.0.1:5432, trust authentication,
 * as on the CI machine; `LINKGUARD_TEST_POSTGRES_URL` points elsewhere): start it when it is not
 * running, create and drop databases with fresh names (so nothing touches another database), and
 * empty a linkguard database between tests. No test-runner hooks here (the bench imports it);
 * `postgres.ts` adds them.
 */
import { execSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';

import pg from 'pg';

/** Connection string of the maintenance database tests create their databases from. */
export const POSTGRES_ADMIN_URL =
  process.env.LINKGUARD_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** The URL of database `name` on the test server. */
export function postgresUrl(name: string): string {
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

async function reachable(): Promise<boolean> {
  const client = new pg.Client({
    connectionString: POSTGRES_ADMIN_URL,
    connectionTimeoutMillis: 2000,
  });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * Make sure the server answers, starting the machine's cluster (Debian's `pg_ctlcluster`) when
 * it does not; waits up to 30 s.
 * @throws when it still cannot be reached.
 */
export async function ensurePostgres(): Promise<void> {
  if (await reachable()) return;
  execSync(
    'pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | sort -V | tail -n 1)" main start',
    { stdio: 'ignore', shell: '/bin/sh', timeout: 30_000 },
  );
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (await reachable()) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`PostgreSQL at ${new URL(POSTGRES_ADMIN_URL).host} did not come up`);
}

async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Create an empty database with a fresh name. @returns its name. */
export async function createTestDatabase(): Promise<string> {
  await ensurePostgres();
  const name = `linkguard_test_${randomBytes(6).toString('hex')}`;
  await admin((client) => client.query(`CREATE DATABASE ${name} TEMPLATE template0`));
  return name;
}

/** Drop a database made by {@link createTestDatabase}, closing its remaining connections. */
export async function dropTestDatabase(name: string): Promise<void> {
  if (!/^linkguard_test_[0-9a-f]{12}$/.test(name)) throw new Error(`not a test database: ${name}`);
  await admin((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
}

/**
 * Empty every table of a migrated linkguard database (keeping `schema_migrations` and the
 * feeds' change counter, reset to 0), so each test starts from a new store without paying for a
 * new database.
 */
export async function emptyLinkguardTables(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string }>(
      `SELECT quote_ident(tablename) AS name FROM pg_tables WHERE schemaname = 'public'
        AND tablename NOT IN ('schema_migrations', 'intel_version')`,
    );
    if (rows.length > 0) {
      await client.query(`TRUNCATE ${rows.map((r) => r.name).join(', ')} RESTART IDENTITY CASCADE`);
    }
    await client.query('UPDATE intel_version SET version = 0');
  } finally {
    await client.end();
  }
}

/** Run one statement on the database at `url` with a short-lived connection. @returns its rows. */
export async function queryDatabase<R extends pg.QueryResultRow>(
  url: string,
  text: string,
  values: readonly unknown[] = [],
): Promise<R[]> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    return (await client.query<R>(text, values as unknown[])).rows;
  } finally {
    await client.end();
  }
}
