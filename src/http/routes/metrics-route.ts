/**
 * @module http/routes/metrics-route
 * `GET /metrics` in the Prometheus text format, for a scraper holding `METRICS_TOKEN`. Unset, the
 * route does not exist (404). A wrong or missing token is 401 with a Bearer challenge and spends
 * the source's failed-authentication budget like every other door; the token is compared as
 * SHA-256 digests in constant time, so its length and contents do not leak through timing.
 */
import { createHash, timingSafeEqual } from 'node:crypto';

import type { FastifyInstance } from 'fastify';

import { bearerChallenge, readAuthorization } from '../../access/authorization-header.js';
import { AppError } from '../../errors.js';
import type { ServiceMetrics } from '../../observability/metrics.js';
import {
  AUTH_FAILURES_REASON,
  authFailuresMessage,
  type RateLimits,
} from '../../ratelimit/rate-limits.js';

/** What the route needs. */
export interface MetricsRouteDeps {
  /** `METRICS_TOKEN`. */
  token: string;
  metrics: ServiceMetrics;
  limits: RateLimits;
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/**
 * Register `GET /metrics` (only called when a token is configured).
 *
 * @throws AppError 401 `invalid_api_key` for a missing or wrong token, 429 `rate_limited`
 *   (reason `auth_failures`) once the source's failed-authentication budget is spent.
 */
export function registerMetricsRoute(app: FastifyInstance, deps: MetricsRouteDeps): void {
  const expected = digest(deps.token);
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    const gate = await deps.limits.peekFailures(request.ip);
    if (!gate.allowed) {
      throw new AppError('rate_limited', authFailuresMessage(gate.resetSeconds), {
        retryAfter: gate.resetSeconds,
        reason: AUTH_FAILURES_REASON,
      });
    }
    const presented = readAuthorization(request.headers.authorization);
    if (presented.kind !== 'bearer' || !timingSafeEqual(digest(presented.token), expected)) {
      await deps.limits.recordFailure(request.ip);
      const error = presented.kind === 'none' ? null : 'invalid_token';
      reply.header('www-authenticate', bearerChallenge(error, 'METRICS_TOKEN required'));
      throw new AppError('invalid_api_key', 'A valid METRICS_TOKEN is required.');
    }
    const body = await deps.metrics.registry.metrics();
    return reply.type(deps.metrics.registry.contentType).send(body);
  });
}
