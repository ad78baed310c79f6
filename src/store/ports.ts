/**
 * @module store/ports
 * Persistence ports. Services depend on these interfaces only; `store/sqlite/` implements them
 * for the embedded deployment and a PostgreSQL adapter can implement them for scale-out without
 * changing callers (DESIGN §2). Every operation that must happen exactly once (revoking a key,
 * spending a monthly quota, claiming a nonce and its transaction) is a single atomic statement in the adapter, never a
 * read-then-write in application code. All methods are async for that reason, even when the
 * SQLite adapter answers synchronously.
 *
 * Times are epoch milliseconds (UTC). Months are `YYYY-MM` in UTC.
 */

/** An enterprise API key as stored: never the raw key, only its SHA-256. */
export interface ApiKeyRecord {
  /** Public identifier, `key_` + 12 base62 characters; safe to show and log. */
  id: string;
  /** Human label given at creation. */
  name: string;
  /** First characters of the raw key (`sk_live_` + 4), to recognise a key without revealing it. */
  prefix: string;
  /** SHA-256 of the raw key (32 bytes). */
  hash: Buffer;
  createdAt: number;
  /** Expiry instant (exclusive) or null for no expiry. */
  expiresAt: number | null;
  /** Revocation instant or null while active. */
  revokedAt: number | null;
  /** Requests per minute for this key, or null for the service default. */
  rateLimitPerMinute: number | null;
  /** Agreed monthly request allowance, or null when none was set. */
  monthlyAllowance: number | null;
  /** When true, requests above the monthly allowance are refused (DESIGN §4.15). */
  hardCap: boolean;
}

/** Fields given when creating a key; the id, prefix and hash come from `access/api-key.ts`. */
export type NewApiKey = Omit<ApiKeyRecord, 'revokedAt'>;

export interface KeyStore {
  /** Insert a new key. @throws if the id or hash already exists. */
  createKey(key: NewApiKey): Promise<void>;
  /** Look a key up by the SHA-256 of the presented raw key; null when unknown. */
  findKeyByHash(hash: Buffer): Promise<ApiKeyRecord | null>;
  /** Look a key up by id; null when unknown. */
  findKeyById(id: string): Promise<ApiKeyRecord | null>;
  /** All keys, oldest first. */
  listKeys(): Promise<ApiKeyRecord[]>;
  /**
   * Revoke a key at `at`. Atomic and idempotent.
   * @returns `revoked` on the first call, `already_revoked` afterwards, `not_found` for an unknown id.
   */
  revokeKey(id: string, at: number): Promise<'revoked' | 'already_revoked' | 'not_found'>;
}

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

/** A payment nonce as issued in a 402 challenge (spec §3, DESIGN §4.6). */
export interface IssuedNonce {
  /** UUIDv4. */
  nonce: string;
  /** SHA-256 (hex) of the normalized URL the nonce was issued for; the URL itself is not kept. */
  urlHash: string;
  issuedAt: number;
  expiresAt: number;
}

/** A settled x402 payment (DESIGN §3 step 4): no URL, nothing about the request but the nonce. */
export interface PaymentClaim {
  chain: 'solana' | 'base';
  /** Solana transaction signature (base58) or Base transaction hash (lower-case 0x hex). */
  txId: string;
  nonce: string;
  /** Solana fee payer / Base sender that paid (base58 or checksummed 0x address). */
  payer: string;
  /** USDC received by the recipient, atomic units (6 decimals). */
  amountAtomic: bigint;
  claimedAt: number;
}

/**
 * Outcome of {@link PaymentStore.claimPayment}: `claimed`, or why nothing was written.
 * `nonce_already_used` wins over `tx_already_claimed` when both hold (spec §3: a retry with a
 * claimed nonce is 409).
 */
export type ClaimOutcome =
  | 'claimed'
  | 'nonce_unknown'
  | 'nonce_expired'
  | 'request_mismatch'
  | 'nonce_already_used'
  | 'tx_already_claimed';

