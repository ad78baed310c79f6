/**
 * @module net/http-client
 * The one outbound HTTP client of linkguard: threat-intel feeds, RDAP and page fetches all go
 * through {@link createHttpClient}. It is the SSRF boundary (README, "Limitations and security
 * considerations"): a URL the service is asked to judge, or that a feed or a redirect points at,
 * never makes the service connect to a loopback, private, link-local, CGNAT, multicast, reserved
 * or otherwise non-global address.
 *
 * Per hop: parse (http/https only, userinfo dropped) → {@link guardedLookup} (overrides, IP
 * literals in every spelling, every DNS answer checked) → dispatch on a pool whose connector is
 * pinned to that address → on 301/302/303/307/308 with a `Location`, repeat with the target.
 *
 * What it deliberately does not do: follow redirects inside undici, decompress (it asks for
 * `accept-encoding: identity` and returns bytes as received, `content-encoding` header included, so
 * `maxBytes` bounds memory and no compression bomb can expand), keep cookies, honour
 * `HTTP_PROXY`/`HTTPS_PROXY`/`NO_PROXY` (the pools are plain undici `Pool`s, never the global or
 * env-proxy dispatcher), or speak HTTP/2. Response header size is left to undici's default (Node's
 * `--max-http-header-size`, 16 KiB).
 *
 * Limitation: behind an egress proxy the check would see only the proxy; the client has no proxy
 * support so that this cannot happen silently.
 */
import { abortable } from './abortable.js';
import { guardedLookup, type LookupFunction, systemLookup } from './guarded-lookup.js';
import { NetError } from './net-error.js';
import { parseHopUrl } from './parse-hop-url.js';
import { createPinnedConnectorFactory } from './pinned-connector.js';
import { PoolCache } from './pool-cache.js';
import { readCappedBody } from './read-capped-body.js';
import { normalizeResolveOverride, type ResolveOverride } from './resolve-override.js';
import { toNetError } from './to-net-error.js';

/** Options of {@link createHttpClient}. */
export interface HttpClientOptions {
  /** Sent as `User-Agent` on every request; callers cannot replace it per request. */
  userAgent: string;
  /**
   * curl-style `--resolve` answers for exact host:port pairs (config `NET_RESOLVE`).
   * SECURITY: these addresses are NOT checked — loopback is allowed — for the exact pairs listed
   * only. Meant for tests and local setups; never set in production.
   */
  resolveOverrides?: readonly ResolveOverride[];
  /**
   * Name resolver; default the system resolver (`dns.lookup` with `all: true`). Tests inject
   * one.
   */
  lookup?: LookupFunction;
  /** Open connections per origin and pinned address (default 4). */
  maxConnectionsPerOrigin?: number;
  /**
   * PEM CA certificates trusted in addition to Node's bundled roots (default none). For tests with
   * a self-signed server and for private feeds; verification itself is never turned off.
   */
  extraCaCertificates?: readonly string[];
}

/** Options of one {@link HttpClient.fetch}. */
export interface FetchOptions {
  /** Default GET. */
  method?: 'GET' | 'HEAD' | 'POST';
  /**
   * Extra request headers. The client owns `host`, `user-agent`, `accept-encoding` and the
   * framing/hop-by-hop headers (`connection`, `content-length`, `transfer-encoding`, `te`,
   * `trailer`, `upgrade`, `expect`, `keep-alive`, `proxy-*`): passing one is a TypeError.
   * `authorization` and `cookie` are dropped when a redirect leaves the origin.
   */
  headers?: Record<string, string>;
  /** Request body (POST); dropped when a redirect turns the request into a GET. */
  body?: string | Uint8Array;
  /** Budget for the whole fetch — every hop's DNS, connect, headers, and the final body — in ms. */
  timeoutMs: number;
  /** Cap on the final body in bytes (as received, not decompressed). */
  maxBytes: number;
  /** Redirects followed at most (default 5, 0–20); one more gives `too_many_redirects`. */
  maxRedirects?: number;
  /**
   * Caller's cancellation; when it aborts the fetch rejects with `signal.reason` (not a
   * NetError).
   */
  signal?: AbortSignal;
}

