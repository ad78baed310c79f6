/**
 * @module http/key-access
 * The enterprise key of a detect request (README, "Authorization" and "Failed authentications"),
 * read the same way on `POST /v1/detect` and `POST /v1/detect/batch`: a source that has spent its
 * failed-authentication budget is refused before its credential is read; a malformed header or
 * an unknown, expired or revoked key is 401 with the RFC 6750 §3 challenge, and spends the
 * source's failure budget and its public budget.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';

import {
  authenticateKey,
  bearerToken,
  MALFORMED_AUTHORIZATION_REASON,
} from '../access/authenticate-key.js';
import { bearerChallenge } from '../access/authorization-header.js';
import type { Clock } from '../clock.js';
import { AppError, isAppError } from '../errors.js';
import {
  AUTH_FAILURES_REASON,
  authFailuresMessage,
  type RateLimits,
} from '../ratelimit/rate-limits.js';
import type { ApiKeyRecord } from '../store/ports/key-store.js';
import type { Store } from '../store/ports/store.js';
import { enforceRateLimit } from './rate-limit-headers.js';

/** What reading a key needs. */
export interface KeyAccessDeps {
  store: Store;
  clock: Clock;
  limits: RateLimits;
}

/**
 * The live enterprise key of `request`'s `Authorization: Bearer` header, or null when the request
 * has no Authorization header (or one of only spaces and tabs).
 *
 * @throws {AppError} `rate_limited` (reason `auth_failures`) when the source's failure budget is
 *   spent (docs/decisions.md, decision 131); `invalid_api_key` (reason `malformed_authorization`
 *   for a header outside the grammar) with `WWW-Authenticate` set on `reply`, after counting the
 *   failure and the public budget (decision 9), or `rate_limited` when that public budget is
 *   spent.
 */
export async function requestKey(
  deps: KeyAccessDeps,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<ApiKeyRecord | null> {
  const { authorization } = request.headers;
  if (authorization !== undefined && authorization.trim() !== '') {
    // A source that has spent its failure budget is refused before its credential is read, so a
    // right guess looks like a wrong one (docs/decisions.md, decision 131).
    const gate = await deps.limits.peekFailures(request.ip);
    if (!gate.allowed) {
      throw new AppError('rate_limited', authFailuresMessage(gate.resetSeconds), {
        retryAfter: gate.resetSeconds,
        reason: AUTH_FAILURES_REASON,
      });
    }
  }
  try {
    const token = bearerToken(authorization);
    return token === null ? null : await authenticateKey(deps.store.keys, token, deps.clock);
  } catch (error) {
    if (!isAppError(error) || error.code !== 'invalid_api_key') throw error;
    reply.header(
      'www-authenticate',
      bearerChallenge(
        error.reason === MALFORMED_AUTHORIZATION_REASON ? 'invalid_request' : 'invalid_token',
        error.message,
      ),
    );
    await deps.limits.recordFailure(request.ip);
    // Failed keys also spend the caller's public budget (decision 9).
    enforceRateLimit(reply, await deps.limits.consumePublic(request.ip));
    throw error;
  }
}
