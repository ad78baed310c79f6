/**
 * PKCE S256 (RFC 7636): the Appendix B test vector verifies, a near miss does not, and a
 * verifier or challenge of the wrong shape is false rather than an error.
 */
import { createHash } from 'node:crypto';

import { describe, expect, it } from 'vitest';

import { isS256Challenge, verifyS256 } from '../../src/oauth/pkce.js';

/** RFC 7636 Appendix B. */
const VERIFIER = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
const CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

describe('PKCE S256', () => {
  it('verifies the RFC 7636 Appendix B vector', () => {
    expect(isS256Challenge(CHALLENGE)).toBe(true);
    expect(verifyS256(VERIFIER, CHALLENGE)).toBe(true);
  });

  it('refuses another verifier and another challenge', () => {
    expect(verifyS256(VERIFIER.slice(0, -1) + 'j', CHALLENGE)).toBe(false);
    expect(verifyS256(VERIFIER, CHALLENGE.slice(0, -1) + 'd')).toBe(false);
    // plain: the verifier as its own challenge is not S256.
    expect(verifyS256(VERIFIER, VERIFIER)).toBe(false);
  });

  it.each([
    ['empty', ''],
    ['42 characters', 'a'.repeat(42)],
    ['129 characters', 'a'.repeat(129)],
    ['a space', VERIFIER.slice(0, -1) + ' '],
    ['a plus sign', VERIFIER.slice(0, -1) + '+'],
    ['a non-ASCII letter', VERIFIER.slice(0, -1) + 'é'],
  ])('a malformed verifier (%s) is false', (_label, verifier) => {
    expect(verifyS256(verifier, CHALLENGE)).toBe(false);
  });

  it('accepts verifiers of 43 and 128 characters with the unreserved marks (RFC 7636 §4.1)', () => {
    for (const verifier of ['A'.repeat(40) + '-._', '~'.repeat(64) + '0z'.repeat(32)]) {
      const challenge = createHash('sha256').update(verifier, 'ascii').digest('base64url');
      expect(isS256Challenge(challenge)).toBe(true);
      expect(verifyS256(verifier, challenge)).toBe(true);
    }
  });

  it.each([
    ['empty', ''],
    ['42 characters', CHALLENGE.slice(1)],
    ['44 characters', CHALLENGE + 'A'],
    ['base64 padding', CHALLENGE.slice(0, -1) + '='],
    ['base64 (not url) alphabet', CHALLENGE.slice(0, -1) + '+'],
  ])('a malformed challenge (%s) is not S256 and never verifies', (_label, challenge) => {
    expect(isS256Challenge(challenge)).toBe(false);
    expect(verifyS256(VERIFIER, challenge)).toBe(false);
  });
});
