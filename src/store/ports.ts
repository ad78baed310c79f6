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

/** How a registered client authenticates at the token endpoint (RFC 7591 §2). */
export type ClientAuthMethod = 'none' | 'client_secret_post' | 'client_secret_basic';

/** A client of the connector's authorization server, registered through RFC 7591. */
export interface OAuthClientRecord {
  /** Public identifier, `mcpc_` + 12 base62 characters. */
  id: string;
  /** SHA-256 of the client secret (32 bytes); null for a public client (`auth_method` none). */
  secretHash: Buffer | null;
  authMethod: ClientAuthMethod;
  /** Registered redirect URIs, compared exactly (loopback ports excepted, RFC 8252 §7.3). */
  redirectUris: string[];
  /** Registered grant types (`authorization_code`, optionally `refresh_token`). */
  grantTypes: string[];
  /** `client_name` as registered (untrusted text), or null. */
  name: string | null;
  /** The client metadata as accepted, echoed back in the registration response. */
  metadata: Record<string, unknown>;
  createdAt: number;
}

/** Whose checks an authorization spends: a Premium license or an enterprise key (by id). */
export interface OAuthSubject {
  kind: 'license' | 'enterprise';
  id: string;
}

/** The parameters of an authorization request held while the user fills in the page. */
export interface PendingAuthorizationRecord {
  /** SHA-256 of the request id carried by the page's form. */
  hash: Buffer;
  clientId: string;
  redirectUri: string;
  /** Whether the request named `redirect_uri` (then the token request must repeat it). */
  redirectUriGiven: boolean;
  /** PKCE S256 challenge (RFC 7636), 43 base64url characters. */
  codeChallenge: string;
  state: string | null;
  /** RFC 8707 resource the token will be bound to. */
  resource: string;
  scope: string;
  /** SHA-256 of the CSRF token bound to the browser by a cookie. */
  csrfHash: Buffer;
  expiresAt: number;
  /** Refused credentials entered on this request's page so far. */
  failedAttempts: number;
}

/** A one-time authorization code as stored (hashed), with what it was issued for. */
export interface AuthorizationCodeRecord {
  /** SHA-256 of the code. */
  hash: Buffer;
  clientId: string;
  redirectUri: string;
  redirectUriGiven: boolean;
  codeChallenge: string;
  resource: string;
  scope: string;
  subject: OAuthSubject;
  expiresAt: number;
}

/** One user's authorization of one client: the family of tokens issued from one code. */
export interface OAuthGrantRecord {
  /** Public identifier, `grt_` + 12 base62 characters. */
  id: string;
  clientId: string;
  subject: OAuthSubject;
  /** RFC 8707 resource (audience) every token of the grant is bound to. */
  resource: string;
  scope: string;
  createdAt: number;
  revokedAt: number | null;
}

/** A token to store: only its hash and expiry. */
export interface NewOAuthToken {
  /** SHA-256 of the raw token. */
  hash: Buffer;
  expiresAt: number;
}

/** The tokens of one issuance: an access token and, when the client may refresh, a refresh token. */
export interface IssuedTokenHashes {
  access: NewOAuthToken;
  refresh: NewOAuthToken | null;
}

/** A stored token with its grant. */
export interface OAuthTokenRecord {
  kind: 'access' | 'refresh';
  expiresAt: number;
  /** When a refresh token was exchanged for new tokens (rotation); null while unused. */
  rotatedAt: number | null;
  grant: OAuthGrantRecord;
}

/** Outcome of spending an authorization code. */
export type CodeRedemption =
  | { status: 'first_use'; code: AuthorizationCodeRecord }
  | { status: 'reused'; grantId: string | null }
  | { status: 'unknown' };

/** Outcome of rotating a refresh token. */
export type RefreshRotation =
  | { status: 'rotated'; grant: OAuthGrantRecord }
  | { status: 'reused'; grantId: string }
  | { status: 'invalid' };

/**
 * Storage of the connector's OAuth 2.1 authorization server (DESIGN §7): registered clients
 * (durable, since clients cache their `client_id`), pending authorizations, codes, grants and
 * tokens. Every secret (client secret, request id, CSRF token, code, token) is stored only as
 * its SHA-256. Each state change that must happen once (spending a code, rotating a refresh
 * token) is atomic in the adapter.
 */
export interface OAuthStore {
  /** Insert a registered client. @throws if the id exists. */
  registerClient(client: OAuthClientRecord): Promise<void>;
  /** A registered client, or null. */
  findClient(id: string): Promise<OAuthClientRecord | null>;
  /**
   * Hold an authorization request; also deletes expired pending requests, codes and tokens.
   * @param now the current instant (what has expired is judged against it).
   */
  savePendingAuthorization(pending: PendingAuthorizationRecord, now: number): Promise<void>;
  /** A pending request by the hash of its id, expired or not; null when unknown or taken. */
  findPendingAuthorization(hash: Buffer): Promise<PendingAuthorizationRecord | null>;
  /** Count one refused credential on a pending request. @returns attempts so far (0 if unknown). */
  countFailedAttempt(hash: Buffer): Promise<number>;
  /** Delete and return a pending request, at most once. Null when unknown or already taken. */
  takePendingAuthorization(hash: Buffer): Promise<PendingAuthorizationRecord | null>;
  /** Store a new authorization code. */
  saveCode(code: AuthorizationCodeRecord): Promise<void>;
  /**
   * Spend a code: the first call marks it used at `at` and returns it, whatever the caller then
   * decides; later calls mark it reused and return `reused` with the grant issued from it (null
   * if none was yet: see `createGrant`).
   */
  redeemCode(hash: Buffer, at: number): Promise<CodeRedemption>;
  /**
   * Create a grant and its first tokens, recording the grant on the code it came from.
   * @param codeHash the code's hash, so a later reuse of the code can revoke the grant.
   * @returns false when the code was presented again meanwhile (between `redeemCode` and this
   *   call): the grant is then stored revoked, without tokens, and must not be handed out.
   */
  createGrant(
    grant: OAuthGrantRecord,
    tokens: IssuedTokenHashes,
    codeHash: Buffer,
  ): Promise<boolean>;
  /** A token (access or refresh) with its grant; null when unknown. Expiry is the caller's. */
  findToken(hash: Buffer): Promise<OAuthTokenRecord | null>;
  /**
   * Exchange a refresh token for new tokens of the same grant, at most once: `rotated` marks it
   * used and stores `tokens`; a token already rotated returns `reused` (the caller revokes the
   * grant: RFC 9700 §4.14.2); an unknown, expired or revoked one is `invalid`.
   */
  rotateRefreshToken(hash: Buffer, at: number, tokens: IssuedTokenHashes): Promise<RefreshRotation>;
  /** Revoke a grant and with it every token it issued. Idempotent. */
  revokeGrant(grantId: string, at: number): Promise<void>;
}

/** The whole store, opened once per process and shared by the server and the CLI. */
export interface Store {
  readonly keys: KeyStore;
  readonly usage: UsageStore;
  readonly payments: PaymentStore;
  readonly intel: IntelStore;
  readonly licenses: LicenseStore;
  readonly oauth: OAuthStore;
  /**
   * Cheap liveness check for readiness probes; throws when the store is unusable, including when
   * buffered writes are failing.
   */
  ping(): Promise<void>;
  /** Flush buffered writes and close. */
  close(): Promise<void>;
}
