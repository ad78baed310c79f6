/**
 * @module server/start-server
 * Start a serving process from its configuration: open the store, build the engine and the
 * detection pipeline with every configured layer (`buildDetection()`), build the app (`buildApp()`), start the background work (feed refresh, index polling, nonce
 * purge), and listen when asked. `close()` stops all of it in order: requests in flight finish, then
 * layers 2 and 3, then the store. Signal handling stays with the caller
 * (`linkguard serve`).
 */
import type { Logger } from 'pino';

import { systemClock } from '../clock.js';
import type { Config } from '../config/config.js';
import { defaultEngine } from '../engine-data/load-engine-data.js';
import { scheduleFeedRefresh } from '../intel/feed-refresher.js';
import { openStore } from '../store/open-store.js';
import { buildApp } from './build-app.js';
import { buildDetection } from './build-detection.js';

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
  /** Stop background work, close the app (in-flight requests finish), layers 2–3 and the store. */
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
  const store = await openStore(config.store);
  const started = performance.now();
  const engine = defaultEngine();
  logger.info(
    { brands: engine.brands.brands.length, ms: Math.round(performance.now() - started) },
    'engine ready',
  );

  const detection = await buildDetection({
    config,
    store,
    engine,
    clock: systemClock,
    intel: 'configured',
    onIntelError: (error) => {
      logger.error({ err: error }, 'threat index rebuild failed');
    },
    // The error only: never the page or its URL (README, "Limitations and security considerations").
    onPageError: (error) => {
      logger.error({ err: error }, 'page analysis step failed (analyzer or LLM judge)');
    },
  });
  const intel = detection.intel;
  const app = await buildApp({ config, store, engine, clock: systemClock, logger, detection });
  logger.info(
    { feeds: intel?.current.feeds.length ?? 0, entries: intel?.current.size ?? 0 },
    'threat index ready',
  );
  // Feeds imported by another process (`linkguard feeds import`) or refreshed below show up here.
  intel?.startPolling(INTEL_POLL_MS);
  const stopRefresh =
    detection.intelHttp === null || config.feeds.length === 0
      ? () => undefined
      : scheduleFeedRefresh(
          { http: detection.intelHttp, store: store.intel, clock: systemClock },
          config.feeds.map((feed) => ({
            name: feed.name,
            format: feed.format,
            url: feed.url,
            threat: null,
          })),
          config.feedsRefreshMinutes * 60_000,
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
      await store.close();
    },
  };
}
