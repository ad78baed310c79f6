/**
 * @module observability/metrics
 * The service's Prometheus metrics (prom-client): one registry per app, so tests and several
 * apps in one process never share counters. `ServiceMetrics` implements the observer ports of
 * `observability/observer.ts` that the layers below report through (docs/decisions.md,
 * decisions 150 and 163). Labels never carry a URL, key, token, payer or address: the route label
 * is Fastify's route template (`/v1/detect`), never the request path, requests no route matched
 * are one label value, and every other label takes its values from a closed set (verdicts, layers,
 * chains, payment reasons, rate-limit policies, store methods, configured feed names), so a
 * caller cannot grow the series without bound. The README lists every metric.
 */
import {
  collectDefaultMetrics,
  Counter,
  Gauge,
  Histogram,
  type LabelValues,
  Registry,
} from 'prom-client';

import {
  DECIDING_LAYERS,
  type DecidingLayer,
  type DetectionObserver,
  type OperationRecorder,
  type PaymentChainLabel,
  type PaymentObserver,
  type PaymentOutcome,
  type RateLimitObserver,
  type StoreObserver,
  TIMED_LAYERS,
  type TimedLayer,
  type VerdictCacheLevel,
  type VerdictLabel,
} from './observer.js';

/** Route label of a request no route matched (404s of arbitrary paths). */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * Buckets of `http_request_duration_seconds`, in seconds: from a cached verdict (well under a
 * millisecond) to a fresh one with its page fetch (the 4 s default page budget) and slow clients.
 */
const DURATION_BUCKETS = [
  0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
];

/**
 * Buckets of `linkguard_layer_duration_seconds`: from layer 1's analysis of a URL (tens of
 * microseconds) to a page fetch or LLM call at the end of the 4 s page budget.
 */
const LAYER_BUCKETS = [
  0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5,
  5, 10,
];

/** Buckets of `linkguard_store_operation_duration_seconds`: an indexed read to a slow write. */
const STORE_BUCKETS = [
  0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1,
];

/**
 * Buckets of `linkguard_chain_rpc_duration_seconds`: a local node answers in milliseconds, a
 * hosted RPC in tens to hundreds, and CHAIN_RPC_TIMEOUT_MS (default 5 s) ends the rest.
 */
const RPC_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** The freshness of one feed, read at scrape time. */
export interface FeedFreshness {
  /** The feed's name (`linkguard feeds list`), chosen by the operator. */
  feed: string;
  /** Last successful import, epoch ms, or null before the first. */
  importedAt: number | null;
  /** The newest `firstSeen` among its indexed entries, epoch ms, or null when none is dated. */
  newestEntryAt: number | null;
}

/** Where feed freshness comes from: the store's feeds and the index in service. */
export interface FeedFreshnessSource {
  /** The feeds now; may reject (the store is down): the gauges are then empty for this scrape. */
  feeds(): Promise<readonly FeedFreshness[]>;
  /** Epoch ms now. */
  now(): number;
}

type Bound<T> = Record<string, T>;

