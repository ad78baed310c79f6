/**
 * The part of autocannon 9's programmatic API that the benchmark uses. autocannon ships no
 * TypeScript declarations (and @types/autocannon lags behind 9.x), so they are written here.
 */
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  /** One request of the `requests` list; each connection cycles through the list in order. */
  export interface AutocannonRequest {
    method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
    path?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
    /** Called before each send; may return a changed request (e.g. a new body). */
    setupRequest?: (
      request: AutocannonRequest,
      context: Record<string, unknown>,
    ) => AutocannonRequest;
  }

  export interface AutocannonOptions {
    url: string;
    connections?: number;
    /** Seconds. */
    duration?: number;
    pipelining?: number;
    /** Seconds before a request counts as timed out. */
    timeout?: number;
    requests?: AutocannonRequest[];
    title?: string;
  }

  /** A percentile summary as autocannon reports it (`p50`, `p99`, …). */
  export interface AutocannonStats {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    total: number;
    p50: number;
    p90: number;
    p99: number;
  }

  export interface AutocannonResult {
    /** Seconds the run actually lasted. */
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    resets: number;
    '2xx': number;
    statusCodeStats: Record<string, { count: number } | undefined>;
    /** Per-second samples of completed requests; `total` is the sum. */
    requests: AutocannonStats & { sent: number };
    /** Milliseconds, recorded in whole milliseconds by autocannon's histogram. */
    latency: AutocannonStats;
  }

  /** The running instance: an event emitter that is also awaitable for the result. */
  export interface AutocannonInstance extends EventEmitter, PromiseLike<AutocannonResult> {
    /** Stop the run early; the promise still resolves with what was measured. */
    stop(): void;
  }

  /**
   * Start a run. Besides the result, the instance emits `response` for every response with
   * `(client, statusCode, resBytes, responseTimeMs)`; `responseTimeMs` is fractional.
   */
  export default function autocannon(options: AutocannonOptions): AutocannonInstance;
}
