/**
 * @module ratelimit/rate-limits
 * Per-minute request limits (README, "API"; docs/decisions.md, decisions 9–10): callers
 * without a key share a budget per source IP (60/min by default; the 402 challenge counts), each
 * enterprise key has its own budget (10,000/min by default, configurable per key), and the
 * connector's sign-in steps have a budget per IP. Fixed one-minute windows from
 * rate-limiter-flexible. Failed authentications on every door share one more budget per source,
 * 20 per 10 minutes (docs/decisions.md, decision 131): once it is spent the source's credentials
 * are refused unchecked, right or wrong. Every per-source budget counts an IPv6 client by its /64
 * (`sourceOf()`, decision 132).
 *
 * Embedded deployment: counters in process memory (`RateLimiterMemory`). Scale-out deployment
 * (REDIS_URL): counters in Redis (`RateLimiterRedis`), shared by every instance, each with an
 * in-process insurance limiter of the same budget that serves while Redis is unreachable
 * (docs/decisions.md, decision 116); the fallback is reported once per outage.
 */
import {
  type IRateLimiterOptions,
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
} from 'rate-limiter-flexible';

import type { RateLimitObserver } from '../observability/observer.js';
import type { Redis } from '../redis/redis-client.js';
import { sourceOf } from './source-address.js';

/**
 * Which budget a state belongs to; also the policy name of the `RateLimit-Policy` and
 * `RateLimit` header fields (draft-ietf-httpapi-ratelimit-headers-11, sections 3 and 4).
 */
export type RateLimitPolicy =
  | 'per-ip'
  | 'per-key'
  | 'sign-in-per-ip'
  | 'auth-failures'
  | 'reports-per-ip'
  | 'reports-per-credential'
  | 'report-checks-per-ip';

/** Outcome of one limiter call, also the source of the rate-limit headers (README, "API"). */
export interface RateLimitState {
  allowed: boolean;
  /** The budget counted against. */
  policy: RateLimitPolicy;
  /** Requests per window. */
  limit: number;
  /** Window length in seconds. */
  windowSeconds: number;
  /** Requests left in the current window (0 when refused). */
  remaining: number;
  /** Whole seconds until the window resets (≥ 1 when refused, so `Retry-After` is useful). */
  resetSeconds: number;
}

const WINDOW_SECONDS = 60;

/**
 * Budget per source IP for the connector's sign-in steps that create rows or check credentials:
 * client registration and the authorization form (docs/decisions.md). Far above what one person
 * or one client needs, low enough to make filling the store or guessing credentials pointless.
 */
export const OAUTH_PER_IP_PER_MINUTE = 30;

/**
 * Failed authentications one source may make per window, on all doors together (decision 131):
 * wrong or malformed API keys and tokens on `/v1/detect` and `/mcp`, failed client
 * authentication and refused codes or refresh tokens at `/oauth/token` and `/oauth/revoke`,
 * refused credentials on the sign-in page. A person mistyping a key, or a client with a stale
 * token, stays far below it; guessing gets 20 tries per 10 minutes.
 */
export const AUTH_FAILURES_PER_SOURCE = 20;
/** The window of {@link AUTH_FAILURES_PER_SOURCE}, seconds. */
export const AUTH_FAILURE_WINDOW_SECONDS = 600;

/**
 * Reports one source may file per hour without a credential (`POST /v1/reports` and the
 * `GET /report` page together): a site owner disputes a handful of URLs; a flood of reports
 * would bury the operator's queue (docs/decisions.md, issue 16).
 */
export const REPORTS_PER_SOURCE = 10;
/** Reports one enterprise key or connector credential may file per hour. */
export const REPORTS_PER_CREDENTIAL = 100;
/**
 * Verdicts one source may look up per hour on the `GET /report` page: free look-ups, so far
 * below the paid API's budget, enough for a site owner checking their own pages.
 */
export const REPORT_CHECKS_PER_SOURCE = 30;
/** The window of the report budgets, seconds. */
export const REPORT_WINDOW_SECONDS = 3600;

/** Shared counters in Redis (REDIS_URL). */
export interface RedisRateLimitOptions {
  /** An ioredis client (see `redis/redis-client.ts`: fails fast while disconnected). */
  client: Redis;
  /** Prefix of every Redis key written, e.g. `linkguard:`; rate-limit keys add `rl:<policy>:`. */
  keyPrefix: string;
  /**
   * Told once when a call is served by the in-process insurance limiter after Redis served (or
   * at the first fallback), and once when Redis serves again: the caller logs these transitions.
   */
  onFallback?: (event: 'down' | 'up') => void;
}

type Limiter = RateLimiterMemory | RateLimiterRedis;

