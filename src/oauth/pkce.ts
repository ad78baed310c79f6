/**
 * @module oauth/pkce
 * Proof Key for Code Exchange (RFC 7636), S256 only: OAuth 2.1 §4.1.1 and the MCP authorization
 * spec require PKCE, and `plain` would let anyone who sees the authorization request redeem the
 * code.
 */

import { hash, timingSafeEqual } from 'node:crypto';

/** A code challenge: base64url of a SHA-256, 43 characters without padding (RFC 7636 §4.2). */
const CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

/** A code verifier: 43 to 128 unreserved characters (RFC 7636 §4.1). */
const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

/** True when `challenge` has the shape of an S256 code challenge. */
export function isS256Challenge(challenge: string): boolean {
  return CHALLENGE.test(challenge);
}

/**
 * Whether `verifier` proves possession for `challenge`: BASE64URL(SHA256(ASCII(verifier))) ==
 * challenge (RFC 7636 §4.6), compared in constant time. A malformed verifier is false.
 */
export function verifyS256(verifier: string, challenge: string): boolean {
  if (!VERIFIER.test(verifier) || !CHALLENGE.test(challenge)) return false;
  const computed = Buffer.from(hash('sha256', verifier, 'base64url'));
  return timingSafeEqual(computed, Buffer.from(challenge));
}
