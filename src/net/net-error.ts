/**
 * @module net/net-error
 * The one error type of the outbound HTTP client (`createHttpClient`). A response with any status
 * (404, 500, …) is a result, not an error; a `NetError` means no usable response was obtained.
 */

/** Why a fetch produced no response. Stable: callers branch on these, never on the message. */
export type NetErrorCode =
  /** The URL (or a redirect's `Location`) does not parse, is not http(s), or has no host. No connection was made. */
  | 'invalid_url'
  /** The host is, or resolves to (any one of its addresses), a non-global address: loopback, private, link-local, CGNAT, multicast, reserved, or a `localhost` name. No connection was made. */
  | 'blocked_address'
  /** The name did not resolve (NXDOMAIN, no addresses, resolver error). */
  | 'dns_failure'
  /** TCP or TLS could not be established with the checked address: refused, unreachable, connect timeout, certificate not valid for the host name. */
  | 'connect_failed'
  /** The whole budget (`timeoutMs`, every hop and the body included) ran out. */
  | 'timeout'
  /** The body exceeded `maxBytes` (announced by `Content-Length` or counted while reading); reading stopped. */
  | 'too_large'
  /** A redirect arrived after `maxRedirects` had already been followed (redirect loops end here). */
  | 'too_many_redirects'
  /** The peer broke HTTP: closed mid-response, malformed status or headers, oversized headers, several `Location` headers, body shorter than announced. */
  | 'protocol_error';

/**
 * A failed outbound fetch.
 *
 * `url` is the URL of the hop that failed (for a redirect, the `Location` target, userinfo
 * removed), so a refused redirect names the address it tried to reach. `cause` holds the
 * underlying error (DNS, socket, TLS, undici) for logs; its message is not part of the contract.
 */
export class NetError extends Error {
  override readonly name = 'NetError';
  readonly code: NetErrorCode;
  readonly url: string;

  constructor(code: NetErrorCode, message: string, url: string, options: { cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.url = url;
  }
}

/** True when `value` is a {@link NetError} (also across module copies). */
export function isNetError(value: unknown): value is NetError {
  return value instanceof Error && value.name === 'NetError' && 'code' in value && 'url' in value;
}
