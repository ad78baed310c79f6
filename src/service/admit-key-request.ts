/**
 * @module service/admit-key-request
 * How one URL is counted against an enterprise key, whatever the door: one request of the key's
 * per-minute budget (README "API": 10,000/min by default), then one of its month (reserved when
 * the key has a hard cap; README "Enterprise keys"). `POST /v1/detect` counts its URL this way and
 * `POST /v1/detect/batch` counts each of its URLs this way, in input order, so a batch of n URLs
 * costs exactly what n single requests would (docs/decisions.md, decision 184).
 */
import { AppError } from '../errors.js';
import type { RateLimits, RateLimitState } from '../ratelimit/rate-limits.js';
import type { ApiKeyRecord } from '../store/ports/key-store.js';
import type { DetectionService, KeyAdmission } from './detection-service.js';

/** The message of a 429 for a key whose per-minute budget is spent. */
export const KEY_RATE_LIMITED_MESSAGE = 'Too many requests; back off and retry.';

/**
 * The outcome of counting one request: admitted (judge it with
 * `DetectionService.judgeAdmitted`), or refused with the error a single request would get. Both
 * carry the key's per-minute budget after the request, for the rate-limit header fields.
 */
export type KeyRequestAdmission =
  | { ok: true; limit: RateLimitState; admission: KeyAdmission }
  | { ok: false; limit: RateLimitState; error: AppError };

/**
 * Count one request of `key`: its per-minute budget first, then its month.
 *
 * @param deps the process's rate limits and detection service.
 * @param key an authenticated, live key.
 * @returns admitted, or refused with `rate_limited` (no `reason`, `retryAfter` = seconds until the
 *   minute's window resets; or reason `monthly_allowance`, `retryAfter` = seconds to the next
 *   month). A request refused by the per-minute budget reserves nothing in the month.
 * @throws what the limiter or the store throw unexpectedly (an outage of the store).
 */
export async function admitKeyRequest(
  deps: { limits: RateLimits; service: DetectionService },
  key: ApiKeyRecord,
): Promise<KeyRequestAdmission> {
  const limit = await deps.limits.consumeKey(key.id, key.rateLimitPerMinute);
  if (!limit.allowed) {
    return {
      ok: false,
      limit,
      error: new AppError('rate_limited', KEY_RATE_LIMITED_MESSAGE, {
        retryAfter: limit.resetSeconds,
      }),
    };
  }
  try {
    return { ok: true, limit, admission: await deps.service.admitForKey(key) };
  } catch (error) {
    if (error instanceof AppError) return { ok: false, limit, error };
    throw error;
  }
}
