/**
 * @module store/ports/usage-store
 * The per-key usage log and monthly allowances. Part of the persistence ports: services depend on
 * these interfaces only; `store/sqlite/` implements them. Every operation that must happen exactly
 * once is a single atomic statement in the adapter, never a read-then-write in application code;
 * all methods are async for that reason. Times are epoch milliseconds (UTC), months `YYYY-MM`
 * (UTC).
 */

/** Verdict values as stored in the usage log. */
export type StoredVerdict = 'safe' | 'caution' | 'danger';

/** One enterprise request in the usage log: nothing about the URL but a truncated hash. */
export interface UsageEvent {
  keyId: string;
  at: number;
  /** First 16 hex characters (64 bits) of SHA-256 of the normalized URL. */
  urlHash: string;
  verdict: StoredVerdict;
  latencyMs: number;
}

/** Usage of one key in one month. */
export interface KeyUsage {
  keyId: string;
  month: string;
  requests: number;
  safe: number;
  caution: number;
  danger: number;
}

export interface UsageStore {
  /**
   * Atomically count one request against a key's month. With `cap` set, refuses (returns
   * `{ ok: false }`) when the month's count has already reached it, without incrementing.
   */
  reserveMonthly(
    keyId: string,
    month: string,
    cap: number | null,
  ): Promise<{ ok: boolean; count: number }>;
  /** Give back a reservation whose request failed before it was served. */
  releaseMonthly(keyId: string, month: string): Promise<void>;
  /**
   * Append one usage row. Adapters may buffer rows briefly and write them in batches (the SQLite
   * adapter: up to 100 ms or 128 rows); `usageByMonth` sees every recorded row, and `flush()`
   * or `close()` make them durable. Rejects when rows cannot be written and the buffer is full.
   */
  recordUsage(event: UsageEvent): Promise<void>;
  /** Write every buffered usage row now. */
  flush(): Promise<void>;
  /** Usage per key for a month (all keys when `keyId` is null), from the usage log. */
  usageByMonth(month: string, keyId: string | null): Promise<KeyUsage[]>;
}
