/**
 * @module cli/commands/serve-command
 * `linkguard serve`: load configuration, open the store, build the engine and the HTTP app, listen,
 * and shut down cleanly on SIGTERM/SIGINT (finish in-flight requests, close the store).
 */
import { systemClock } from '../../clock.js';
import { loadConfig } from '../../config/config.js';
import { defaultEngine } from '../../engine-data/load-engine-data.js';
import { buildApp } from '../../http/app.js';
import { createIntelLayer } from '../../intel/create-intel-layer.js';
import { scheduleFeedRefresh } from '../../intel/feed-refresher.js';
import { createLogger } from '../../observability/logger.js';
import { openStore } from '../../store/open-store.js';

/** How often the server checks the store for changed feeds. */
const INTEL_POLL_MS = 5000;

/** Expired nonces are purged this often. */
const NONCE_PURGE_INTERVAL_MS = 10 * 60 * 1000;
/**
 * Expired nonces are kept this long after expiry, so a late proof is told `nonce_expired`
 * rather than `nonce_unknown`.
 */
const EXPIRED_NONCE_GRACE_MS = 24 * 60 * 60 * 1000;

export async function serveCommand(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  const store = openStore(config.store);
  const started = performance.now();
  const engine = defaultEngine();
  logger.info(
    { brands: engine.brands.brands.length, ms: Math.round(performance.now() - started) },
    'engine ready',
  );

  const intel = createIntelLayer({
    config,
    engine,
    store,
    clock: systemClock,
    onError: (error) => {
      logger.error({ err: error }, 'threat index rebuild failed');
    },
  });
  const app = await buildApp({
    config,
    store,
    engine,
    clock: systemClock,
    logger,
    intel: intel.layer,
  });
  logger.info(
    { feeds: intel.layer.current.feeds.length, entries: intel.layer.current.size },
    'threat index ready',
  );
  // Feeds imported by another process (`linkguard feeds import`) or refreshed below show up here.
  intel.layer.startPolling(INTEL_POLL_MS);
  const stopRefresh =
    intel.http === null || config.feeds.length === 0
      ? () => undefined
      : scheduleFeedRefresh(
          { http: intel.http, store: store.intel, clock: systemClock },
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

  let closing = false;
  const shutdown = (signal: string): void => {
    if (closing) return;
    closing = true;
    logger.info({ signal }, 'shutting down');
    clearInterval(purge);
    stopRefresh();
    app
      .close()
      .then(() => intel.close())
      .then(() => store.close())
      .then(() => process.exit(0))
      .catch((error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      });
  };
  process.once('SIGTERM', () => {
    shutdown('SIGTERM');
  });
  process.once('SIGINT', () => {
    shutdown('SIGINT');
  });

  await app.listen({ port: config.port, host: config.host });
  logger.info(
    { publicBaseUrl: config.publicBaseUrl, store: config.store.kind },
    'linkguard listening',
  );
}