export interface PaymentStore {
  /** Store a freshly issued nonce. @throws on a duplicate nonce. */
  issueNonce(nonce: IssuedNonce): Promise<void>;
  /** Look a nonce up; null when unknown. */
  findNonce(nonce: string): Promise<(IssuedNonce & { consumedAt: number | null }) | null>;
  /**
   * Delete unconsumed nonces that expired before `before`; returns how many. Consumed nonces
   * stay with their claims.
   */
  purgeExpiredNonces(before: number): Promise<number>;
  /**
   * The single linearization point of a paid request (spec §3, DESIGN §4.6–4.7): in one atomic
   * step, consume the nonce (it must exist, be unconsumed, unexpired at `claim.claimedAt`, and
   * bound to `urlHash`) and insert the permanent claim of the transaction id. Either both happen
   * and the result is `claimed`, or neither and the result says why. The claim is durable when
   * the promise resolves (the SQLite adapter syncs this commit to disk).
   */
  claimPayment(claim: PaymentClaim, urlHash: string): Promise<ClaimOutcome>;
  /** The claim of a transaction id, or null when it never paid for a request. */
  findClaim(chain: PaymentClaim['chain'], txId: string): Promise<PaymentClaim | null>;
}

/** A threat-intelligence feed (layer 2): where its entries came from and how fresh they are. */
export interface FeedRecord {
  id: number;
  /** Unique, chosen at import (`--source`), shown in verdicts: `intel:<name>`. */
  name: string;
  /** Parser of `src/intel/feeds/` that reads it. */
  format: string;
  /** Refreshed from this URL on a schedule, or null for a file imported by hand. */
  url: string | null;
  /** Threat type a hit on this feed implies (spec §2.3 value), or null when it implies none. */
  threat: string | null;
  entryCount: number;
  /** Last successful import (epoch ms), or null before the first. */
  importedAt: number | null;
  /** Last refresh attempt (epoch ms), successful or not. */
  checkedAt: number | null;
  /** HTTP validators of the last download, for conditional GET. */
  etag: string | null;
  lastModified: string | null;
  /** Why the last refresh failed, or null. */
  lastError: string | null;
}

/** One feed entry as stored: a host or a URL as the feed gave it (classified when indexed). */
export interface StoredFeedEntry {
  list: 'deny' | 'allow' | 'fuzzy';
  kind: 'host' | 'url';
  value: string;
  target: string | null;
  /** When the feed first saw it (epoch ms), or null. */
  firstSeen: number | null;
}

/** A non-safe verdict (or feed hit) on a registrable domain, as the history records it. */
export interface HistoryEvent {
  /** Registrable domain only, never a URL (DESIGN §8). */
  domain: string;
  at: number;
  verdict: 'caution' | 'danger';
  threatTypes: readonly string[];
  /** Feeds that listed it (`intel:` names without the prefix), possibly empty. */
  sources: readonly string[];
}

/** What linkguard has seen of one registrable domain. */
export interface DomainHistory {
  domain: string;
  firstSeen: number;
  lastSeen: number;
  count: number;
  worstVerdict: 'caution' | 'danger';
  threatTypes: string[];
  sources: string[];
}

export interface IntelStore {
  /** Create a feed, or update its format, URL and threat when the name exists. */
  upsertFeed(feed: {
    name: string;
    format: string;
    url: string | null;
    threat: string | null;
  }): Promise<FeedRecord>;
  /**
   * Replace every entry of a feed in one transaction (readers see the old or the new set, never
   * a mix), and record the import time and HTTP validators.
   */
  replaceEntries(
    feedId: number,
    entries: readonly StoredFeedEntry[],
    meta: { importedAt: number; etag?: string | null; lastModified?: string | null },
  ): Promise<void>;
  /** Record a refresh attempt that changed no entries (304, or a failure with its error). */
  recordCheck(feedId: number, check: { checkedAt: number; error: string | null }): Promise<void>;
  listFeeds(): Promise<FeedRecord[]>;
  /** Delete a feed and its entries; false when no feed has that name. */
  removeFeed(name: string): Promise<boolean>;
  /**
   * A page of entries of all feeds in storage order, after the entry with id `afterId` (0 for
   * the first page): the index is built page by page so a rebuild never blocks requests long.
   */
  readEntries(
    afterId: number,
    limit: number,
  ): Promise<{ id: number; feedId: number; entry: StoredFeedEntry }[]>;
  /** A number that changes whenever feeds or entries change (any process). */
  feedsVersion(): Promise<number>;
  /**
   * Add events to the per-domain history. Adapters may buffer briefly (like usage rows);
   * `domainHistory` sees every recorded event.
   */
  recordHistory(events: readonly HistoryEvent[]): Promise<void>;
  /** The history of a registrable domain, or null when nothing was recorded. */
  domainHistory(domain: string): Promise<DomainHistory | null>;
}