export class RateLimits {
  private readonly publicLimiter: Limiter;
  private readonly keyLimiters = new Map<number, Limiter>();
  private readonly oauthLimiter: Limiter;
  private readonly failureLimiter: Limiter;
  private readonly reportSourceLimiter: Limiter;
  private readonly reportCredentialLimiter: Limiter;
  private readonly reportCheckLimiter: Limiter;
  private readonly redis: RedisRateLimitOptions | null;
  /** Results produced by an insurance limiter (so Redis served every other result). */
  private readonly insured = new WeakSet<RateLimiterRes>();
  /** Whether the last consume was served by an insurance limiter (transitions are reported). */
  private fallingBack = false;
  /** Told every refusal by its policy (metrics); null: nothing is recorded. */
  private readonly observer: RateLimitObserver | null;

  /**
   * @param publicPerMinute budget per source IP for callers without a key.
   * @param defaultKeyPerMinute budget of a key without its own limit.
   * @param options.redis count in Redis, shared by every instance using the same Redis and key
   *   prefix; absent: count in this process only (the embedded default).
   * @param options.observer told the policy of every refusal: a spent budget, or a source whose
   *   failed-authentication budget is spent asking again (metrics; never the key or address).
   */
  constructor(
    readonly publicPerMinute: number,
    readonly defaultKeyPerMinute: number,
    options: { redis?: RedisRateLimitOptions; observer?: RateLimitObserver | null } = {},
  ) {
    this.redis = options.redis ?? null;
    this.observer = options.observer ?? null;
    this.publicLimiter = this.limiter('per-ip', publicPerMinute);
    this.oauthLimiter = this.limiter('sign-in-per-ip', OAUTH_PER_IP_PER_MINUTE);
    this.failureLimiter = this.limiter(
      'auth-failures',
      AUTH_FAILURES_PER_SOURCE,
      AUTH_FAILURE_WINDOW_SECONDS,
    );
    this.reportSourceLimiter = this.limiter(
      'reports-per-ip',
      REPORTS_PER_SOURCE,
      REPORT_WINDOW_SECONDS,
    );
    this.reportCredentialLimiter = this.limiter(
      'reports-per-credential',
      REPORTS_PER_CREDENTIAL,
      REPORT_WINDOW_SECONDS,
    );
    this.reportCheckLimiter = this.limiter(
      'report-checks-per-ip',
      REPORT_CHECKS_PER_SOURCE,
      REPORT_WINDOW_SECONDS,
    );
  }

  /** Count one report filed without a credential from `ip`'s source (API or page). */
  consumeReportFromSource(ip: string): Promise<RateLimitState> {
    return this.consume(
      this.reportSourceLimiter,
      `report:${sourceOf(ip)}`,
      'reports-per-ip',
      REPORTS_PER_SOURCE,
      REPORT_WINDOW_SECONDS,
    );
  }

  /**
   * Count one report filed with a credential.
   * @param credentialId the key id or license id behind the credential (never the secret).
   */
  consumeReportFromCredential(credentialId: string): Promise<RateLimitState> {
    return this.consume(
      this.reportCredentialLimiter,
      `report:${credentialId}`,
      'reports-per-credential',
      REPORTS_PER_CREDENTIAL,
      REPORT_WINDOW_SECONDS,
    );
  }

  /** Count one verdict look-up of the `GET /report` page from `ip`'s source. */
  consumeReportCheck(ip: string): Promise<RateLimitState> {
    return this.consume(
      this.reportCheckLimiter,
      `check:${sourceOf(ip)}`,
      'report-checks-per-ip',
      REPORT_CHECKS_PER_SOURCE,
      REPORT_WINDOW_SECONDS,
    );
  }

  /** Count one request from client address `ip` against the public budget of its source. */
  consumePublic(ip: string): Promise<RateLimitState> {
    return this.consume(this.publicLimiter, `ip:${sourceOf(ip)}`, 'per-ip', this.publicPerMinute);
  }

  /** Count one sign-in step (client registration, authorization form) from `ip`'s source. */
  consumeOAuth(ip: string): Promise<RateLimitState> {
    return this.consume(
      this.oauthLimiter,
      `oauth:${sourceOf(ip)}`,
      'sign-in-per-ip',
      OAUTH_PER_IP_PER_MINUTE,
    );
  }

  /**
   * The public budget of `ip`'s source without counting a request (for responses refused before
   * access).
   *
   * @throws only for errors that are not a Redis outage (an outage reads the insurance limiter).
   */
  async peekPublic(ip: string): Promise<RateLimitState> {
    const res = await this.publicLimiter.get(`ip:${sourceOf(ip)}`);
    return stateOf(res, 'per-ip', this.publicPerMinute, true);
  }

  /**
   * Whether `ip`'s source may still present a credential: `allowed` is false once it has failed
   * {@link AUTH_FAILURES_PER_SOURCE} times in the current window, and `resetSeconds` is then the
   * `Retry-After`. Counts nothing. Call it before checking a credential, so an exhausted source
   * learns nothing, not even that a credential is right.
   */
  async peekFailures(ip: string): Promise<RateLimitState> {
    const res = await this.failureLimiter.get(`fail:${sourceOf(ip)}`);
    const allowed = res === null || res.consumedPoints < AUTH_FAILURES_PER_SOURCE;
    // Every door refuses the request unchecked when this is false (429 `auth_failures`).
    if (!allowed) this.observer?.refused('auth-failures');
    return stateOf(
      res,
      'auth-failures',
      AUTH_FAILURES_PER_SOURCE,
      allowed,
      AUTH_FAILURE_WINDOW_SECONDS,
    );
  }

