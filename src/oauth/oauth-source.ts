/**
 * @module oauth/oauth-source
 * Per-source caps of the open OAuth endpoints (docs/decisions.md, decision 149): registrations
 * (RFC 7591, open by design) and pending sign-ins (a row per page view) are stored, so besides
 * the per-minute request budget each source may hold only so many at once. A source is an IPv4
 * address or an IPv6 /64 (one subscriber's usual allocation, RFC 6177), and only the SHA-256 of
 * its text is stored.
 */

import { createHash } from 'node:crypto';

import ipaddr from 'ipaddr.js';

import type { SourceCap } from '../store/ports/oauth-store.js';

/** Registrations one source may make within an hour (the store's window). */
export const MAX_REGISTRATIONS_PER_SOURCE = 20;

/** Sign-in pages one source may hold open (pending, each valid 10 minutes) at once. */
export const MAX_PENDING_SIGN_INS_PER_SOURCE = 10;

/**
 * The group an address counts in: an IPv4 address itself (IPv4-mapped IPv6 included), an IPv6
 * address's /64 prefix; any other text (a test's fake address) as it is.
 */
export function sourceGroup(ip: string): string {
  if (!ipaddr.isValid(ip)) return ip;
  const address = ipaddr.process(ip);
  if (address.kind() === 'ipv4') return address.toString();
  const prefix = (address as ipaddr.IPv6).parts.slice(0, 4);
  return `${prefix.map((part) => part.toString(16)).join(':')}::/64`;
}

/** The SHA-256 of the source group of `ip`, as stored with registrations and pending sign-ins. */
export function sourceHash(ip: string): Buffer {
  return createHash('sha256')
    .update(`linkguard oauth source ${sourceGroup(ip)}`)
    .digest();
}

/** The cap of a source for registrations or pending sign-ins. */
export function sourceCap(ip: string, max: number): SourceCap {
  return { sourceHash: sourceHash(ip), max };
}