/** A Premium license of the MCP connector as stored: never the raw license, only its SHA-256. */
export interface LicenseRecord {
  /** Public identifier, `lk_` + 12 base62 characters; safe to show and log. */
  id: string;
  /** Human label given at creation. */
  name: string;
  /** First characters of the raw license (`lic_` + 4), to recognise it without revealing it. */
  prefix: string;
  /** SHA-256 of the raw license (32 bytes). */
  hash: Buffer;
  createdAt: number;
  /** Revocation instant or null while active. */
  revokedAt: number | null;
}

/** Fields given when creating a license; the id, prefix and hash come from `access/license.ts`. */
export type NewLicense = Omit<LicenseRecord, 'revokedAt'>;

/** Connector checks spent by one license in one month. */
export interface LicenseUsage {
  licenseId: string;
  month: string;
  checks: number;
}

export interface LicenseStore {
  /** Insert a new license. @throws if the id or hash already exists. */
  createLicense(license: NewLicense): Promise<void>;
  /**
   * Look a license up by the SHA-256 of the presented raw license; null when unknown. Adapters
   * may cache, but a revocation or creation committed by any process is seen on the next call.
   */
  findLicenseByHash(hash: Buffer): Promise<LicenseRecord | null>;
  /** Look a license up by id; null when unknown. */
  findLicenseById(id: string): Promise<LicenseRecord | null>;
  /** All licenses, oldest first. */
  listLicenses(): Promise<LicenseRecord[]>;
  /**
   * Revoke a license at `at`. Atomic and idempotent.
   * @returns `revoked` on the first call, `already_revoked` afterwards, `not_found` for an unknown id.
   */
  revokeLicense(id: string, at: number): Promise<'revoked' | 'already_revoked' | 'not_found'>;
  /**
   * Atomically spend `count` checks (one per URL, a whole batch at once) of a license's month.
   * Refuses the whole reservation, incrementing nothing, when `used + count` would exceed `cap`.
   *
   * @param count checks to spend, an integer ≥ 1.
   * @param cap the month's limit, an integer ≥ 0 (`PREMIUM_MONTHLY_CHECKS` for Premium).
   * @returns `ok` and the month's checks after the call (unchanged when refused).
   * @throws RangeError for a non-integer or out-of-range `count` or `cap`; a store error for an
   *   unknown license or a malformed month.
   */
  reserveChecks(
    licenseId: string,
    month: string,
    count: number,
    cap: number,
  ): Promise<{ ok: boolean; used: number }>;
  /**
   * Give back `count` checks of a reservation whose request failed; never below zero.
   * @throws RangeError for a `count` that is not an integer ≥ 1.
   */
  releaseChecks(licenseId: string, month: string, count: number): Promise<void>;
  /**
   * Checks spent per license in `month` (only `licenseId` unless null), licenses oldest first;
   * licenses without checks that month are omitted.
   * @throws RangeError when `month` is not `YYYY-MM`.
   */
  licenseUsage(month: string, licenseId: string | null): Promise<LicenseUsage[]>;
}

/** The whole store, opened once per process and shared by the server and the CLI. */
export interface Store {
  readonly keys: KeyStore;
  readonly usage: UsageStore;
  readonly payments: PaymentStore;
  readonly intel: IntelStore;
  readonly licenses: LicenseStore;
  /**
   * Cheap liveness check for readiness probes; throws when the store is unusable, including when
   * buffered writes are failing.
   */
  ping(): Promise<void>;
  /** Flush buffered writes and close. */
  close(): Promise<void>;
}
