/**
 * @module observability/metrics
 * The service's Prometheus metrics (prom-client): one registry per app, so tests and several
 * apps in one process never share counters. Labels never carry a URL, key, token or payer: the
 * route label is Fastify's route template (`/v1/detect`), never the request path, and requests
 * no route matched are one label value, so a scanner cannot grow the series without bound.
 */
import { collectDefaultMetrics, Histogram, Registry } from 'prom-client';

/** Route label of a request no route matched (404s of arbitrary paths). */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * Buckets of `http_request_duration_seconds`, in seconds: from a cached verdict (well under a
 * millisecond) to a fresh one with its page fetch (the 4 s default page budget) and slow clients.
 */
const DURATION_BUCKETS = [
  0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
];

/** The registry and the instruments the app records into. */
export class ServiceMetrics {
  /** What `GET /metrics` serializes. */
  readonly registry = new Registry();

  /** Requests by method, route template and status, with their duration in seconds. */
  readonly httpRequestDuration: Histogram<'method' | 'route' | 'status_code'>;

  constructor() {
    collectDefaultMetrics({ register: this.registry });
    this.httpRequestDuration = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP requests by method, route template and status, and their duration in seconds',
      labelNames: ['method', 'route', 'status_code'],
      buckets: DURATION_BUCKETS,
      registers: [this.registry],
    });
  }

  /**
   * Record one answered request.
   *
   * @param method HTTP method.
   * @param route the route template, or undefined when no route matched.
   * @param statusCode the status sent.
   * @param elapsedMs time from the request's arrival to the answer, in milliseconds.
   */
  observeRequest(
    method: string,
    route: string | undefined,
    statusCode: number,
    elapsedMs: number,
  ): void {
    this.httpRequestDuration.observe(
      { method, route: route ?? UNMATCHED_ROUTE, status_code: String(statusCode) },
      elapsedMs / 1000,
    );
  }
}
