/**
 * @module page/page-request
 * How layer 3 asks for a page: like a desktop browser (kits show their lure to browsers and a
 * harmless page to anything else — detection.md §2.0), without cookies, through the SSRF-safe
 * client. The body is decoded with the WHATWG encoding-sniffing algorithm (`encoding-sniffer`:
 * BOM, then the `Content-Type` charset, then a `<meta charset>` prescan, then windows-1252).
 */
import { decodeBuffer } from 'encoding-sniffer';

import type { FetchResult } from '../net/index.js';
import type { PageFailure } from './page-failure.js';

/**
 * A current desktop Chrome on Windows (ClickFix kits target Windows and often show nothing to
 * other systems). Sent on every page and script request of layer 3.
 */
export const BROWSER_USER_AGENT =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36';

/** Request headers a browser sends on a top-level navigation (minus cookies). */
export const NAVIGATION_HEADERS: Readonly<Record<string, string>> = {
  accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8',
  'accept-language': 'en-US,en;q=0.9',
  'upgrade-insecure-requests': '1',
  'sec-fetch-dest': 'document',
  'sec-fetch-mode': 'navigate',
  'sec-fetch-site': 'none',
};

/** Request headers a browser sends for a `<script src>`. */
export const SCRIPT_HEADERS: Readonly<Record<string, string>> = {
  accept: '*/*',
  'accept-language': 'en-US,en;q=0.9',
  'sec-fetch-dest': 'script',
  'sec-fetch-mode': 'no-cors',
};

const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);

/** The media type of a `Content-Type` header, lower-case, without parameters ('' when absent). */
function mediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/** The `charset` parameter of a `Content-Type` header, or undefined. */
export function charsetOf(contentType: string | undefined): string | undefined {
  const match = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType ?? '');
  return match?.[1];
}

/**
 * Decode a fetched page, or say why it is not an HTML page we can read.
 *
 * An absent `Content-Type` is accepted when the body starts like markup (browsers sniff too);
 * a compressed body (the client asks for `identity`, a server may ignore it) is refused rather
 * than decompressed without a bound.
 */
export function decodeHtml(result: FetchResult): { html: string } | { failure: PageFailure } {
  const encoding = (result.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
  if (encoding !== '' && encoding !== 'identity') return { failure: 'protocol_error' };
  const type = mediaType(result.headers['content-type']);
  const charset = charsetOf(result.headers['content-type']);
  const html = decodeBuffer(
    result.body,
    charset === undefined ? {} : { transportLayerEncodingLabel: charset },
  );
  if (HTML_TYPES.has(type)) return { html };
  if (type === '' && /^\s*</.test(html.slice(0, 512))) return { html };
  return { failure: 'not_html' };
}

/** Decode a fetched script as text (same sniffing, default UTF-8 as browsers do for scripts). */
export function decodeScript(result: FetchResult): string {
  const charset = charsetOf(result.headers['content-type']);
  return decodeBuffer(result.body, {
    defaultEncoding: 'utf-8',
    ...(charset === undefined ? {} : { transportLayerEncodingLabel: charset }),
  });
}
