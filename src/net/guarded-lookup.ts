/**
 * @module net/guarded-lookup
 * The SSRF decision of the outbound client: which single address a hop may connect to.
 *
 * Every hop of every fetch goes through {@link guardedLookup} before anything is dispatched. The
 * address it returns is the one the socket is opened to (the pinned connector takes it as is and
 * never resolves again), so a DNS answer that changes between check and connect (rebinding) cannot
 * move the connection to an address that was not checked.
 */
import { lookup as dnsLookup } from 'node:dns/promises';

import { classifyIp } from '../engine/url/classify-ip.js';
import { abortable } from './abortable.js';
import { NetError } from './net-error.js';
import { findResolveOverride, type ResolveOverride } from './resolve-override.js';

/** One DNS answer, as `dns.lookup(name, { all: true })` gives it. */
export interface ResolvedAddress {
  address: string;
  /** 4 or 6. */
  family: number;
}

/**
 * Resolves a host name to all its addresses. Promise-based (unlike `net.LookupFunction`, which
 * takes a callback); rejects or returns `[]` when the name does not resolve. Tests inject one to
 * simulate DNS answers, rebinding included.
 */
export type LookupFunction = (hostname: string) => Promise<readonly ResolvedAddress[]>;

/** The system resolver (`getaddrinfo`: /etc/hosts, then DNS), every address of the name. */
export const systemLookup: LookupFunction = (hostname) => dnsLookup(hostname, { all: true });

export interface GuardedLookupOptions {
  /** Fixed answers for exact host:port pairs; these skip the address check (see resolve-override). */
  overrides: readonly ResolveOverride[];
  lookup: LookupFunction;
  /** Aborts the wait for the resolver (the `getaddrinfo` call itself cannot be cancelled). */
  signal: AbortSignal;
}

/** The address a hop will connect to. */
export interface PinnedAddress {
  /** Canonical IP text without brackets (IPv4-mapped IPv6 unwrapped to IPv4). */
  address: string;
  /** True when a resolve override supplied the address (no check was made). */
  overridden: boolean;
}

/**
 * Decide the address for one hop.
 *
 * Order: an override for the exact host:port → its address, unchecked; an IP literal (the URL
 * parser has already canonicalized decimal/octal/hex IPv4 and IPv4-mapped IPv6) → itself if global;
 * `localhost` and `*.localhost` → refused without a lookup (RFC 6761 §6.3 lets resolvers answer
 * loopback for them); any other name → every resolved address must be global, then the first IPv4
 * answer is used (else the first IPv6), because hosts without IPv6 egress are common and only one
 * address is ever tried.
 *
 * @param url the hop's parsed http(s) URL.
 * @returns the pinned address.
 * @throws {NetError} `blocked_address` when the literal or any resolved address is not global
 * unicast (classifyIp); `dns_failure` when the name does not resolve. When `signal` aborts, rejects
 * with `signal.reason`.
 */
export async function guardedLookup(
  url: URL,
  options: GuardedLookupOptions,
): Promise<PinnedAddress> {
  const port = effectivePort(url);
  const override = findResolveOverride(options.overrides, url.hostname, port);
  if (override !== undefined) return { address: override.address, overridden: true };

  const literal = classifyIp(url.hostname);
  if (literal.kind === 'blocked') {
    throw new NetError('blocked_address', `${literal.range} address ${literal.address}`, url.href);
  }
  if (literal.kind === 'public') return { address: literal.address, overridden: false };

  const name = url.hostname.replace(/\.$/, '');
  if (name === 'localhost' || name.endsWith('.localhost')) {
    throw new NetError('blocked_address', `${name} is a loopback name`, url.href);
  }

  let answers: readonly ResolvedAddress[];
  try {
    answers = await abortable(options.lookup(name), options.signal);
  } catch (error) {
    if (options.signal.aborted) throw error;
    throw new NetError('dns_failure', `${name} did not resolve`, url.href, { cause: error });
  }
  if (answers.length === 0) {
    throw new NetError('dns_failure', `${name} has no addresses`, url.href);
  }

  const addresses: { address: string; version: 4 | 6 }[] = [];
  for (const answer of answers) {
    const ip = classifyIp(answer.address);
    if (ip.kind === 'not_ip') {
      throw new NetError('blocked_address', `${name} resolved to a non-address`, url.href);
    }
    if (ip.kind === 'blocked') {
      // One bad answer refuses the whole name: a round-robin set that mixes public and private
      // addresses is a rebinding setup, not a site.
      throw new NetError(
        'blocked_address',
        `${name} resolves to ${ip.range} address ${ip.address}`,
        url.href,
      );
    }
    addresses.push({ address: ip.address, version: ip.version });
  }
  const chosen = addresses.find((a) => a.version === 4) ?? addresses[0];
  if (chosen === undefined) throw new NetError('dns_failure', `${name} has no addresses`, url.href);
  return { address: chosen.address, overridden: false };
}

/** The URL's port, or the scheme's default (80 for http, 443 for https). */
export function effectivePort(url: URL): number {
  if (url.port !== '') return Number(url.port);
  return url.protocol === 'https:' ? 443 : 80;
}
