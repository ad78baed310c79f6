/**
 * @module server/build-app
 * The composition root of a serving process: `buildApp()` builds the rate limits (in process, or
 * over the given Redis client with in-process insurance), the detection pipeline
 * (`buildDetection()`: layers 2 and 3 and the detection service, with the Redis level of its
 * verdict cache when a client is given, unless given) and the
 * payment gate, and registers the three doors side
 * by side on one Fastify instance — the HTTP API (`http/`: detect, reports, status, OpenAPI), the MCP
 * connector (`mcp/`) and its OAuth authorization server (`oauth/`) — with request ids, CORS and
 * error mapping. It never listens: `startServer()` (`server/start-server.ts`) does, tests use
 * `inject()`.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';

import cors from '@fastify/cors';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyBaseLogger } from 'fastify';

import type { Clock } from '../clock.js';
import type { Config, TrustProxy } from '../config/config.js';
import type { Engine } from '../engine/create-engine.js';
import { toErrorResponse } from '../http/error-body.js';
import { registerDetectBatchRoute } from '../http/routes/detect-batch-route.js';
import { registerDetectRoute } from '../http/routes/detect-route.js';
import { registerMetricsRoute } from '../http/routes/metrics-route.js';
import { registerOpenApi } from '../http/routes/openapi-routes.js';
import { registerReportsRoute } from '../http/routes/reports-route.js';
import { registerStatusRoutes } from '../http/routes/status-route.js';
import type { IntelLayer } from '../intel/intel-layer.js';
import { registerMcpRoutes } from '../mcp/mcp-route.js';
import { registerOAuthRoutes } from '../oauth/oauth-routes.js';
import { type FeedFreshness, ServiceMetrics } from '../observability/metrics.js';
import type { PageLayer } from '../page/page-layer.js';
import type { ExactSchemePair } from '../payments/exact/exact-facilitator.js';
import { createSvmExactFacilitatorSchemes } from '../payments/exact/svm-exact-facilitator.js';
import type { PaymentConfig } from '../payments/payment-config.js';
import { PaymentGate } from '../payments/payment-gate.js';
import { RateLimits } from '../ratelimit/rate-limits.js';
import { clientOrigin, type Redis, redisErrorMessage } from '../redis/redis-client.js';
import type { Store } from '../store/ports/store.js';
import { timedStore } from '../store/timed-store.js';
import { buildDetection, type DetectionPipeline } from './build-detection.js';
import { httpTimeoutOptions } from './http-timeouts.js';

/** Everything the app needs; built by `startServer()` or a test. */
export interface AppDeps {
  config: Config;
  store: Store;
  engine: Engine;
  clock: Clock;
  logger: FastifyBaseLogger;
  /**
   * The detection pipeline (layers 2–3 and the service), built by `buildDetection()`; the caller
   * closes it (`startServer()`). Absent: built here from `intel` and `page` and closed with the
   * app.
   */
  detection?: DetectionPipeline;
  /**
   * Layer 2 when `detection` is absent. Absent: an intel layer over the store's feeds without
   * RDAP or Web Risk, loaded once (no polling) — what tests and tools need.
   */
  intel?: IntelLayer;
  /**
   * Layer 3 when `detection` is absent. Absent: built from `config.page` (none when
   * PAGE_ANALYSIS=off) and closed with the app; null: no page analysis. A given layer is the
   * caller's to close.
   */
  page?: PageLayer | null;
  /**
   * Redis shared by the instances (REDIS_URL): rate-limit counters and the second level of the
   * verdict cache live there (docs/decisions.md, decisions 116–117). Absent: both stay in
   * process, as in the embedded deployment. The client is the caller's to close. Verdicts are
   * shared under a generation that includes the digest of the package's data directory, so
   * `engine` must be built from it (`defaultEngine()`).
   */
  redis?: { client: Redis; /** Prefix of every key (default `linkguard:`). */ keyPrefix?: string };
  /**
   * The metrics of the process, used only when METRICS_TOKEN is set: `startServer()` builds them
   * before the pipeline (which records into them too) and passes the store already timed
   * (`timedStore()`). Absent: built here, and the store is timed here.
   */
  metrics?: ServiceMetrics;
}

/** Prefix of the Redis keys of a deployment, unless told otherwise. */
export const DEFAULT_REDIS_KEY_PREFIX = 'linkguard:';

/**
 * The log lines of the shared verdict cache's outages: once when Redis fails, once when it
 * answers again. The origin only: REDIS_URL may carry a password.
 */
