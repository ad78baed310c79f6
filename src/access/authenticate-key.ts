/**
 * @module access/authenticate-key
 * Enterprise Bearer authentication (README, "Enterprise keys"; docs/architecture.md, request
 * flow step 3): a presented `sk_live_` key is checked for form, hashed, looked up by hash and
 * compared in constant time. An unknown, expired or revoked key is `invalid_api_key` — there is
 * no fallback to the payment flow, so a caller who meant to use a key never pays by accident.
 * Nothing here logs or keeps the raw key.
 */
import type { Clock } from '../clock.js';
import { AppError } from '../errors.js';
import type { ApiKeyRecord, KeyStore } from '../store/ports/key-store.js';
import { hashApiKey, hashesEqual, isWellFormedApiKey } from './api-key.js';
import { BEARER_GRAMMAR_MESSAGE, readAuthorization } from './authorization-header.js';

/** `reason` of the 401 for an Authorization header outside the Bearer grammar (decision 133). */
export const MALFORMED_AUTHORIZATION_REASON = 'malformed_authorization';

/**
 * The raw token of an `Authorization: Bearer …` header (RFC 6750 §2.1, read by
 * `readAuthorization()`), or null when there is no Authorization header.
 *
 * @throws {AppError} `invalid_api_key`, reason `malformed_authorization`, for an Authorization
 *   header that is not one Bearer token in that grammar (another scheme, a tab after `Bearer`,
 *   two tokens): a malformed credential is a failed authentication, not an absent one.
 */
export function bearerToken(header: string | string[] | undefined): string | null {
  const presented = readAuthorization(header);
  if (presented.kind === 'none') return null;
  if (presented.kind === 'bearer') return presented.token;
  throw new AppError('invalid_api_key', BEARER_GRAMMAR_MESSAGE, {
    reason: MALFORMED_AUTHORIZATION_REASON,
  });
}

/**
 * Authenticate an enterprise key.
 *
 * @param keys the key store.
 * @param raw the presented token.
 * @param clock for the expiry check.
 * @returns the key record.
 * @throws {AppError} `invalid_api_key` for a malformed, unknown, expired or revoked key (one
 *   message for all, so the response does not tell an attacker which keys exist).
 */
export async function authenticateKey(
  keys: KeyStore,
  raw: string,
  clock: Clock,
): Promise<ApiKeyRecord> {
  const invalid = () =>
    new AppError('invalid_api_key', 'The API key is invalid, expired or revoked');
  if (!isWellFormedApiKey(raw)) throw invalid();
  const hash = hashApiKey(raw);
  const record = await keys.findKeyByHash(hash);
  // The look-up is by hash; comparing again in constant time keeps the check independent of how
  // the store compares blobs.
  if (record === null || !hashesEqual(record.hash, hash)) throw invalid();
  if (!isKeyLive(record, clock.now())) throw invalid();
  return record;
}

/** True while a key is neither revoked nor expired at `now` (epoch ms). */
export function isKeyLive(record: ApiKeyRecord, now: number): boolean {
  if (record.revokedAt !== null && record.revokedAt <= now) return false;
  return record.expiresAt === null || record.expiresAt > now;
}