/** The registry and the instruments the app records into. */
export class ServiceMetrics
  implements DetectionObserver, PaymentObserver, RateLimitObserver, StoreObserver
{
  /** What `GET /metrics` serializes. */
  readonly registry = new Registry();

  /** Requests by method, route template and status, with their duration in seconds. */
  readonly httpRequestDuration: Histogram<'method' | 'route' | 'status_code'>;

  private readonly verdicts: Counter<'verdict' | 'layer'>;
  private readonly cacheLookups: Counter<'level' | 'result'>;
  private readonly layerDuration: Histogram<'layer'>;
  private readonly payments: Counter<'chain' | 'outcome' | 'reason'>;
  private readonly rpcDuration: Histogram<'chain' | 'operation'>;
  private readonly rpcErrors: Counter<'chain' | 'operation'>;
  private readonly refusals: Counter<'policy'>;
  private readonly storeDuration: Histogram<'port' | 'operation'>;
  private readonly storeErrors: Counter<'port' | 'operation'>;
  private feedSource: FeedFreshnessSource | null = null;

  /** Children bound to their labels once, so the request path builds no label object. */
  private readonly verdictChildren: Bound<Bound<{ inc(): void }>> = {};
  private readonly layerChildren: Bound<{ observe(seconds: number): void }> = {};
  private readonly cacheChildren: Bound<{ inc(): void }> = {};

  constructor() {
    collectDefaultMetrics({ register: this.registry });
    const registers = [this.registry];
    this.httpRequestDuration = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP requests by method, route template and status, and their duration in seconds',
      labelNames: ['method', 'route', 'status_code'],
      buckets: DURATION_BUCKETS,
      registers,
    });
    this.verdicts = new Counter({
      name: 'linkguard_verdicts_total',
      help: 'Verdicts served (fresh or cached) by value and by the layer they rest on',
      labelNames: ['verdict', 'layer'],
      registers,
    });
    this.cacheLookups = new Counter({
      name: 'linkguard_verdict_cache_lookups_total',
      help: 'Verdict-cache lookups by level (l1 in process, l2 Redis) and result (hit, miss)',
      labelNames: ['level', 'result'],
      registers,
    });
    this.layerDuration = new Histogram({
      name: 'linkguard_layer_duration_seconds',
      help: 'Duration of each step of a fresh verdict in seconds, by layer',
      labelNames: ['layer'],
      buckets: LAYER_BUCKETS,
      registers,
    });
    this.payments = new Counter({
      name: 'linkguard_payments_total',
      help: 'Outcomes at the payment gate by chain, outcome and refusal reason',
      labelNames: ['chain', 'outcome', 'reason'],
      registers,
    });
    this.rpcDuration = new Histogram({
      name: 'linkguard_chain_rpc_duration_seconds',
      help: 'Chain RPC round trips of payment verification and readiness probes, in seconds',
      labelNames: ['chain', 'operation'],
      buckets: RPC_BUCKETS,
      registers,
    });
    this.rpcErrors = new Counter({
      name: 'linkguard_chain_rpc_errors_total',
      help: 'Chain RPC round trips that failed (outage, timeout, wrong chain), by chain and operation',
      labelNames: ['chain', 'operation'],
      registers,
    });
    this.refusals = new Counter({
      name: 'linkguard_rate_limit_refusals_total',
      help: 'Requests refused by a rate limit or a monthly allowance, by policy',
      labelNames: ['policy'],
      registers,
    });
    this.storeDuration = new Histogram({
      name: 'linkguard_store_operation_duration_seconds',
      help: 'Store operations by port and method, and their duration in seconds',
      labelNames: ['port', 'operation'],
      buckets: STORE_BUCKETS,
      registers,
    });
    this.storeErrors = new Counter({
      name: 'linkguard_store_operation_errors_total',
      help: 'Store operations that failed, by port and method',
      labelNames: ['port', 'operation'],
      registers,
    });
    const freshness = (name: string, help: string, read: (f: FeedFreshness) => number | null) => {
      // The collect callback reads the feeds at scrape time, so nothing runs between scrapes.
      // eslint-disable-next-line @typescript-eslint/no-this-alias -- prom-client calls collect() with the gauge as `this`
      const metrics = this;
      return new Gauge({
        name,
        help,
        labelNames: ['feed'],
        registers,
        async collect() {
          this.reset();
          const source = metrics.feedSource;
          if (source === null) return;
          let feeds: readonly FeedFreshness[];
          try {
            feeds = await source.feeds();
          } catch {
            // A store that fails here is counted by the store metrics (intel.listFeeds); the
            // scrape still answers, without freshness series.
            return;
          }
          const now = source.now();
          for (const feed of feeds) {
            const at = read(feed);
            if (at !== null) this.set({ feed: feed.feed }, Math.max(0, (now - at) / 1000));
          }
        },
      });
    };
    freshness(
      'linkguard_feed_newest_entry_age_seconds',
      'Age in seconds of the newest dated entry of each feed in the threat index',
      (feed) => feed.newestEntryAt,
    );
    freshness(
      'linkguard_feed_import_age_seconds',
      'Seconds since the last successful import of each feed',
      (feed) => feed.importedAt,
    );

    for (const verdict of ['safe', 'caution', 'danger'] satisfies VerdictLabel[]) {
      const byLayer: Bound<{ inc(): void }> = {};
      for (const layer of DECIDING_LAYERS) byLayer[layer] = this.verdicts.labels(verdict, layer);
      this.verdictChildren[verdict] = byLayer;
    }
    for (const layer of TIMED_LAYERS) this.layerChildren[layer] = this.layerDuration.labels(layer);
    for (const level of ['l1', 'l2'] satisfies VerdictCacheLevel[]) {
      this.cacheChildren[`${level}:hit`] = this.cacheLookups.labels(level, 'hit');
      this.cacheChildren[`${level}:miss`] = this.cacheLookups.labels(level, 'miss');
    }
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

  /**
   * Read feed freshness from `source` at each scrape (the two `linkguard_feed_*_age_seconds`
   * gauges); until called they have no series.
   */
  watchFeeds(source: FeedFreshnessSource): void {
    this.feedSource = source;
  }

  verdictServed(verdict: VerdictLabel, decidedBy: DecidingLayer): void {
    this.verdictChildren[verdict]?.[decidedBy]?.inc();
  }

  cacheLookup(level: VerdictCacheLevel, hit: boolean): void {
    this.cacheChildren[hit ? `${level}:hit` : `${level}:miss`]?.inc();
  }

  layerTimed(layer: TimedLayer, ms: number): void {
    this.layerChildren[layer]?.observe(ms / 1000);
  }

  allowanceRefused(): void {
    this.refusals.inc({ policy: 'monthly-allowance' });
  }

  paymentOutcome(chain: PaymentChainLabel, outcome: PaymentOutcome, reason: string): void {
    this.payments.inc({ chain, outcome, reason });
  }

  chainRpc(chain: 'solana' | 'base', operation: 'verify' | 'probe', ms: number, ok: boolean): void {
    const labels: LabelValues<'chain' | 'operation'> = { chain, operation };
    this.rpcDuration.observe(labels, ms / 1000);
    if (!ok) this.rpcErrors.inc(labels);
  }

  refused(policy: string): void {
    this.refusals.inc({ policy });
  }

  storeOperation(port: string, operation: string): OperationRecorder {
    const duration = this.storeDuration.labels(port, operation);
    const errors = this.storeErrors.labels(port, operation);
    return (ms, ok) => {
      duration.observe(ms / 1000);
      if (!ok) errors.inc();
    };
  }
}