  /** Count one failed authentication of `ip`'s source; the state after it. */
  recordFailure(ip: string): Promise<RateLimitState> {
    return this.consume(
      this.failureLimiter,
      `fail:${sourceOf(ip)}`,
      'auth-failures',
      AUTH_FAILURES_PER_SOURCE,
      AUTH_FAILURE_WINDOW_SECONDS,
    );
  }

  /** Count one request against a key's budget. */
  consumeKey(keyId: string, perMinute: number | null): Promise<RateLimitState> {
    const limit = perMinute ?? this.defaultKeyPerMinute;
    let limiter = this.keyLimiters.get(limit);
    if (limiter === undefined) {
      limiter = this.limiter('per-key', limit);
      this.keyLimiters.set(limit, limiter);
    }
    return this.consume(limiter, `key:${keyId}`, 'per-key', limit);
  }

  /**
   * A limiter of `points` per window: in memory, or in Redis with an in-memory insurance limiter
   * of the same budget (rate-limiter-flexible's `insuranceLimiter`, used for any Redis error).
   * Keys of one policy share a Redis prefix whatever the budget, so a key whose limit changes
   * keeps its count.
   */
  private limiter(
    policy: RateLimitPolicy,
    points: number,
    windowSeconds: number = WINDOW_SECONDS,
  ): Limiter {
    const budget: IRateLimiterOptions = { points, duration: windowSeconds };
    if (this.redis === null) return new RateLimiterMemory(budget);
    const insured = this.insured;
    const onFallback = (): void => {
      if (this.fallingBack) return;
      this.fallingBack = true;
      this.redis?.onFallback?.('down');
    };
    return new RateLimiterRedis({
      ...budget,
      storeClient: this.redis.client,
      keyPrefix: `${this.redis.keyPrefix}rl:${policy}`,
      // Do not wait for a connection that is down: go to the insurance limiter at once.
      rejectIfRedisNotReady: true,
      insuranceLimiter: new InsuranceLimiter(budget, insured, onFallback),
    });
  }

  private async consume(
    limiter: Limiter,
    key: string,
    policy: RateLimitPolicy,
    limit: number,
    windowSeconds: number = WINDOW_SECONDS,
  ): Promise<RateLimitState> {
    let res: RateLimiterRes;
    let allowed: boolean;
    try {
      res = await limiter.consume(key);
      allowed = true;
    } catch (rejection: unknown) {
      // rate-limiter-flexible rejects with a RateLimiterRes when the budget is spent; anything
      // else is an error of the limiter itself (not a Redis outage: the insurance takes those).
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      res = rejection;
      allowed = false;
      this.observer?.refused(policy);
    }
    if (this.redis !== null && !this.insured.has(res) && this.fallingBack) {
      this.fallingBack = false;
      this.redis.onFallback?.('up');
    }
    return stateOf(res, policy, limit, allowed, windowSeconds);
  }
}

/**
 * The in-process limiter that serves while Redis is unreachable. rate-limiter-flexible calls it
 * only after a Redis error, so each call marks its result as insured and reports the fallback.
 */
class InsuranceLimiter extends RateLimiterMemory {
  constructor(
    options: IRateLimiterOptions,
    private readonly insured: WeakSet<RateLimiterRes>,
    private readonly onUse: () => void,
  ) {
    super(options);
  }

  override async consume(
    key: string | number,
    pointsToConsume?: number,
    options?: Record<string, unknown>,
  ): Promise<RateLimiterRes> {
    this.onUse();
    try {
      const res = await super.consume(key, pointsToConsume, options);
      this.insured.add(res);
      return res;
    } catch (rejection: unknown) {
      if (rejection instanceof RateLimiterRes) this.insured.add(rejection);
      throw rejection;
    }
  }

  override get(
    key: string | number,
    options?: Record<string, unknown>,
  ): Promise<RateLimiterRes | null> {
    this.onUse();
    return super.get(key, options);
  }
}

function stateOf(
  res: RateLimiterRes | null,
  policy: RateLimitPolicy,
  limit: number,
  allowed: boolean,
  windowSeconds: number = WINDOW_SECONDS,
): RateLimitState {
  const base = { allowed, policy, limit, windowSeconds };
  if (res === null) return { ...base, remaining: limit, resetSeconds: windowSeconds };
  return {
    ...base,
    remaining: Math.max(0, res.remainingPoints),
    resetSeconds: Math.max(1, Math.ceil(res.msBeforeNext / 1000)),
  };
}

/** `reason` of a 429 refused because the source's failure budget is spent (decision 131). */
export const AUTH_FAILURES_REASON = 'auth_failures';

/** The message of such a 429, one sentence per fact. */
export function authFailuresMessage(retryAfterSeconds: number): string {
  return `Too many failed authentications from this address. Retry in ${String(retryAfterSeconds)} s.`;
}
