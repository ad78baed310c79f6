/**
 * @module store/postgres/pg-usage-store
 * {@link UsageStore} on PostgreSQL: monthly counters spent with one conditional UPSERT, and the
 * append-only usage log. Usage rows are buffered and written with one multi-row INSERT per batch
 * (every {@link FLUSH_MS} ms or {@link BATCH_ROWS} rows), as in the SQLite adapter: one
 * round trip per request would cost more than judging the URL. Reads flush first; `close()`
 * flushes. A failing flush keeps the rows for the next one and makes `ping()` fail; beyond
 * {@link MAX_BUFFERED_ROWS} new rows are refused with the error.
 */

import type { KeyUsage, UsageEvent, UsageStore } from '../ports/usage-store.js';
import { monthRange } from '../store-values.js';
import type { PgDatabase } from './pg-database.js';

/** Longest a recorded row waits before it is written. */
export const FLUSH_MS = 100;
/** Rows that trigger an immediate write. */
export const BATCH_ROWS = 256;
/** Rows kept while writes fail, before new rows are refused. */
export const MAX_BUFFERED_ROWS = 100_000;

const USAGE_BY_MONTH = `SELECT k.id AS "keyId", $1::text AS month, count(*)::int AS requests,
    count(*) FILTER (WHERE e.verdict = 'safe')::int AS safe,
    count(*) FILTER (WHERE e.verdict = 'caution')::int AS caution,
    count(*) FILTER (WHERE e.verdict = 'danger')::int AS danger
  FROM api_keys AS k
  JOIN usage_events AS e ON e.key_id = k.id AND e.at >= $2 AND e.at < $3`;

export class PgUsageStore implements UsageStore {
  #buffer: UsageEvent[] = [];
  #timer: NodeJS.Timeout | null = null;
  #writing: Promise<void> = Promise.resolve();
  #writeError: unknown = null;

  constructor(private readonly db: PgDatabase) {}

  /** The error of the last failed batch write, or null; `ping()` reports it. */
  get writeError(): unknown {
    return this.#writeError;
  }

  async reserveMonthly(
    keyId: string,
    month: string,
    cap: number | null,
  ): Promise<{ ok: boolean; count: number }> {
    // One statement decides: it inserts the month's first reservation, or increments only while
    // count < cap; no row comes back when it refused. The row lock of the conflicting row
    // serializes concurrent reservations of every instance.
    const { rows } = await this.db.query<{ count: number }>(
      `INSERT INTO usage_monthly (key_id, month, count)
        SELECT $1, $2, 1 WHERE $3::bigint IS NULL OR $3::bigint > 0
        ON CONFLICT (key_id, month) DO UPDATE SET count = usage_monthly.count + 1
          WHERE $3::bigint IS NULL OR usage_monthly.count < $3::bigint
        RETURNING count`,
      [keyId, month, cap],
    );
    if (rows[0] !== undefined) return { ok: true, count: rows[0].count };
    // Refused: this read only reports the count, it decides nothing.
    const current = await this.db.query<{ count: number }>(
      'SELECT count FROM usage_monthly WHERE key_id = $1 AND month = $2',
      [keyId, month],
    );
    return { ok: false, count: current.rows[0]?.count ?? 0 };
  }

  async releaseMonthly(keyId: string, month: string): Promise<void> {
    await this.db.query(
      `UPDATE usage_monthly SET count = count - 1
        WHERE key_id = $1 AND month = $2 AND count > 0`,
      [keyId, month],
    );
  }

  recordUsage(event: UsageEvent): Promise<void> {
    if (this.#buffer.length >= MAX_BUFFERED_ROWS) {
      return Promise.reject(new Error('usage rows cannot be written', { cause: this.#writeError }));
    }
    this.#buffer.push(event);
    if (this.#buffer.length >= BATCH_ROWS) {
      this.#flushInBackground();
    } else if (this.#timer === null) {
      this.#timer = setTimeout(() => {
        this.#timer = null;
        this.#flushInBackground();
      }, FLUSH_MS);
      this.#timer.unref();
    }
    return Promise.resolve();
  }

  /** Write every buffered row now (after any write already under way). */
  flush(): Promise<void> {
    if (this.#timer !== null) {
      clearTimeout(this.#timer);
      this.#timer = null;
    }
    // Writes are chained, so rows reach the table in the order they were recorded.
    this.#writing = this.#writing.catch(() => undefined).then(() => this.#writeBuffered());
    return this.#writing;
  }

  async usageByMonth(month: string, keyId: string | null): Promise<KeyUsage[]> {
    const { from, to } = monthRange(month);
    await this.flush();
    const order = 'GROUP BY k.id, k.created_at, k.seq ORDER BY k.created_at, k.seq';
    const { rows } =
      keyId === null
        ? await this.db.query<KeyUsage>(`${USAGE_BY_MONTH} ${order}`, [month, from, to])
        : await this.db.query<KeyUsage>(`${USAGE_BY_MONTH} WHERE k.id = $4 ${order}`, [
            month,
            from,
            to,
            keyId,
          ]);
    return rows;
  }

  #flushInBackground(): void {
    this.flush().catch(() => {
      // Kept in #writeError: readiness fails and the next batch retries these rows.
    });
  }

  async #writeBuffered(): Promise<void> {
    if (this.#buffer.length === 0) return;
    const batch = this.#buffer;
    this.#buffer = [];
    try {
      await this.db.query(
        `INSERT INTO usage_events (key_id, at, url_hash, verdict, latency_ms)
          SELECT * FROM unnest($1::text[], $2::bigint[], $3::text[], $4::text[],
            $5::double precision[])`,
        [
          batch.map((e) => e.keyId),
          batch.map((e) => e.at),
          batch.map((e) => e.urlHash),
          batch.map((e) => e.verdict),
          batch.map((e) => e.latencyMs),
        ],
      );
      this.#writeError = null;
    } catch (error) {
      this.#buffer = batch.concat(this.#buffer);
      this.#writeError = error;
      throw error;
    }
  }
}
