/**
 * @module store/postgres/credential-cache
 * A per-process cache of credential look-ups by hash (enterprise keys, licenses), kept coherent
 * across instances with PostgreSQL's LISTEN/NOTIFY: a trigger on `api_keys` and `licenses`
 * (migration 002) notifies channel {@link CREDENTIALS_CHANNEL} in the committing transaction,
 * whoever writes (any instance, the CLI, an operator's SQL), and every listening process drops
 * its cache when the notification arrives. Every authenticated request makes one such look-up;
 * a PostgreSQL round trip costs ~100 µs of this process's CPU, several times the rest of a
 * request's store work, so without the cache the PostgreSQL store could not stay within 1.5× the
 * embedded store's CPU (docs/bench.md).
 *
 * Bound: a revocation is refused on another instance once the notification has reached it, in
 * practice within a millisecond of the commit on a local network (measured in
 * `test/store/postgres-credential-cache.test.ts`). While the listening connection is down (not
 * yet connected, cut, or the server restarting) the cache is bypassed and cleared, and every
 * look-up reads the database, so a lost notification can never keep a revoked credential alive.
 * A look-up that was in flight when a notification arrived is not cached (generation check).
 * The same listener drives the cached snapshot of the overrides in force
 * (`notified-snapshot-cache.ts`, table `verdict_overrides`), with the same bound.
 */

import pg from 'pg';

/** NOTIFY channel of credential and override changes (payload: the table name). */
export const CREDENTIALS_CHANNEL = 'linkguard_credentials';

/** `application_name` of the listening connection (visible in `pg_stat_activity`). */
export const LISTENER_APPLICATION_NAME = 'linkguard-notifications';

/** Entries kept per cache: far above any real number of credentials, bounded against floods. */
const MAX_ENTRIES = 10_000;

/**
 * How often the listening connection proves it is alive (`SELECT 1`, failing after the same
 * time). A connection cut without a TCP reset (a partition) raises no error by itself; this
 * bounds how long such a silent loss can leave the cache enabled without notifications.
 */
export const HEARTBEAT_MS = 2000;

/** Reconnect delays of the listening connection after it failed, ms (then the last, repeated). */
const RECONNECT_DELAYS_MS = [250, 1000, 5000];

/**
 * What the listener drives: a cache of one table's rows, dropped on each notification naming the
 * table and bypassed while the listening connection is down.
 */
export interface NotifiedCache {
  /** Forget everything (a row of this table changed somewhere). */
  invalidate(): void;
  /** Use the cache (true) only while notifications are being received; forgets everything. */
  setEnabled(enabled: boolean): void;
}

/** One cache of look-ups by hash, for one table. */
export class CredentialCache<V> implements NotifiedCache {
  readonly #entries = new Map<string, V | null>();
  #generation = 0;
  #enabled = false;

  /**
   * The cached value for `hash`, or `load(hash)` — cached when the cache is enabled and no
   * notification arrived while it loaded. Unknown hashes (null) are cached too, so a flood of
   * made-up credentials costs no queries.
   */
  async get(hash: Buffer, load: (hash: Buffer) => Promise<V | null>): Promise<V | null> {
    if (!this.#enabled) return load(hash);
    const key = hash.toString('hex');
    const cached = this.#entries.get(key);
    if (cached !== undefined) return cached;
    const generation = this.#generation;
    const value = await load(hash);
    if (this.#unchangedSince(generation)) {
      if (this.#entries.size >= MAX_ENTRIES) this.#entries.clear();
      this.#entries.set(key, value);
    }
    return value;
  }

  /** True when caching is on and no notification arrived since `generation` was read. */
  #unchangedSince(generation: number): boolean {
    return this.#enabled && generation === this.#generation;
  }

  /** Forget everything (a credential of this table changed somewhere). */
  invalidate(): void {
    this.#generation += 1;
    this.#entries.clear();
  }

  /** Use the cache (true) only while notifications are being received. */
  setEnabled(enabled: boolean): void {
    this.invalidate();
    this.#enabled = enabled;
  }
}

/**
 * The listening connection: one `pg.Client` outside the pool running `LISTEN`, reconnecting
 * after failures, driving the caches of each table.
 */
export class CredentialListener {
  readonly #url: string;
  readonly #caches: ReadonlyMap<string, NotifiedCache>;
  readonly #onError: (error: Error) => void;
  #client: pg.Client | null = null;
  #timer: NodeJS.Timeout | null = null;
  #heartbeat: NodeJS.Timeout | null = null;
  #failures = 0;
  #closed = false;

  /**
   * @param caches cache per table name (`api_keys`, `licenses`, `verdict_overrides`).
   * @param onError told when the listening connection fails (for the log; the caches are
   *   bypassed until it is back).
   */
  constructor(
    url: string,
    caches: ReadonlyMap<string, NotifiedCache>,
    onError: (error: Error) => void,
  ) {
    this.#url = url;
    this.#caches = caches;
    this.#onError = onError;
  }

  /** Connect and LISTEN; resolves when listening (or when the first attempt failed: retried). */
  async start(): Promise<void> {
    if (this.#closed) return;
    const client = new pg.Client({
      connectionString: this.#url,
      application_name: LISTENER_APPLICATION_NAME,
      query_timeout: HEARTBEAT_MS,
      connectionTimeoutMillis: HEARTBEAT_MS,
    });
    this.#client = client;
    const lost = (error: Error) => {
      if (this.#client !== client) return;
      this.#client = null;
      for (const cache of this.#caches.values()) cache.setEnabled(false);
      this.#stopHeartbeat();
      client.removeAllListeners();
      client.on('error', () => undefined);
      client.end().catch(() => undefined);
      if (this.#closed) return;
      this.#onError(error);
      const delay =
        RECONNECT_DELAYS_MS[Math.min(this.#failures, RECONNECT_DELAYS_MS.length - 1)] ?? 5000;
      this.#failures += 1;
      this.#timer = setTimeout(() => {
        this.#timer = null;
        void this.start();
      }, delay);
      this.#timer.unref();
    };
    client.on('error', lost);
    client.on('end', () => {
      lost(new Error('credential notification connection ended'));
    });
    client.on('notification', (message) => {
      const cache = message.payload === undefined ? undefined : this.#caches.get(message.payload);
      // An unknown payload (a later schema's table) clears everything rather than nothing.
      if (cache === undefined) for (const c of this.#caches.values()) c.invalidate();
      else cache.invalidate();
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${CREDENTIALS_CHANNEL}`);
    } catch (error) {
      lost(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    if (this.#client !== client) return;
    this.#failures = 0;
    // Enabled only now: whatever changed before LISTEN took effect is not in the (empty) cache.
    for (const cache of this.#caches.values()) cache.setEnabled(true);
    this.#heartbeat = setInterval(() => {
      client.query('SELECT 1').catch((error: unknown) => {
        lost(error instanceof Error ? error : new Error(String(error)));
      });
    }, HEARTBEAT_MS);
    this.#heartbeat.unref();
  }

  #stopHeartbeat(): void {
    if (this.#heartbeat !== null) clearInterval(this.#heartbeat);
    this.#heartbeat = null;
  }

  /** Stop listening and reconnecting; the caches are bypassed from now on. */
  async close(): Promise<void> {
    this.#closed = true;
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#stopHeartbeat();
    for (const cache of this.#caches.values()) cache.setEnabled(false);
    const client = this.#client;
    this.#client = null;
    if (client !== null) {
      client.removeAllListeners();
      client.on('error', () => undefined);
      await client.end().catch(() => undefined);
    }
  }
}
