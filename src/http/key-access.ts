/**
 * @module http/key-access
 * The enterprise key of a detect request (README, "Authorization" and "Failed authentications"),
 * read the same way on `POST /v1/detect` and `POST /v1/detect/batch`, and the key or connector
 * access token of `POST /v1/reports`: a source that has spent its failed-authentication budget
 * is refused before its credential is read; a malformed header or an unknown, expired or revoked
 * credential is 401 with the RFC 6750 §3 challenge, and spends the source's failure budget and
 * its public budget.
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
import { authenticateAccessToken, looksLikeAccessToken } from '../oauth/access-token.js';
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
  await refuseExhaustedSource(deps, request);
  try {
    const token = bearerToken(request.headers.authorization);
    return token === null ? null : await authenticateKey(deps.store.keys, token, deps.clock);
  } catch (error) {
    return refuseCredential(deps, request, reply, error);
  }
}

/** A verified credential of a route that takes connector access tokens too. */
export type RequestCredential =
  /** An enterprise key sent as itself (`sk_live_…`). */
  | { kind: 'key'; key: ApiKeyRecord }
  /**
   * A connector access token (`mcp_at_…`) from the OAuth sign-in; `subjectId` is the public id
   * of the license (`lk_…`) or key (`key_…`) it speaks for.
   */
  | { kind: 'connector'; subjectId: string };

/** What reading a key or a connector access token needs. */
export interface CredentialAccessDeps extends KeyAccessDeps {
  /** `PUBLIC_BASE_URL`: access tokens are accepted only when issued for its `/mcp`. */
  publicBaseUrl: string;
}

/** The 401 message of a connector access token that is not accepted. */
export const INVALID_ACCESS_TOKEN_MESSAGE = 'The access token is invalid, expired or revoked';

/**
 * The credential of `request`'s `Authorization: Bearer` header: an enterprise key, read exactly
 * as {@link requestKey} reads it, or a connector access token (`mcp_at_…`), checked as `/mcp`
 * checks it (`authenticateAccessToken`: known, unexpired, not revoked, issued for this server's
 * `/mcp`, its license or key still live). Null when the request has no Authorization header.
 *
 * @throws {AppError} as {@link requestKey}; a refused access token is `invalid_api_key` with
 *   {@link INVALID_ACCESS_TOKEN_MESSAGE}, counted like a refused key.
 */
export async function requestCredential(
  deps: CredentialAccessDeps,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<RequestCredential | null> {
  await refuseExhaustedSource(deps, request);
  try {
    const token = bearerToken(request.headers.authorization);
    if (token === null) return null;
    if (!looksLikeAccessToken(token)) {
      return { kind: 'key', key: await authenticateKey(deps.store.keys, token, deps.clock) };
    }
    const subject = await authenticateAccessToken(deps, token);
    if (subject === null) throw new AppError('invalid_api_key', INVALID_ACCESS_TOKEN_MESSAGE);
    return {
      kind: 'connector',
      subjectId: subject.kind === 'enterprise' ? subject.key.id : subject.license.id,
    };
  } catch (error) {
    return refuseCredential(deps, request, reply, error);
  }
}

/**
 * Refuse, unchecked, a request that presents a credential from a source that has spent its
 * failure budget, so a right guess looks like a wrong one (docs/decisions.md, decision 131).
 *
 * @throws {AppError} `rate_limited` (reason `auth_failures`).
 */
async function refuseExhaustedSource(deps: KeyAccessDeps, request: FastifyRequest): Promise<void> {
  const { authorization } = request.headers;
  if (authorization === undefined || authorization.trim() === '') return;
  const gate = await deps.limits.peekFailures(request.ip);
  if (!gate.allowed) {
    throw new AppError('rate_limited', authFailuresMessage(gate.resetSeconds), {
      retryAfter: gate.resetSeconds,
      reason: AUTH_FAILURES_REASON,
    });
  }
}

/**
 * Answer a refused credential: the RFC 6750 §3 challenge on `reply`, one failure and one request
 * of the public budget counted for the source (decision 9), then `error` again.
 *
 * @throws always: `error`, or `rate_limited` when the public budget is spent.
 */
async function refuseCredential(
  deps: KeyAccessDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  error: unknown,
): Promise<never> {
  if (!isAppError(error) || error.code !== 'invalid_api_key') throw error;
  reply.header(
    'www-authenticate',
    bearerChallenge(
      error.reason === MALFORMED_AUTHORIZATION_REASON ? 'invalid_request' : 'invalid_token',
      error.message,
    ),
  );
  await deps.limits.recordFailure(request.ip);
  // Failed credentials also spend the caller's public budget (decision 9).
  enforceRateLimit(reply, await deps.limits.consumePublic(request.ip));
  throw error;
}
