/**
 * @module net/parse-hop-url
 * Turns the URL of a fetch, or a redirect's `Location`, into the URL of the next hop.
 */
import { NetError } from './net-error.js';

/**
 * Parse a hop URL with the WHATWG parser (the parser undici and browsers use, so no parser
 * differential), resolving a relative `Location` against `base`.
 *
 * Userinfo (`user:pass@`) is removed, never sent: the client carries no credentials in URLs, and
 * phishing URLs use `trusted.com@evil.example` to disguise the real host, which is what is fetched.
 * Any port is allowed: the boundary is the address check, and feeds and RDAP servers do not all
 * sit on 80/443 (a port on a public host is reachable by anyone anyway).
 *
 * @param text absolute URL, or a relative reference when `base` is given.
 * @param base the URL of the hop that answered with the redirect.
 * @throws {NetError} `invalid_url` when the text does not parse, the scheme is not http(s)
 * (`file:`, `ftp:`, `data:`, `javascript:` …) or the host is empty. `url` is the text as received.
 */
export function parseHopUrl(text: string, base?: URL): URL {
  let url: URL;
  try {
    // eslint-disable-next-line no-restricted-syntax -- the outbound client fetches what it is given (feeds, RDAP, redirect targets), which normalizeUrl()'s detection rules (PSL, special-use names) must not filter; its own check is the address policy.
    url = new URL(text, base);
  } catch (error) {
    throw new NetError('invalid_url', 'URL does not parse', text, { cause: error });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new NetError('invalid_url', `unsupported scheme ${url.protocol}`, url.href);
  }
  if (url.hostname === '') throw new NetError('invalid_url', 'URL has no host', url.href);
  url.username = '';
  url.password = '';
  return url;
}