/** A response; any status (404, 500, a 3xx without `Location`) is a result. */
export interface FetchResult {
  /** Final URL, after redirects, without userinfo. */
  url: string;
  status: number;
  /**
   * Response headers, names lower-case; repeated headers joined with `, ` (set-cookie
   * included).
   */
  headers: Record<string, string>;
  /** Body bytes as received (no decompression); empty for HEAD. */
  body: Buffer;
  /**
   * Every URL that answered with a redirect, in order: `[...redirects, url]` is the whole
   * chain.
   */
  redirects: string[];
  /** The IP address the final response came from (the pinned, checked address). */
  address: string;
}

/** The outbound client. */
export interface HttpClient {
  /**
   * Fetch `url`, following redirects manually and checking every hop.
   *
   * @throws {NetError} with a {@link NetErrorCode}; {@link TypeError} for invalid options.
   */
  fetch(url: string, options: FetchOptions): Promise<FetchResult>;
  /** Close every pool, letting requests in flight finish; later fetches reject. */
  close(): Promise<void>;
}

/** Default redirect budget: what browsers allow is 20; feeds and RDAP need 1–2. */
const DEFAULT_MAX_REDIRECTS = 5;
const MAX_REDIRECTS_LIMIT = 20;
const DEFAULT_CONNECTIONS = 4;
/**
 * Per-socket connect limit (TCP and TLS). A fetch stops waiting at its own `timeoutMs` whatever
 * this says; the attempt itself then ends by this limit in the background.
 */
const CONNECT_TIMEOUT_MS = 10_000;
/** A redirect's body is read and dropped up to this size (keeps the connection reusable). */
const REDIRECT_BODY_DRAIN_BYTES = 64 * 1024;

const METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'POST']);
const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);
const CLIENT_OWNED_HEADERS: ReadonlySet<string> = new Set([
  'host',
  'user-agent',
  'accept-encoding',
  'connection',
  'content-length',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'expect',
  'keep-alive',
  'proxy-authorization',
  'proxy-connection',
]);
/** Headers a cross-origin redirect must not carry on (Fetch standard, HTTP-redirect fetch). */
const CREDENTIAL_HEADERS = ['authorization', 'cookie', 'proxy-authorization'];
/** Headers describing a body, removed when a redirect drops the body. */
const BODY_HEADERS = ['content-type', 'content-encoding', 'content-language', 'content-location'];

/**
 * Create the SSRF-safe outbound client. See the module comment for the policy.
 *
 * @throws {TypeError} when a resolve override is invalid (host not a DNS name, port not 1–65535,
 * address not an IP) or `maxConnectionsPerOrigin` is not a positive integer.
 */
