/**
 * @module server/http-timeouts
 * How long the HTTP server waits for a client (issue 14, finding 7): for the request headers, for
 * the whole request (headers and body), and for the next request on an idle keep-alive
 * connection. A client that sends headers and then nothing, or trickles its body, is answered
 * 408 and disconnected at the bound, so slow clients cannot hold connections for minutes.
 *
 * Node's own timers do the work (Node docs, `http.Server`: `headersTimeout`, `requestTimeout`,
 * `keepAliveTimeout`, and `connectionsCheckingInterval`, the period at which the first two are
 * checked — 30 s by default, which alone would let a slow client stay half a minute past the
 * bound, hence a period derived from the bounds).
 */

/** The three bounds, ms (config HTTP_HEADERS_TIMEOUT_MS, HTTP_REQUEST_TIMEOUT_MS, HTTP_KEEP_ALIVE_TIMEOUT_MS). */
export interface HttpTimeouts {
  /** From a request's first byte (or the connection's opening) to its complete headers. */
  headersMs: number;
  /** From a request's first byte to its complete body; at least `headersMs`. */
  requestMs: number;
  /** Idle time allowed on a keep-alive connection between two requests. */
  keepAliveMs: number;
}

/** Longest period between two checks of the header and request bounds (ms). */
const MAX_CHECK_INTERVAL_MS = 1000;

/**
 * Fastify server options for the bounds: `requestTimeout` and `keepAliveTimeout` as Fastify
 * options (Fastify sets them on the server it creates), `headersTimeout` and the check period
 * through `http`, which Fastify passes to `http.createServer`.
 *
 * @returns options to spread into `Fastify({ … })`.
 */
export function httpTimeoutOptions(timeouts: HttpTimeouts) {
  const interval = Math.max(
    10,
    Math.min(
      MAX_CHECK_INTERVAL_MS,
      Math.floor(Math.min(timeouts.headersMs, timeouts.requestMs) / 4),
    ),
  );
  return {
    requestTimeout: timeouts.requestMs,
    keepAliveTimeout: timeouts.keepAliveMs,
    http: {
      headersTimeout: timeouts.headersMs,
      requestTimeout: timeouts.requestMs,
      keepAliveTimeout: timeouts.keepAliveMs,
      connectionsCheckingInterval: interval,
    },
  };
}
