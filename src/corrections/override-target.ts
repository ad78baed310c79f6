/**
 * @module corrections/override-target
 * What an operator's override covers, read from the text given to `linkguard overrides add`:
 * a registrable domain (and every host under it), one host, or a URL prefix. The text is parsed
 * by the same `normalizeUrl()` as every submitted URL, so an override is written in the form it
 * is matched against (lower-case punycode host, WHATWG path).
 */
import { normalizeUrl } from '../engine/url/normalize-url.js';
import { AppError } from '../errors.js';
import type { OverrideScope } from '../store/ports/correction-store.js';

/** A parsed override target. */
export interface OverrideTarget {
  scope: OverrideScope;
  /**
   * `domain`/`host`: the ASCII host; `url_prefix`: the normalized URL without its fragment
   * (`https://example.com/login`), matched whatever the scheme (http and https alike).
   */
  target: string;
}

/**
 * Read an override target.
 *
 * - `example.com` (a registrable domain: eTLD+1 of the Public Suffix List, private section
 *   included, so `alice.github.io` is one) → `domain`: that domain and every host under it.
 * - `login.example.com`, an IP address, or a host that is itself a public suffix (`gov.uk`) →
 *   `host`: that host only. A public suffix never becomes a `domain` target: it would cover
 *   every unrelated site under it.
 * - Anything with a scheme, a path other than `/`, a query or a port
 *   (`https://example.com/app/`, `example.com/login`) → `url_prefix`: every URL that starts with
 *   it, http or https.
 *
 * @param input operator-given text, ≤ 2,048 characters (the URL limit of `normalizeUrl()`).
 * @throws {AppError} `invalid_request` (reason `override_target`) when the text is not a public
 *   host or http(s) URL, with `normalizeUrl()`'s explanation.
 */
export function parseOverrideTarget(input: string): OverrideTarget {
  const text = input.trim();
  const parsed = normalizeUrl(text);
  if (!parsed.ok) {
    throw new AppError('invalid_request', `Not a host or URL prefix: ${parsed.message}`, {
      reason: 'override_target',
    });
  }
  const url = parsed.url;
  const hasScheme = /^https?:\/\//i.test(text);
  if (hasScheme || url.pathname !== '/' || url.search !== '' || url.port !== null) {
    const fragmentAt = url.href.indexOf('#');
    return {
      scope: 'url_prefix',
      target: fragmentAt < 0 ? url.href : url.href.slice(0, fragmentAt),
    };
  }
  if (url.ipVersion === null && !url.hostIsSuffix && url.hostname === url.registrableDomain) {
    return { scope: 'domain', target: url.hostname };
  }
  return { scope: 'host', target: url.hostname };
}

/**
 * The part of a normalized URL a `url_prefix` target is compared on: everything after the
 * scheme's `:` (`//example.com/login`), so an override covers http and https alike.
 */
export function schemelessUrl(href: string): string {
  const colon = href.indexOf(':');
  return colon < 0 ? href : href.slice(colon + 1);
}
