/**
 * @module store/ports/oauth-store
 * The connector's OAuth clients, pending sign-ins, codes, grants and tokens. Part of the
 * persistence ports: services depend on these interfaces only; `store/sqlite/` implements them.
 * Every operation that must happen exactly once is a single atomic statement in the adapter, never
 * a read-then-write in application code; all methods are async for that reason. Times are epoch
 * milliseconds (UTC), months `YYYY-MM` (UTC).
 */

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

/**
 * A cap on what one source (an IPv4 address or an IPv6 /64, as the SHA-256 of its text) may hold
 * at once on the open OAuth endpoints (docs/decisions.md, decision 140).
 */
export interface SourceCap {
  /** SHA-256 of the source address group; stored with the row, never the address itself. */
  sourceHash: Buffer;
  /** Live rows the source may hold; the insert that would pass it is refused. An integer ≥ 1. */
  max: number;
}

/** Outcome of an insert under a {@link SourceCap}. */
export type CappedInsert =
  { ok: true } | { ok: false; /** When a slot frees (epoch ms). */ retryAt: number };

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
 * Storage of the connector's OAuth 2.1 authorization server (docs/architecture.md, "Authorization server"): registered clients
 * (durable once they completed a sign-in, since clients cache their `client_id`; pruned a day
 * after registering when they never did), pending authorizations, codes, grants and tokens. Every secret (client secret, request id, CSRF token, code, token) is stored only as
 * its SHA-256. Each state change that must happen once (spending a code, rotating a refresh
 * token) is atomic in the adapter.
 */
export interface OAuthStore {
  /** Insert a registered client. @throws if the id exists. */
  registerClient(client: OAuthClientRecord): Promise<void>;
  /**
   * Register a client from a source under its cap: at most `cap.max` registrations of the source
   * within the last `REGISTRATION_SOURCE_WINDOW_MS` (one hour), counted and inserted atomically.
   * Also prunes ({@link OAuthStore.savePendingAuthorization} lists what).
   *
   * @param now the current instant; the client's `createdAt` should be it.
   * @returns `ok`, or the instant the oldest counted registration leaves the window.
   * @throws if the id exists.
   */
  registerClientFromSource(
    client: OAuthClientRecord,
    cap: SourceCap,
    now: number,
  ): Promise<CappedInsert>;
  /** A registered client, or null. */
  findClient(id: string): Promise<OAuthClientRecord | null>;
  /**
   * Hold an authorization request; also prunes: expired pending requests and tokens, codes a day
   * past their expiry, the source of registrations older than the cap's window, and clients
   * that never completed a sign-in (no grant, code or pending request) registered more than
   * `ABANDONED_REGISTRATION_TTL_MS` (a day) ago.
   *
   * @param now the current instant (what has expired is judged against it).
   * @param cap when given, the request is held only while its source has fewer than `cap.max`
   *   pending requests that have not expired; counted and inserted atomically.
   * @returns `ok`, or (refused under `cap`, nothing stored) when the source's first pending
   *   request expires.
   */
  savePendingAuthorization(
    pending: PendingAuthorizationRecord,
    now: number,
    cap?: SourceCap,
  ): Promise<CappedInsert>;
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
