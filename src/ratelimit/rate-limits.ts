/**
 * @module ratelimit/rate-limits
 * Per-minute request limits (spec §8, DESIGN §3.3): callers without a key share a budget per
 * source IP (60/min by default; the 402 challenge counts), each enterprise key has its own budget
 * (10,000/min by default, configurable per key). Fixed one-minute windows from
 * rate-limiter-flexible; in-process memory for the embedded deployment (a Redis store is the
 * scale-out variant, same interface).
 */
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';

/** Outcome of one limiter call, also the source of the `RateLimit-*` headers (DESIGN §4.8). */
export interface RateLimitState {
  allowed: boolean;
  /** Requests per window. */
  limit: number;
  /** Requests left in the current window (0 when refused). */
  remaining: number;
  /** Whole seconds until the window resets (≥ 1 when refused, so `Retry-After` is useful). */
  resetSeconds: number;
}

const WINDOW_SECONDS = 60;

/**
 * Budget per source IP for the connector's sign-in steps that create rows or check credentials:
 * client registration and the authorization form (DESIGN §7). Far above what one person or one
 * client needs, low enough to make filling the store or guessing credentials pointless.
 */
export const OAUTH_PER_IP_PER_MINUTE = 30;

export class RateLimits {
  private readonly publicLimiter: RateLimiterMemory;
  private readonly keyLimiters = new Map<number, RateLimiterMemory>();
  private readonly oauthLimiter = new RateLimiterMemory({
    points: OAUTH_PER_IP_PER_MINUTE,
    duration: WINDOW_SECONDS,
  });

  /**
   * @param publicPerMinute budget per source IP for callers without a key.
   * @param defaultKeyPerMinute budget of a key without its own limit.
   */
  constructor(
    readonly publicPerMinute: number,
    readonly defaultKeyPerMinute: number,
  ) {
    this.publicLimiter = new RateLimiterMemory({
      points: publicPerMinute,
      duration: WINDOW_SECONDS,
    });
  }

  /** Count one request from `ip` against the public budget. */
  consumePublic(ip: string): Promise<RateLimitState> {
    return consume(this.publicLimiter, `ip:${ip}`, this.publicPerMinute);
  }

  /** Count one sign-in step (client registration, authorization form) from `ip`. */
  consumeOAuth(ip: string): Promise<RateLimitState> {
    return consume(this.oauthLimiter, `oauth:${ip}`, OAUTH_PER_IP_PER_MINUTE);
  }

  /** The public budget of `ip` without counting a request (for responses refused before access). */
  async peekPublic(ip: string): Promise<RateLimitState> {
    const res = await this.publicLimiter.get(`ip:${ip}`);
    return stateOf(res, this.publicPerMinute, true);
  }

  /** Count one request against a key's budget. */
  consumeKey(keyId: string, perMinute: number | null): Promise<RateLimitState> {
    const limit = perMinute ?? this.defaultKeyPerMinute;
    let limiter = this.keyLimiters.get(limit);
    if (limiter === undefined) {
      limiter = new RateLimiterMemory({ points: limit, duration: WINDOW_SECONDS });
      this.keyLimiters.set(limit, limiter);
    }
    return consume(limiter, `key:${keyId}`, limit);
  }
}

async function consume(
  limiter: RateLimiterMemory,
  key: string,
  limit: number,
): Promise<RateLimitState> {
  try {
    return stateOf(await limiter.consume(key), limit, true);
  } catch (rejection: unknown) {
    // rate-limiter-flexible rejects with a RateLimiterRes when the budget is spent; anything else
    // is an infrastructure error and must surface as one.
    if (rejection instanceof RateLimiterRes) return stateOf(rejection, limit, false);
    throw rejection;
  }
}

function stateOf(res: RateLimiterRes | null, limit: number, allowed: boolean): RateLimitState {
  if (res === null) return { allowed, limit, remaining: limit, resetSeconds: WINDOW_SECONDS };
  return {
    allowed,
    limit,
    remaining: Math.max(0, res.remainingPoints),
    resetSeconds: Math.max(1, Math.ceil(res.msBeforeNext / 1000)),
  };
}
