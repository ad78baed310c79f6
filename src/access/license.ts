/**
 * @module access/license
 * Premium licenses of the MCP connector (spec §5 "Connector authentication", §8 limits). A license
 * is the connector's own credential: its holder exchanges it for an `mcp_at_` token through the
 * OAuth flow, and it is never accepted as a bearer token itself. DESIGN §4.16 fixes the formats of
 * `sk_live_` keys and `mcp_at_`/`mcp_rt_` tokens but names no license format, so licenses follow
 * the same scheme with a prefix of their own (docs/decisions.md §79): `lic_` + 32 random bytes as
 * 43 base62 characters, a public id `lk_` + 12 base62 characters, a display prefix (`lic_` + 4)
 * and only the SHA-256 stored. A distinct prefix keeps a license from ever being mistaken for an
 * enterprise key or a token by a strict-pattern check, and makes leaked licenses easy to scan for.
 * As for keys, a plain SHA-256 is enough: 256 bits of entropy leave nothing to brute-force.
 */

import { randomBytes } from 'node:crypto';

import {
  hashSecret,
  type RandomBytes,
  randomIdBody,
  randomSecretBody,
  SECRET_BODY_LENGTH,
} from './api-key.js';

/** Literal start of every raw license. */
const LICENSE_PREFIX = 'lic_';

/** Start of every license id (`lk_` + 12 base62 characters), safe to show and log. */
const LICENSE_ID_PREFIX = 'lk_';

/** Total length of a raw license: `lic_` (4) + 43 = 47 characters. */
const LICENSE_LENGTH = LICENSE_PREFIX.length + SECRET_BODY_LENGTH;

/** Length of the displayable prefix: `lic_` + 4 characters of the random part. */
const LICENSE_DISPLAY_PREFIX_LENGTH = LICENSE_PREFIX.length + 4;

const LICENSE_PATTERN = /^lic_[0-9A-Za-z]{43}$/;

/**
 * Connector checks a Premium license may spend per calendar month (UTC): spec §8, "Connector
 * monthly checks: 1,000 per month, Premium license". Each URL of a batch is one check (DESIGN
 * §4.13).
 */
export const PREMIUM_MONTHLY_CHECKS = 1000;

/** A freshly generated license: the raw value for its holder, the rest for the store. */
export interface GeneratedLicense {
  /** The secret, `lic_` + 43 base62 characters; show once, never store or log. */
  raw: string;
  /** Public id, `lk_` + 12 base62 characters. */
  id: string;
  /** First 8 characters of `raw` (`lic_` + 4), to recognise a license in listings. */
  prefix: string;
  /** SHA-256 of `raw` (32 bytes): the only form in which the license is stored. */
  hash: Buffer;
}

/**
 * Generate a new Premium license.
 *
 * @param random byte source, `crypto.randomBytes` by default (a CSPRNG); tests may pass a fixed one.
 * @returns `{ raw, id, prefix, hash }`, see {@link GeneratedLicense}.
 * @example const { raw } = generateLicense(); // raw: 'lic_3kP…' (47 chars)
 */
export function generateLicense(random: RandomBytes = randomBytes): GeneratedLicense {
  const raw = LICENSE_PREFIX + randomSecretBody(random);
  return {
    raw,
    id: LICENSE_ID_PREFIX + randomIdBody(random),
    prefix: raw.slice(0, LICENSE_DISPLAY_PREFIX_LENGTH),
    hash: hashLicense(raw),
  };
}

/**
 * SHA-256 of a raw license (UTF-8), the value stored in and looked up from the license store.
 * Call {@link isWellFormedLicense} first on anything a client sent.
 *
 * @returns a 32-byte Buffer.
 */
export function hashLicense(raw: string): Buffer {
  return hashSecret(raw);
}

/**
 * True when `raw` has the exact shape of a license: `lic_` + 43 characters of `[0-9A-Za-z]`,
 * nothing before or after. Total, never throws; the length test first keeps huge inputs cheap.
 */
export function isWellFormedLicense(raw: string): boolean {
  return raw.length === LICENSE_LENGTH && LICENSE_PATTERN.test(raw);
}
