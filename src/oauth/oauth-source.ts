/**
 * @module oauth/oauth-source
 * Per-source caps of the open OAuth endpoints (docs/decisions.md, decision 140): registrations
 * (RFC 7591, open by design) and pending sign-ins (a row per page view) are stored, so besides
 * the per-minute request budget each source may hold only so many at once. A source is an IPv4
 * address or an IPv6 /64 (`sourceOf()`, the key of every per-source budget), and only the
 * SHA-256 of its text is stored.
 */

import { createHash } from 'node:crypto';

import { sourceOf } from '../ratelimit/source-address.js';
import type { SourceCap } from '../store/ports/oauth-store.js';

/** Registrations one source may make within an hour (the store's window). */
export const MAX_REGISTRATIONS_PER_SOURCE = 20;

/** Sign-in pages one source may hold open (pending, each valid 10 minutes) at once. */
export const MAX_PENDING_SIGN_INS_PER_SOURCE = 10;

/** The SHA-256 of the source group of `ip`, as stored with registrations and pending sign-ins. */
export function sourceHash(ip: string): Buffer {
  return createHash('sha256')
    .update(`linkguard oauth source ${sourceOf(ip)}`)
    .digest();
}

/** The cap of a source for registrations or pending sign-ins. */
export function sourceCap(ip: string, max: number): SourceCap {
  return { sourceHash: sourceHash(ip), max };
}
