/**
 * @module oauth/oauth-secrets
 * The secrets and identifiers of the connector's authorization server and their lifetimes.
 * Formats follow DESIGN §4.16: a prefix + 32 random bytes as 43 base62 characters, stored only as
 * SHA-256 (256 bits of entropy leave nothing to brute-force, so no slow hash is needed).
 * `mcp_at_` and `mcp_rt_` are DESIGN's; the other prefixes are ours (docs/decisions.md §80).
 */

import { randomBytes } from 'node:crypto';

import { hashSecret, type RandomBytes, randomIdBody, randomSecretBody } from '../access/api-key.js';

/** Kinds of secret the authorization server hands out, by prefix. */
export const SECRET_PREFIX = {
  /** Access token for `POST /mcp` (DESIGN §4.13). */
  accessToken: 'mcp_at_',
  /** Refresh token, rotated on every use (DESIGN §4.13). */
  refreshToken: 'mcp_rt_',
  /** One-time authorization code (RFC 6749 §4.1.2). */
  code: 'mcp_ac_',
  /** Secret of a confidential client (RFC 7591 §3.2.1). */
  clientSecret: 'mcp_cs_',
} as const;

export type SecretKind = keyof typeof SECRET_PREFIX;

/**
 * Access-token lifetime: 30 days (DESIGN §4.13). Long for OAuth, but a token is only as strong
 * as the license or key behind it, which is checked on every call, so a revocation still takes
 * effect at once.
 */
export const ACCESS_TOKEN_TTL_MS = 30 * 24 * 60 * 60 * 1000;

/** Refresh-token lifetime, renewed at each rotation: 90 days (docs/decisions.md §80). */
export const REFRESH_TOKEN_TTL_MS = 90 * 24 * 60 * 60 * 1000;

/** Authorization-code lifetime: 5 minutes (RFC 6749 §4.1.2 recommends at most 10). */
export const CODE_TTL_MS = 5 * 60 * 1000;

/** How long the authorization page stays usable: 10 minutes. */
export const PENDING_AUTHORIZATION_TTL_MS = 10 * 60 * 1000;

const BODY = /^[0-9A-Za-z]{43}$/;

/** A new secret: the raw value for its holder and the SHA-256 for the store. */
export interface GeneratedSecret {
  raw: string;
  hash: Buffer;
}

/**
 * Generate a secret of `kind` (`mcp_at_…`, `mcp_rt_…`, `mcp_ac_…`, `mcp_cs_…`).
 *
 * @param random byte source, a CSPRNG (`crypto.randomBytes`) unless a test passes its own.
 */
export function generateSecret(
  kind: SecretKind,
  random: RandomBytes = randomBytes,
): GeneratedSecret {
  const raw = SECRET_PREFIX[kind] + randomSecretBody(random);
  return { raw, hash: hashSecret(raw) };
}

/**
 * A random value without a prefix for what only a browser carries: the id of a pending
 * authorization and its CSRF token (43 base62 characters, 256 bits).
 */
export function generateNonce(random: RandomBytes = randomBytes): GeneratedSecret {
  const raw = randomSecretBody(random);
  return { raw, hash: hashSecret(raw) };
}

/**
 * SHA-256 of a presented secret when it has the exact shape of `kind`, else null (so junk never
 * reaches the store). Never throws.
 */
export function hashPresentedSecret(kind: SecretKind, raw: string): Buffer | null {
  const prefix = SECRET_PREFIX[kind];
  if (raw.length !== prefix.length + 43 || !raw.startsWith(prefix)) return null;
  return BODY.test(raw.slice(prefix.length)) ? hashSecret(raw) : null;
}

/** SHA-256 of a presented nonce (43 base62 characters), else null. */
export function hashPresentedNonce(raw: string): Buffer | null {
  return BODY.test(raw) ? hashSecret(raw) : null;
}

/** A new client id, `mcpc_` + 12 base62 characters (public, RFC 7591 `client_id`). */
export function generateClientId(random: RandomBytes = randomBytes): string {
  return 'mcpc_' + randomIdBody(random);
}

/** A new grant id, `grt_` + 12 base62 characters (public, appears in logs). */
export function generateGrantId(random: RandomBytes = randomBytes): string {
  return 'grt_' + randomIdBody(random);
}
