/**
 * @module server/start-server
 * Start a serving process from its configuration: open the store, connect to Redis when
 * REDIS_URL is set, build the engine and the detection pipeline with every configured layer
 * (`buildDetection()`), build the app (`buildApp()`), start the background work (feed refresh,
 * index polling, nonce purge), and listen when asked. `close()` stops all of it in order:
 * requests in flight finish, then layers 2 and 3, then Redis, then the store. Signal handling
 * stays with the caller (`linkguard serve`).
 */
import type { Logger } from 'pino';

import { systemClock } from '../clock.js';
import type { Config } from '../config/config.js';
import { defaultEngine } from '../engine-data/load-engine-data.js';
import { feedCatalog } from '../intel/feed-catalog.js';
import { feedsToRefresh } from '../intel/feed-refresh-plan.js';
import { scheduleFeedRefresh } from '../intel/feed-refresher.js';
import { ServiceMetrics } from '../observability/metrics.js';
import { clientOrigin, createRedisClient, waitUntilReady } from '../redis/redis-client.js';
import { openStore } from '../store/open-store.js';
import { timedStore } from '../store/timed-store.js';
import { buildApp, sharedCacheOutageLog } from './build-app.js';
import { buildDetection } from './build-detection.js';

/**
 * How long start-up waits for Redis before serving without it (ms): the instance then serves on
 * its in-process limits and cache, logs that once, and switches to Redis when it connects.
 */
const REDIS_START_WAIT_MS = 5000;

/** How often the server checks the store for changed feeds. */
const INTEL_POLL_MS = 5000;

/** Expired nonces are purged this often. */
const NONCE_PURGE_INTERVAL_MS = 10 * 60 * 1000;
/**
 * Expired nonces are kept this long after expiry, so a late proof is told `nonce_expired`
 * rather than `nonce_unknown`.
 */
const EXPIRED_NONCE_GRACE_MS = 24 * 60 * 60 * 1000;

/** A built server: listen when the caller is ready, close once. */
export interface ServerProcess {
  /** Listen on `config.host:config.port`. */
  listen(): Promise<void>;
  /**
   * Stop background work, close the app (in-flight requests finish), layers 2–3, the Redis
   * connection and the store.
   */
  close(): Promise<void>;
}

/**
 * Build everything a serving process needs and start its background work; `listen()` then opens
 * the port (the caller installs its signal handlers in between).
 *
 * @param config the loaded configuration.
 * @param logger the process logger (never given URLs, keys or proofs).
 * @throws when the store cannot be opened or the engine or RDAP data are invalid; `listen()`
 *   throws when the port cannot be bound.
 */
export async function startServer(config: Config, logger: Logger): Promise<ServerProcess> {
  const opened = await openStore(config.store, {
    // Host and port at most: pg's connection errors never carry the password.
    onIdleError: (error) => {
      logger.warn({ err: error }, 'idle database connection failed');
    },
  });
  // The metrics are built here, before the pipeline that records into them, and only when
  // someone may read them (docs/decisions.md, decision 150); the store is timed once, here.
  const metrics = config.metricsToken === null ? null : new ServiceMetrics();
  const store = metrics === null ? opened : timedStore(opened, metrics);
  const started = performance.now();
  const engine = defaultEngine();
  logger.info(
    { brands: engine.brands.brands.length, ms: Math.round(performance.now() - started) },
    'engine ready',
  );

  const redis = config.redisUrl === null ? null : createRedisClient(config.redisUrl);
  if (redis !== null) {
    const ready = await waitUntilReady(redis, REDIS_START_WAIT_MS);
    // The origin only: REDIS_URL may carry a password.
    if (ready) logger.info({ redis: clientOrigin(redis) }, 'Redis connected');
    else logger.warn({ redis: clientOrigin(redis) }, 'Redis not reachable yet; retrying');
  }
  const built = async () => {
    const detection = await buildDetection({
      config,
      store,
      engine,
      clock: systemClock,
      intel: 'configured',
      observer: metrics,
      onIntelError: (error) => {
        logger.error({ err: error }, 'threat index rebuild failed');
      },
      // The error only: never the page or its URL (README, "Limitations and security considerations").
      onPageError: (error) => {
        logger.error({ err: error }, 'page analysis step failed (analyzer or LLM judge)');
      },
      ...(redis === null
        ? {}
        : {
            redis: {
              client: redis,
              keyPrefix: config.redisKeyPrefix,
              onOutage: sharedCacheOutageLog(logger, clientOrigin(redis)),
            },
          }),
    });
    const app = await buildApp({
      config,
      store,
      engine,
      clock: systemClock,
      logger,
      detection,
      ...(metrics === null ? {} : { metrics }),
      ...(redis === null ? {} : { redis: { client: redis, keyPrefix: config.redisKeyPrefix } }),
    }).catch(async (error: unknown) => {
      await detection.close();
      throw error;
    });
    return { detection, app };
  };
  const { detection, app } = await built().catch((error: unknown) => {
    // Without this the client would keep reconnecting and hold the failed process open.
    redis?.disconnect();
    throw error;
  });
  const intel = detection.intel;
  logger.info(
    { feeds: intel?.current.feeds.length ?? 0, entries: intel?.current.size ?? 0 },
    'threat index ready',
  );
  // Feeds imported by another process (`linkguard feeds import`) or refreshed below show up here.
  intel?.startPolling(INTEL_POLL_MS);
  // Feeds with a URL: FEEDS and the catalog feeds registered in the store (`feeds add`), read
  // again every tick so a feed added while the server runs is picked up without a restart.
  const catalog = feedCatalog();
  const stopRefresh =
    detection.intelHttp === null
      ? () => undefined
      : scheduleFeedRefresh(
          { http: detection.intelHttp, store: store.intel, clock: systemClock },
          async () =>
            feedsToRefresh({
              configured: config.feeds,
              stored: await store.intel.listFeeds(),
              catalog,
              keys: config.feedKeys,
            }),
          {
            intervalMs: config.feedsRefreshMinutes * 60_000,
            onError: (error) => {
              logger.warn({ err: error }, 'feed refresh could not list the feeds');
            },
          },
          (feed, outcome) => {
            // Feed names and outcomes only: feed URLs may carry access tokens.
            if (outcome.status === 'failed') {
              logger.warn({ feed: feed.name, error: outcome.error }, 'feed refresh failed');
            } else {
              logger.info({ feed: feed.name, outcome: outcome.status }, 'feed refreshed');
            }
          },
        );
  const purge = setInterval(() => {
    store.payments
      .purgeExpiredNonces(systemClock.now() - EXPIRED_NONCE_GRACE_MS)
      .catch((error: unknown) => {
        logger.error({ err: error }, 'nonce purge failed');
      });
  }, NONCE_PURGE_INTERVAL_MS);
  purge.unref();

  return {
    listen: async () => {
      await app.listen({ port: config.port, host: config.host });
      logger.info(
        { publicBaseUrl: config.publicBaseUrl, store: config.store.kind },
        'linkguard listening',
      );
    },
    close: async () => {
      clearInterval(purge);
      stopRefresh();
      await app.close();
      await detection.close();
      // QUIT lets pending replies arrive; a Redis that is down is simply disconnected.
      if (redis !== null) {
        await redis.quit().catch(() => {
          redis.disconnect();
        });
      }
      await store.close();
    },
  };
}
