/**
 * @module oauth/redirect-uri
 * Which redirect URIs a client may register (RFC 7591 §2, OAuth 2.1 §2.3.1, RFC 8252 §7) and how
 * a request's `redirect_uri` is matched against them: exactly, except that the port of a loopback
 * IP literal may differ (RFC 8252 §7.3: native apps listen on an ephemeral port).
 */

/** Hosts that count as loopback for http redirect URIs (RFC 8252 §7.3; `localhost` tolerated). */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/**
 * Schemes that must never be a redirect target: they run code, read local files or are not
 * navigations. Other private-use schemes (`cursor:`, `com.example.app:`) are native-app
 * callbacks (RFC 8252 §7.1).
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
 * Why `uri` may not be registered as a redirect URI, or null when it may.
 *
 * Rules: an absolute URL without a fragment (RFC 6749 §3.1.2) and without user info; `https:`
 * to any host, `http:` only to a loopback host, or a private-use scheme of a native app.
 */
export function redirectUriProblem(uri: string): string | null {
  if (uri.length > MAX_REDIRECT_URI_LENGTH) return 'is too long';
  const url = URL.parse(uri);
  if (url === null) return 'is not an absolute URI';
  if (url.hash !== '' || uri.includes('#')) return 'must not contain a fragment';
  if (url.username !== '' || url.password !== '') return 'must not contain user information';
  if (url.protocol === 'https:') return url.hostname === '' ? 'has no host' : null;
  if (url.protocol === 'http:') {
    return LOOPBACK_HOSTS.has(url.hostname) ? null : 'may use http only on a loopback host';
  }
  if (FORBIDDEN_SCHEMES.has(url.protocol)) return `may not use the ${url.protocol} scheme`;
  return null;
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