export function createHttpClient(options: HttpClientOptions): HttpClient {
  const overrides = (options.resolveOverrides ?? []).map((o) => {
    const normalized = normalizeResolveOverride(o);
    if (normalized === null) throw new TypeError(`invalid resolve override ${JSON.stringify(o)}`);
    return normalized;
  });
  const connections = options.maxConnectionsPerOrigin ?? DEFAULT_CONNECTIONS;
  if (!Number.isInteger(connections) || connections < 1) {
    throw new TypeError('maxConnectionsPerOrigin must be a positive integer');
  }
  const lookup = options.lookup ?? systemLookup;
  const pools = new PoolCache(
    createPinnedConnectorFactory({
      connectTimeoutMs: CONNECT_TIMEOUT_MS,
      extraCaCertificates: options.extraCaCertificates,
    }),
    connections,
  );

  async function fetchUrl(input: string, fetchOptions: FetchOptions): Promise<FetchResult> {
    if (pools.closed) throw new Error('HttpClient is closed');
    const maxRedirects = checkOptions(fetchOptions);
    const deadline = AbortSignal.timeout(fetchOptions.timeoutMs);
    const callerSignal = fetchOptions.signal;
    const signal =
      callerSignal === undefined ? deadline : AbortSignal.any([deadline, callerSignal]);

    let hopUrl = input;
    try {
      let url = parseHopUrl(input);
      hopUrl = url.href;
      let method = fetchOptions.method ?? 'GET';
      let body = fetchOptions.body;
      const headers: Record<string, string> = {
        ...callerHeaders(fetchOptions.headers),
        'user-agent': options.userAgent,
        'accept-encoding': 'identity',
      };
      const redirects: string[] = [];

      for (;;) {
        const { address } = await guardedLookup(url, { overrides, lookup, signal });
        // undici applies `signal` only once a socket is connected: a connect or TLS handshake
        // that hangs (SYN dropped, a server that never speaks TLS) would hold the fetch for the
        // connector's own timeout, past the caller's budget. Stop waiting at the deadline; the
        // attempt ends in the background within CONNECT_TIMEOUT_MS and is then aborted.
        const response = await abortable(
          pools.get(url.origin, address).request({
            path: url.pathname + url.search,
            method,
            headers,
            body: body ?? null,
            signal,
          }),
          signal,
          (late) => late.body.destroy(),
        );
        let location: string | null;
        try {
          location = redirectLocation(response.statusCode, response.headers, url.href);
          if (location === null) {
            const received = await readCappedBody(
              response.body,
              fetchOptions.maxBytes,
              method === 'HEAD' ? undefined : singleHeader(response.headers['content-length']),
              url.href,
            );
            return {
              url: url.href,
              status: response.statusCode,
              headers: flattenHeaders(response.headers),
              body: received,
              redirects,
              address,
            };
          }
          await response.body.dump({ limit: REDIRECT_BODY_DRAIN_BYTES, signal });
        } finally {
          // On any failure the unread rest of the body must not hold the connection.
          if (!response.body.readableEnded) response.body.destroy();
        }

        if (redirects.length >= maxRedirects) {
          throw new NetError('too_many_redirects', `more than ${maxRedirects} redirects`, url.href);
        }
        redirects.push(url.href);
        const next = parseHopUrl(location, url);
        hopUrl = next.href;

        const status = response.statusCode;
        if (
          (status === 303 && method !== 'HEAD') ||
          ((status === 301 || status === 302) && method === 'POST')
        ) {
          method = 'GET';
          body = undefined;
          for (const name of BODY_HEADERS) Reflect.deleteProperty(headers, name);
        }
        if (next.origin !== url.origin) {
          for (const name of CREDENTIAL_HEADERS) Reflect.deleteProperty(headers, name);
        }
        url = next;
      }
    } catch (error) {
      throw toNetError(error, hopUrl, deadline, callerSignal);
    }
  }

  return {
    fetch: fetchUrl,
    close: () => pools.close(),
  };
}

/** Validate the per-fetch numbers; returns the redirect budget. */
function checkOptions(options: FetchOptions): number {
  const { timeoutMs, maxBytes } = options;
  const maxRedirects = options.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  // AbortSignal.timeout takes at most 2^31-1 ms (a Node timer limit).
  if (!Number.isInteger(timeoutMs) || timeoutMs < 1 || timeoutMs > 2_147_483_647) {
    throw new TypeError('timeoutMs must be a positive integer (ms)');
  }
  if (!Number.isSafeInteger(maxBytes) || maxBytes < 0) {
    throw new TypeError('maxBytes must be a non-negative integer');
  }
  if (!Number.isInteger(maxRedirects) || maxRedirects < 0 || maxRedirects > MAX_REDIRECTS_LIMIT) {
    throw new TypeError(`maxRedirects must be an integer from 0 to ${MAX_REDIRECTS_LIMIT}`);
  }
  // Checked at run time too: callers outside TypeScript (config, CLI) can pass any string.
  if (!METHODS.has(options.method ?? 'GET'))
    throw new TypeError('method must be GET, HEAD or POST');
  return maxRedirects;
}

/** Caller headers, lower-cased; client-owned names are refused. */
function callerHeaders(headers: Record<string, string> | undefined): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    const lower = name.toLowerCase();
    if (CLIENT_OWNED_HEADERS.has(lower))
      throw new TypeError(`header ${lower} is set by the client`);
    result[lower] = value;
  }
  return result;
}

type ResponseHeaders = Record<string, string | string[] | undefined>;

/**
 * The `Location` of a redirect response, or null when the response is final (not a redirect
 * status, or a redirect status without `Location`, which is returned to the caller as is).
 */
function redirectLocation(status: number, headers: ResponseHeaders, url: string): string | null {
  if (!REDIRECT_STATUSES.has(status)) return null;
  const location = headers.location;
  if (location === undefined) return null;
  if (Array.isArray(location)) {
    throw new NetError('protocol_error', `${status} with several Location headers`, url);
  }
  return location;
}

function singleHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}

function flattenHeaders(headers: ResponseHeaders): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) result[name.toLowerCase()] = singleHeader(value) ?? '';
  }
  return result;
}
