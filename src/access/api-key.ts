/**
 * @module access/api-key
 * Enterprise API key primitives (README, "Enterprise keys"). A raw key is `sk_live_` followed
 * by 32 random bytes written as a fixed-length base62 number; it is shown to its owner once and
 * never stored. The store keeps only its SHA-256, so a leaked database does not leak usable
 * keys, and a lookup hashes the presented key first. A plain SHA-256 is enough here (no salt, no
 * slow KDF) because the key carries 256 bits of entropy: there is nothing to brute-force, and a
 * per-request KDF would cost more CPU than the detection itself.
 *
 * Presented keys are checked against a strict charset and length before anything else, so header
 * garbage (long strings, control characters, other token types) never reaches hashing or the store.
 */

import { hash, randomBytes, timingSafeEqual } from 'node:crypto';

import baseX from 'base-x';

/** Literal start of every enterprise key; `_live_` leaves room for a later `sk_test_`. */
export const API_KEY_PREFIX = 'sk_live_';

/** Random bytes per key: 256 bits, so keys can be neither guessed nor enumerated. */
const KEY_RANDOM_BYTES = 32;

/**
 * Base62 digits needed for any 32-byte value: 62^42 < 2^256 < 62^43. Shorter encodings are
 * left-padded with `0`, so every key has the same length and one strict regex describes them all.
 */
const KEY_BODY_LENGTH = 43;

/** Length of {@link randomSecretBody}'s result, for other secrets' strict patterns. */
export const SECRET_BODY_LENGTH = KEY_BODY_LENGTH;

/** Total length of a raw key: `sk_live_` (8) + 43 = 51 characters. */
export const API_KEY_LENGTH = API_KEY_PREFIX.length + KEY_BODY_LENGTH;

/** Length of the displayable prefix: `sk_live_` + 4 characters of the random part. */
export const API_KEY_DISPLAY_PREFIX_LENGTH = API_KEY_PREFIX.length + 4;

/** Public key id: `key_` + 12 base62 characters (about 71 bits, enough to never collide). */
const KEY_ID_PREFIX = 'key_';
const KEY_ID_BODY_LENGTH = 12;

/**
 * Bytes drawn for a key id. The id is the 128-bit value reduced modulo 62^12 (its last 12 base62
 * digits); 2^128 is about 2^57 times 62^12, so the modulo bias is below 2^-56 and irrelevant for a
 * public identifier.
 */
const KEY_ID_RANDOM_BYTES = 16;

/** Alphabet in ASCII order (`0-9A-Za-z`), the usual base62. */
const BASE62 = baseX('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz');

const API_KEY_PATTERN = /^sk_live_[0-9A-Za-z]{43}$/;

/** A source of random bytes; `node:crypto` `randomBytes` unless a test passes a fixed one. */
export type RandomBytes = (size: number) => Uint8Array;

/** A freshly generated key: the raw value for the owner, the rest for the store. */
export interface GeneratedApiKey {
  /** The secret, `sk_live_` + 43 base62 characters; show once, never store or log. */
  raw: string;
  /** Public id, `key_` + 12 base62 characters; safe to show and log. */
  id: string;
  /** First 12 characters of `raw` (`sk_live_` + 4), to recognise a key in listings. */
  prefix: string;
  /** SHA-256 of `raw` (32 bytes): the only form in which the key is stored. */
  hash: Buffer;
}

/**
 * Generate a new enterprise key.
 *
 * @param random byte source, `crypto.randomBytes` by default (a CSPRNG); tests may pass a fixed
 * one.
 * @returns `{ raw, id, prefix, hash }`, see {@link GeneratedApiKey}.
 * @example const { raw, id, prefix, hash } = generateApiKey(); // raw: 'sk_live_7fQ…' (51 chars)
 */
export function generateApiKey(random: RandomBytes = randomBytes): GeneratedApiKey {
  const raw = API_KEY_PREFIX + randomSecretBody(random);
  return {
    raw,
    id: KEY_ID_PREFIX + randomIdBody(random),
    prefix: raw.slice(0, API_KEY_DISPLAY_PREFIX_LENGTH),
    hash: hashApiKey(raw),
  };
}

/**
 * The random part of a secret (key, license): 32 bytes from `random` as exactly
 * {@link SECRET_BODY_LENGTH} (43) base62 characters, left-padded with `0`.
 */
export function randomSecretBody(random: RandomBytes): string {
  return BASE62.encode(random(KEY_RANDOM_BYTES)).padStart(KEY_BODY_LENGTH, '0');
}

/**
 * The random part of a public id (key, license): exactly 12 base62 characters drawn from 16
 * bytes of `random` (see {@link KEY_ID_RANDOM_BYTES} for the negligible modulo bias).
 */
export function randomIdBody(random: RandomBytes): string {
  const digits = BASE62.encode(random(KEY_ID_RANDOM_BYTES)).padStart(KEY_ID_BODY_LENGTH, '0');
  return digits.slice(-KEY_ID_BODY_LENGTH);
}

/**
 * SHA-256 of a raw key (UTF-8), the value stored in and looked up from the key store.
 * Call {@link isWellFormedApiKey} first on anything a client sent.
 *
 * @returns a 32-byte Buffer.
 */
export function hashApiKey(raw: string): Buffer {
  return hashSecret(raw);
}

/**
 * SHA-256 of any raw secret (UTF-8) as stored by linkguard (keys, licenses).
 *
 * @returns a 32-byte Buffer.
 */
export function hashSecret(raw: string): Buffer {
  // One-shot `crypto.hash` (Node ≥ 20.12): no Hash object, whose native handle costs the
  // garbage collector per request (decisions.md §64).
  return hash('sha256', raw, 'buffer');
}

/**
 * True when `raw` has the exact shape of a linkguard key: `sk_live_` + 43 characters of
 * `[0-9A-Za-z]`, nothing before or after. Total, never throws; the length test first keeps
 * huge inputs cheap.
 */
export function isWellFormedApiKey(raw: string): boolean {
  return raw.length === API_KEY_LENGTH && API_KEY_PATTERN.test(raw);
}

/**
 * Constant-time equality of two hashes (or any two secrets as bytes). Different lengths are
 * unequal; only the length, which is public for SHA-256, can leak through timing.
 */
export function hashesEqual(a: Buffer, b: Buffer): boolean {
  // timingSafeEqual throws on a length mismatch, so compare lengths first.
  if (a.length !== b.length) return false;
  return timingSafeEqual(a, b);
}