export function sharedCacheOutageLog(
  logger: FastifyBaseLogger,
  origin: string,
): (event: 'down' | 'up', error?: unknown) => void {
  return (event, error) => {
    if (event === 'down') {
      logger.warn(
        { redis: origin, reason: redisErrorMessage(error) },
        'shared verdict cache unavailable (Redis): verdicts are cached per instance',
      );
    } else {
      logger.info({ redis: origin }, 'shared verdict cache available again (Redis)');
    }
  };
}

/** Largest accepted body: a 2048-character URL in JSON fits many times over. */
const BODY_LIMIT_BYTES = 16 * 1024;

/** An incoming `X-Request-Id` is kept only if it is short and plain (it ends up in logs). */
const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{8,64}$/;

/**
 * Build the HTTP application.
 *
 * @param deps configuration, store, engine, clock and logger.
 * @returns a ready-to-use Fastify instance (call `listen()` or `inject()`).
 */
export async function buildApp(deps: AppDeps) {
  const app = Fastify<Server, IncomingMessage, ServerResponse>({
    loggerInstance: deps.logger,
    bodyLimit: BODY_LIMIT_BYTES,
    // Slow clients are answered 408 and disconnected at the configured bounds (issue 14).
    ...httpTimeoutOptions(deps.config.httpTimeouts),
    trustProxy: trustProxyOption(deps.config.trustProxy),
    genReqId: (req) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && SAFE_REQUEST_ID.test(incoming)
        ? incoming
        : randomUUID();
    },
    // Unknown body fields must be rejected, not silently dropped (Fastify's default Ajv options drop them).
    ajv: { customOptions: { removeAdditional: false, coerceTypes: false } },
    return503OnClosing: true,
  }).withTypeProvider<TypeBoxTypeProvider>();

  // CORS for browser-based clients (MCP web clients, in-browser wallets): any origin, since every
  // credential travels in a header and nothing rides on cookies. Preflights are answered before
  // authentication; the headers clients must read are exposed (docs/decisions.md, decision 75).
  await app.register(cors, {
    origin: '*',
    methods: ['GET', 'POST', 'DELETE', 'OPTIONS'],
    allowedHeaders: [
      'authorization',
      'content-type',
      'accept',
      'mcp-protocol-version',
      'mcp-session-id',
      'last-event-id',
      'x-payment',
      'payment-signature',
      'x-402-chain',
      'x-402-signature',
      'x-402-nonce',
      'x-402-wallet-sig',
      'x-request-id',
    ],
    exposedHeaders: [
      'www-authenticate',
      'x-payment-response',
      'payment-required',
      'payment-response',
      'ratelimit-limit',
      'ratelimit-remaining',
      'ratelimit-reset',
      'ratelimit-policy',
      'ratelimit',
      'retry-after',
      'x-request-id',
    ],
    maxAge: 600,
    // Every OPTIONS is answered as a preflight (204 with the CORS headers): the strict default
    // answers an OPTIONS without Origin or Access-Control-Request-Method with a plain-text 400
    // that carries no documented error code (docs/decisions.md, decision 144).
    strictPreflight: false,
  });

  // Fastify parses text/plain by default; the API takes JSON only (415 otherwise).
  app.removeContentTypeParser('text/plain');

  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    reply.header('x-content-type-options', 'nosniff');
    done();
  });

  // Metrics are recorded only when someone may read them: nothing is added to a request's path
  // otherwise (docs/decisions.md, decision 150).
  const { metricsToken } = deps.config;
  const scrape =
    metricsToken === null
      ? null
      : { token: metricsToken, metrics: deps.metrics ?? new ServiceMetrics() };
  const metrics = scrape?.metrics ?? null;
  // Whoever builds the metrics times the store (once): here, unless `startServer()` did.
  const store =
    metrics === null || deps.metrics !== undefined ? deps.store : timedStore(deps.store, metrics);
  if (scrape !== null) {
    app.addHook('onResponse', (request, reply, done) => {
      // The route template, never the path: no URL or token reaches a label.
      scrape.metrics.observeRequest(
        request.method,
        request.routeOptions.url,
        reply.statusCode,
        reply.elapsedTime,
      );
      done();
    });
  }

  app.setErrorHandler(async (error, request, reply) => {
    const { response, unexpected } = toErrorResponse(error, request.body);
    if (unexpected) request.log.error({ err: error }, 'request failed');
    return reply.code(response.status).headers(response.headers).send(response.body);
  });
  app.setNotFoundHandler(async (_request, reply) =>
    reply.code(404).send({ status: 404, error: 'not_found', message: 'No such endpoint' }),
  );

  const redis =
    deps.redis === undefined
      ? null
      : {
          client: deps.redis.client,
          keyPrefix: deps.redis.keyPrefix ?? DEFAULT_REDIS_KEY_PREFIX,
          // Host and port only: the URL may carry a password.
          origin: clientOrigin(deps.redis.client),
        };
  const limits = new RateLimits(
    deps.config.publicRateLimitPerMinute,
    deps.config.keyRateLimitPerMinute,
    redis === null
      ? { observer: metrics }
      : {
          observer: metrics,
          redis: {
            client: redis.client,
            keyPrefix: redis.keyPrefix,
            onFallback: (event) => {
              if (event === 'down') {
                deps.logger.warn(
                  { redis: redis.origin },
                  'Redis unreachable: rate limits fall back to in-process limits (per instance)',
                );
              } else {
                deps.logger.info(
                  { redis: redis.origin },
                  'Redis reachable: rate limits shared again',
                );
              }
            },
          },
        },
  );
  const detection =
    deps.detection ??
    (await buildDetection({
      config: deps.config,
      store,
      observer: metrics,
      engine: deps.engine,
      clock: deps.clock,
      intel: deps.intel ?? 'local',
      ...(deps.page === undefined ? {} : { page: deps.page }),
      // The error only: never the page or its URL (README, "Limitations and security considerations").
      onPageError: (error) => {
        deps.logger.error({ err: error }, 'page analysis step failed (analyzer or LLM judge)');
      },
      ...(redis === null
        ? {}
        : {
            redis: {
              client: redis.client,
              keyPrefix: redis.keyPrefix,
              onOutage: sharedCacheOutageLog(deps.logger, redis.origin),
            },
          }),
    }));
  if (deps.detection === undefined) {
    app.addHook('onClose', async () => {
      await detection.close();
    });
  }
  const { service } = detection;
  metrics?.watchFeeds({
    feeds: async (): Promise<FeedFreshness[]> => {
      const newest = detection.intel?.newestEntries;
      return (await store.intel.listFeeds()).map((feed) => ({
        feed: feed.name,
        importedAt: feed.importedAt,
        newestEntryAt: newest?.get(feed.id) ?? null,
      }));
    },
    now: () => deps.clock.now(),
  });

  await registerOpenApi(app, deps.config);
  const payments = new PaymentGate({
    config: deps.config.payments,
    store: store.payments,
    clock: deps.clock,
    resource: `${deps.config.publicBaseUrl}/v1/detect`,
    observer: metrics,
    // Standard `exact` scheme pairs beyond Base's, registered with the local facilitator
    // (docs/decisions.md, decision 152): Solana's, settled by the SOLANA_FEE_PAYER_KEYPAIR.
    exactSchemes: await solanaExactSchemes(deps.config.payments),
  });
  registerDetectRoute(app, { ...deps, store, limits, service, payments });
  registerDetectBatchRoute(app, { ...deps, store, limits, service });
  registerReportsRoute(app, {
    store,
    clock: deps.clock,
    limits,
    reports: detection.reports,
    publicBaseUrl: deps.config.publicBaseUrl,
  });
  registerStatusRoutes(app, { ...deps, store, payments });
  if (scrape !== null) registerMetricsRoute(app, { ...scrape, limits });
  registerMcpRoutes(app, {
    service,
    reports: detection.reports,
    engine: deps.engine,
    store,
    clock: deps.clock,
    limits,
    publicBaseUrl: deps.config.publicBaseUrl,
  });
  await registerOAuthRoutes(app, {
    store,
    clock: deps.clock,
    publicBaseUrl: deps.config.publicBaseUrl,
    limits,
  });
  return app;
}

/** Fastify's typings take a hop count as a function: trust the first `n` hops. */
function trustProxyOption(
  value: TrustProxy,
): boolean | string[] | ((address: string, hop: number) => boolean) {
  return typeof value === 'number' ? (_address, hop) => hop < value : value;
}

/**
 * The Solana `exact` scheme pair the payment gate's local facilitator registers: built when
 * Solana is offered (SOLANA_RECIPIENT) and the service settles it itself as fee payer
 * (SOLANA_FEE_PAYER_KEYPAIR); none otherwise (README, "Standard x402 clients").
 * @param payments the payment settings of the configuration
 * @returns zero or one scheme pair
 */
async function solanaExactSchemes(payments: PaymentConfig): Promise<ExactSchemePair[]> {
  const keypair = payments.solanaFeePayerKeypair;
  if (keypair === null || payments.solanaRecipient === null) return [];
  return [
    await createSvmExactFacilitatorSchemes({
      feePayerKeypair: keypair.keypairBytes(),
      rpcUrl: payments.solanaRpcUrl,
      rpcTimeoutMs: payments.chainRpcTimeoutMs,
      commitment: payments.solanaCommitment,
    }),
  ];
}
