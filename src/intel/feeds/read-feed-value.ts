/**
 * @module intel/feeds/read-feed-value
 * Turns one value of a feed into a host or a URL, or says why it cannot. Deliberately string-only
 * (no URL parser): a feed entry is kept as the feed wrote it, and the engine's `normalizeUrl`
 * judges it at lookup time. Hosts are compared exactly by the index, so they are canonicalised
 * here (lower case, no trailing dot, no `*.` wildcard prefix).
 */

/** A value read from a feed, or why it was refused (a human phrase used in problem messages). */
export type FeedValue =
  { ok: true; kind: 'host' | 'url'; value: string } | { ok: false; reason: string };

/** Longest host name kept (RFC 1035 §2.3.4: 253 characters in dotted form). */
const MAX_HOST_LENGTH = 253;

/**
 * Longest URL kept. Real feeds carry long phishing URLs (the dev PhishTank dump's longest is 7,874
 * characters), so this is generous; it only keeps a garbage line from becoming an entry.
 */
export const MAX_FEED_URL_LENGTH = 16_384;

/**
 * Labels of letters, digits, marks, `_` and `-`, dot-separated. Unicode letters are allowed on
 * purpose: deny lists carry homoglyph hosts un-punycoded (`aavè.com`), and `_` occurs in real
 * subdomains (`ether_promo.kissr.com`). IPv4 addresses match too.
 */
const HOST_PATTERN = /^[\p{L}\p{N}\p{M}_-]+(?:\.[\p{L}\p{N}\p{M}_-]+)*$/u;

/** The ASCII subset of {@link HOST_PATTERN}, tested first: nearly all feed hosts are ASCII. */
const ASCII_HOST_PATTERN = /^[a-z0-9_-]+(?:\.[a-z0-9_-]+)*$/;

/** `scheme://` at the start, per RFC 3986 §3.1 scheme syntax. */
const SCHEME_PATTERN = /^[a-z][a-z0-9+.-]*:\/\//i;

/** `:port` at the end of a host part. */
const PORT_PATTERN = /:\d{1,5}$/;

/** Control characters never belong in a host or URL kept from a feed. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point.
const CONTROL_PATTERN = /[\u0000-\u001f\u007f]/;

const NOT_A_HOST = 'not a host name';

const refuse = (reason: string): FeedValue => ({ ok: false, reason });

/**
 * Canonical host: trimmed, lower-cased, one trailing dot and a leading `*.` wildcard removed
 * (every feed read here means "this host and its subdomains" anyway).
 */
export function readFeedHost(raw: string): FeedValue {
  let host = raw.trim().toLowerCase();
  if (host.startsWith('*.')) host = host.slice(2);
  if (host.endsWith('.')) host = host.slice(0, -1);
  if (host === '') return refuse('empty value');
  if (host.length > MAX_HOST_LENGTH) return refuse('host name longer than 253 characters');
  if (!ASCII_HOST_PATTERN.test(host) && !HOST_PATTERN.test(host)) return refuse(NOT_A_HOST);
  return { ok: true, kind: 'host', value: host };
}

/**
 * A value meant as a URL: kept as given when it has a scheme; `http://` is prepended when it is
 * `host[:port][/…|?…|#…]` without one (the host part must then be a host name).
 */
export function readFeedUrl(raw: string): FeedValue {
  const value = raw.trim();
  if (value === '') return refuse('empty value');
  if (value.length > MAX_FEED_URL_LENGTH) return refuse('URL longer than 16,384 characters');
  if (CONTROL_PATTERN.test(value)) return refuse('control character in URL');
  if (value.includes('://')) {
    const scheme = SCHEME_PATTERN.exec(value);
    if (scheme === null) return refuse('not a URL (bad scheme)');
    const rest = value.slice(scheme[0].length);
    const authorityEnd = rest.search(/[/?#]/);
    const authority = authorityEnd === -1 ? rest : rest.slice(0, authorityEnd);
    if (authority === '') return refuse('URL without a host');
    return { ok: true, kind: 'url', value };
  }
  const pathStart = value.search(/[/?#]/);
  const hostPart = (pathStart === -1 ? value : value.slice(0, pathStart)).replace(PORT_PATTERN, '');
  if (!readFeedHost(hostPart).ok) return refuse('not a URL or host name');
  return { ok: true, kind: 'url', value: `http://${value}` };
}

/**
 * A value that may be either (plain lists, generic CSV, host-list JSON): a URL when it contains
 * `://`, or has a path, query, fragment or port after the host; otherwise a host.
 *
 * @example readFeedValue('Evil.example.') // { ok: true, kind: 'host', value: 'evil.example' }
 * @example readFeedValue('evil.example/login') // { ok: true, kind: 'url', value: 'http://evil.example/login' }
 */
export function readFeedValue(raw: string): FeedValue {
  const value = raw.trim();
  if (value === '') return refuse('empty value');
  if (value.includes('://')) return readFeedUrl(value);
  const pathStart = value.search(/[/?#]/);
  if (pathStart !== -1) return readFeedUrl(value);
  if (PORT_PATTERN.test(value)) return readFeedUrl(value);
  const host = readFeedHost(value);
  // Neither shape fits; say so rather than only "not a host name".
  if (!host.ok && host.reason === NOT_A_HOST) return refuse('not a host name or URL');
  return host;
}
