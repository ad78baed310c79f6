/**
 * @module engine/url/resolve-reference
 * Resolve a reference found in a page (a form `action`, a script `src`, a link) against the
 * page's URL with the WHATWG parser, as a browser would, and name its site. Untrusted input:
 * anything that does not resolve to an http(s) URL gives null.
 */
import { parse as parseDomain } from 'tldts';

/** A resolved page reference. */
export interface ResolvedReference {
  /** Absolute URL (WHATWG serialization). */
  href: string;
  scheme: string;
  /** ASCII host, lower-case; '' for schemes without a host (`mailto:`, `javascript:`). */
  hostname: string;
  /** Registrable domain (private PSL section included), or null for IP hosts and no host. */
  registrableDomain: string | null;
  pathname: string;
}

/**
 * Resolve `reference` against `base`.
 *
 * @param reference as written in the page (relative, absolute, `//host/…`, `mailto:` …).
 * @param base the page's absolute URL.
 * @returns the resolved reference, or null when it does not parse.
 */
export function resolveReference(reference: string, base: string): ResolvedReference | null {
  const url = URL.parse(reference.trim(), base);
  if (url === null) return null;
  const hostname = url.hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '');
  const registrableDomain =
    hostname === '' ? null : parseDomain(hostname, { allowPrivateDomains: true }).domain;
  return {
    href: url.href,
    scheme: url.protocol.slice(0, -1),
    hostname,
    registrableDomain,
    pathname: url.pathname,
  };
}
