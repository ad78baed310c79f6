/**
 * @module http/rate-limit-headers
 * The rate-limit header fields of the detect routes (README, "API"): set from a limiter state,
 * enforced (429 when the budget is spent), and added to any answer that left before a budget
 * was counted (the source's public budget, peeked without counting).
 */
import type { FastifyReply, FastifyRequest, onSendHookHandler } from 'fastify';

import { AppError } from '../errors.js';
import type { RateLimits, RateLimitState } from '../ratelimit/rate-limits.js';
import { KEY_RATE_LIMITED_MESSAGE } from '../service/admit-key-request.js';

/**
 * Set both families of rate-limit header fields from one limiter state:
 * - `RateLimit-Limit`, `RateLimit-Remaining`, `RateLimit-Reset` (seconds): the older draft fields
 *   (draft-ietf-httpapi-ratelimit-headers up to -06) that existing clients read; kept unchanged.
 * - `RateLimit-Policy` and `RateLimit`: the fields of draft-ietf-httpapi-ratelimit-headers-11
 *   (May 2026), each a Structured Field List (RFC 9651) of one Item whose value is the policy name
 *   as a String: `RateLimit-Policy: "per-ip";q=60;w=60` (q: quota in requests, w: window in
 *   seconds; sections 3.1.1 and 3.1.3) and `RateLimit: "per-ip";r=59;t=42` (r: requests left,
 *   t: seconds until the window resets; sections 4.1.1 and 4.1.2). No partition key (`pk`) is
 *   sent: it would echo the caller's IP or key id back in another form for no benefit.
 * Policy names come from a fixed set (`RateLimitPolicy`), so they need no String escaping.
 */
export function setRateLimitHeaders(reply: FastifyReply, state: RateLimitState): void {
  reply.header('ratelimit-limit', state.limit);
  reply.header('ratelimit-remaining', state.remaining);
  reply.header('ratelimit-reset', state.resetSeconds);
  reply.header('ratelimit-policy', `"${state.policy}";q=${state.limit};w=${state.windowSeconds}`);
  reply.header('ratelimit', `"${state.policy}";r=${state.remaining};t=${state.resetSeconds}`);
}

/**
 * Set the rate-limit headers and refuse when the budget is spent.
 *
 * @throws {AppError} `rate_limited` with `retryAfter` = seconds until the window resets.
 */
export function enforceRateLimit(reply: FastifyReply, state: RateLimitState): void {
  setRateLimitHeaders(reply, state);
  if (!state.allowed) {
    throw new AppError('rate_limited', KEY_RATE_LIMITED_MESSAGE, {
      retryAfter: state.resetSeconds,
    });
  }
}

/**
 * An `onSend` hook giving every answer of a route the rate-limit headers, also one refused before
 * any budget was spent (a 400): then the caller's public budget is reported without counting.
 */
export function rateLimitHeadersOnSend(limits: RateLimits): onSendHookHandler {
  return (request: FastifyRequest, reply: FastifyReply, payload, done) => {
    if (reply.hasHeader('ratelimit-limit')) {
      done(null, payload);
      return;
    }
    limits.peekPublic(request.ip).then(
      (state) => {
        setRateLimitHeaders(reply, state);
        done(null, payload);
      },
      (error: unknown) => {
        // Only the informational headers are missing; the response itself stands.
        request.log.error({ err: error }, 'rate-limit headers unavailable');
        done(null, payload);
      },
    );
  };
}
