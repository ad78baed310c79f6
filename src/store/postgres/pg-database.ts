/**
 * @module store/postgres/pg-database
 * The connection pool every PostgreSQL adapter shares, with two helpers: `query` (one statement
 * on any pooled connection) and `transaction` (several statements on one connection between
 * BEGIN and COMMIT, rolled back on any error). Both turn "cannot reach the database" into 503
 * `service_unavailable` ({@link storeError}). Transactions run at PostgreSQL's default READ
 * COMMITTED: every exactly-once step is a conditional UPDATE/INSERT whose row lock or unique
 * constraint decides, never a read followed by a write.
 */

import pg from 'pg';

import { storeError } from './pg-errors.js';

/**
 * Column types as JavaScript values: `bigint` columns hold epoch milliseconds and counters, all
 * far below 2^53, so they are read as numbers (pg reads them as strings by default, to be safe
 * for values beyond 2^53). `numeric` stays a string (USDC amounts are read with `BigInt`).
 */
const TYPES = new pg.TypeOverrides();
TYPES.setTypeParser(pg.types.builtins.INT8, 'text', Number);

/** Pool sizing and timeouts. */
export interface PgPoolOptions {
  /** Connections per process (pg-pool's `max`). */
  maxConnections: number;
  /** Milliseconds to wait for a connection (new or from the pool) before failing with 503. */
  connectTimeoutMs: number;
  /** Milliseconds one statement may run on the server (`statement_timeout`). */
  statementTimeoutMs: number;
}

/**
 * Short enough that a database which accepts connections but never answers is refused (503)
 * within about 6 s instead of holding requests, long enough for the largest statements here (a
 * month's usage report, a 5,000-row feed insert) on a busy server.
 */
export const DEFAULT_PG_POOL: PgPoolOptions = {
  maxConnections: 10,
  connectTimeoutMs: 3000,
  statementTimeoutMs: 5000,
};

/** A pool and its helpers, shared by the adapters of one store. */
export class PgDatabase {
  readonly pool: pg.Pool;

  /**
   * @param url a `postgres://` connection string (credentials stay inside pg; never logged).
   * @param onIdleError called when an idle pooled connection fails (the server restarted or the
   *   network dropped); without a listener pg-pool's `error` event would crash the process.
   */
  constructor(url: string, onIdleError: (error: Error) => void, options = DEFAULT_PG_POOL) {
    this.pool = new pg.Pool({
      connectionString: url,
      max: options.maxConnections,
      connectionTimeoutMillis: options.connectTimeoutMs,
      statement_timeout: options.statementTimeoutMs,
      // The same bound client-side, for a server that stops answering mid-statement.
      query_timeout: options.statementTimeoutMs + 1000,
      application_name: 'linkguard',
      // TCP keepalive notices a peer that vanished without a reset on idle pooled connections.
      keepAlive: true,
      types: TYPES,
    });
    this.pool.on('error', onIdleError);
  }

  /**
   * Run one statement. @returns its rows.
   * @throws AppError `service_unavailable` when the database cannot be reached; the driver's
   *   error otherwise.
   */
  async query<R extends pg.QueryResultRow>(
    text: string,
    values: readonly unknown[] = [],
  ): Promise<pg.QueryResult<R>> {
    try {
      return await this.pool.query<R>(text, values as unknown[]);
    } catch (error) {
      throw storeError(error);
    }
  }

  /**
   * Run `work` inside BEGIN … COMMIT on one connection. `work` may return `rollback(value)` to
   * end the transaction with ROLLBACK and still return `value` (a refused claim writes nothing).
   * @throws as {@link query}; a failing `work` is rolled back and its error rethrown.
   */
  async transaction<T>(work: (client: pg.PoolClient) => Promise<T | Rollback<T>>): Promise<T> {
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (error) {
      throw storeError(error);
    }
    let broken = false;
    try {
      await client.query('BEGIN');
      const result = await work(client);
      if (result instanceof Rollback) {
        await client.query('ROLLBACK');
        return result.value;
      }
      await client.query('COMMIT');
      return result;
    } catch (error) {
      try {
        await client.query('ROLLBACK');
      } catch {
        // The connection is gone; the server rolls the transaction back when it notices.
        broken = true;
      }
      throw storeError(error);
    } finally {
      // A connection that failed mid-transaction is destroyed, not reused.
      client.release(broken);
    }
  }

  close(): Promise<void> {
    return this.pool.end();
  }
}

/** Marks a transaction result that must be rolled back (see {@link PgDatabase.transaction}). */
export class Rollback<T> {
  constructor(readonly value: T) {}
}
