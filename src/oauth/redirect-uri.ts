/**
 * @module oauth/redirect-uri
 * Which redirect URIs a client may register (RFC 7591 §2, OAuth 2.1 §2.3.1, RFC 8252 §7) and how
 * a request's `redirect_uri` is matched against them: exactly, except that the port of a loopback
 * IP literal may differ (RFC 8252 §7.3: native apps listen on an ephemeral port). Also how the
 * sign-in page names where the browser will go ({@link describeRedirectTarget}): the host in
 * ASCII (punycode) beside its Unicode form, so a look-alike host cannot pass for the real one.
 */

import { domainToASCII, domainToUnicode } from 'node:url';

/** Hosts that count as loopback for http redirect URIs (RFC 8252 §7.3; `localhost` tolerated). */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/**
 * Schemes that must never be a redirect target: they run code, read local files or are not
 * navigations. Named in the refusal; every other scheme without a period is refused too, since a
 * native app's private-use scheme is a reverse domain name (RFC 8252 §7.1, `com.example.app:`).
 */
const FORBIDDEN_SCHEMES = new Set([
  'javascript:',
  'data:',
  'vbscript:',
  'file:',
  'blob:',
  'about:',
  'filesystem:',
  'ws:',
  'wss:',
  'ftp:',
]);

/** Longest accepted redirect URI, in characters. */
const MAX_REDIRECT_URI_LENGTH = 2048;

/**
 * Characters no URI may hold (RFC 3986 §2) that WHATWG URL parsing silently rewrites or drops:
 * a backslash (read as `/`, so `https://evil.example\@claude.ai/cb` goes to evil.example while
 * it reads like claude.ai), spaces and control characters (tabs and newlines are removed).
 */
// eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
const MISREAD_CHARACTERS = /[\u0000-\u0020\u007f\\]/;

/** A web redirect URI written with its authority: `http://` or `https://`, any case. */
const WEB_WITH_AUTHORITY = /^https?:\/\//i;

/**
 * Why `uri` may not be a redirect URI, or null when it may. Checked at registration and again
 * when an authorization request would send the browser there.
 *
 * Rules: an absolute URI without a fragment (RFC 6749 §3.1.2), without user information, and
 * without characters a URL parser would read differently from a person; then `https://` to any
 * host, `http://` only to a loopback host (127.0.0.1, [::1], localhost: RFC 8252 §7.3, §8.3),
 * or a native app's private-use scheme in reverse domain name form (RFC 8252 §7.1: the scheme
 * holds a period, `com.example.app:/callback`).
 *
 * @returns the end of a sentence starting with the URI (`must not contain a fragment`).
 */
export function redirectUriProblem(uri: string): string | null {
  if (uri.length > MAX_REDIRECT_URI_LENGTH) return 'is too long';
  if (MISREAD_CHARACTERS.test(uri)) {
    return 'must not contain a backslash, a space or a control character';
  }
  const url = URL.parse(uri);
  if (url === null) return 'is not an absolute URI';
  if (url.hash !== '' || uri.includes('#')) return 'must not contain a fragment';
  if (url.username !== '' || url.password !== '') return 'must not contain user information';
  if (url.protocol === 'https:' || url.protocol === 'http:') {
    // `https:host/cb` parses with a host, yet by RFC 3986 it has none: it must be spelled out.
    if (!WEB_WITH_AUTHORITY.test(uri)) return `must start with ${url.protocol}//`;
    if (url.protocol === 'https:') return url.hostname === '' ? 'has no host' : null;
    return LOOPBACK_HOSTS.has(url.hostname) ? null : 'may use http only on a loopback host';
  }
  if (FORBIDDEN_SCHEMES.has(url.protocol)) return `may not use the ${url.protocol} scheme`;
  if (!url.protocol.slice(0, -1).includes('.')) {
    return (
      'must use https, http on a loopback host, or an app scheme in reverse domain name form ' +
      '(com.example.app:/callback, RFC 8252 §7.1)'
    );
  }
  return null;
}

/** Where the sign-in page says the browser will go. */
export type RedirectTarget =
  | {
      kind: 'web';
      /** The URI as the browser will load it (WHATWG serialization: the host in punycode). */
      href: string;
      /** The host in ASCII (IDNA, punycode), what the browser connects to. */
      asciiHost: string;
      /** The host in Unicode, or null when it reads the same as {@link asciiHost}. */
      unicodeHost: string | null;
      /** A loopback host: a program on the user's own computer. */
      loopback: boolean;
    }
  | { kind: 'app'; href: string; scheme: string };

/**
 * How the sign-in page names a redirect URI: for http(s) its host in ASCII (punycode, via
 * `url.domainToASCII`) and, when different, in Unicode (`url.domainToUnicode`), so a
 * look-alike such as `pаypal.com` (Cyrillic `а`) shows as `xn--pypal-4ve.com`; for a native app
 * its scheme. Both from Node's WHATWG URL implementation.
 *
 * @param uri a redirect URI that {@link redirectUriProblem} accepts.
 * @throws Error when `uri` does not parse (callers pass checked URIs only).
 */
export function describeRedirectTarget(uri: string): RedirectTarget {
  const url = URL.parse(uri);
  if (url === null) throw new Error('redirect URI no longer parses');
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { kind: 'app', href: url.href, scheme: url.protocol.slice(0, -1) };
  }
  const bracketed = url.hostname.startsWith('[');
  const asciiHost = bracketed ? url.hostname : domainToASCII(url.hostname) || url.hostname;
  const unicode = bracketed ? asciiHost : domainToUnicode(asciiHost);
  return {
    kind: 'web',
    href: url.href,
    asciiHost,
    unicodeHost: unicode === '' || unicode === asciiHost ? null : unicode,
    loopback: url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname),
  };
}

/**
 * The registered URI that `requested` matches, or null. Comparison is of the strings as sent,
 * except that an http loopback URI matches whatever its port (RFC 8252 §7.3).
 *
 * @param registered the client's registered redirect URIs.
 * @param requested the `redirect_uri` of an authorization request.
 */
export function matchRedirectUri(registered: readonly string[], requested: string): boolean {
  if (registered.includes(requested)) return true;
  const asked = URL.parse(requested);
  if (asked?.protocol !== 'http:' || !LOOPBACK_HOSTS.has(asked.hostname)) return false;
  // Only the port may differ: no fragment or user information slips in with it.
  if (requested.includes('#') || asked.username !== '' || asked.password !== '') return false;
  return registered.some((uri) => {
    const known = URL.parse(uri);
    return (
      known !== null &&
      known.protocol === 'http:' &&
      known.hostname === asked.hostname &&
      known.pathname === asked.pathname &&
      known.search === asked.search
    );
  });
}

/**
 * `redirectUri` with the authorization response parameters added to its query (RFC 6749
 * §4.1.2), keeping any query it already has.
 */
export function withResponseParameters(
  redirectUri: string,
  parameters: Record<string, string | null>,
): string {
  const url = URL.parse(redirectUri);
  if (url === null) throw new Error('redirect URI no longer parses');
  for (const [name, value] of Object.entries(parameters)) {
    if (value !== null) url.searchParams.append(name, value);
  }
  return url.href;
}

/**
 * The CSP source that lets the authorization form's redirect reach `redirectUri`: its origin
 * for http(s), its scheme for a native-app scheme.
 */
export function redirectSource(redirectUri: string): string {
  const url = URL.parse(redirectUri);
  if (url === null) return "'none'";
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : url.protocol;
}
