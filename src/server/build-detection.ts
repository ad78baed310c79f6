/**
 * @module server/build-detection
 * The one way to build the detection pipeline — layer 2 (threat intelligence), layer 3 (page
 * analysis) and the detection service over a given store and engine — for every process that
 * judges URLs: the server (`startServer()`, `buildApp()`), `linkguard check`, the page eval
 * (`linkguard eval --pages`, `npm run eval`) and the benchmarks. What differs between them is an
 * option here, not a second assembly.
 */
import type { Clock } from '../clock.js';
import type { Engine } from '../engine/create-engine.js';
import { engineDataDigest } from '../engine-data/load-engine-data.js';
import type { IntelLayerOptions } from '../intel/create-intel-layer.js';
import { type AssembledIntel, createIntelLayer } from '../intel/create-intel-layer.js';
import { IntelLayer } from '../intel/intel-layer.js';
import type { HttpClient } from '../net/index.js';
import type { DetectionObserver } from '../observability/observer.js';
import { createPageLayer, type PageLayer, type PageLayerOptions } from '../page/page-layer.js';
import { OutageNotice, type Redis } from '../redis/redis-client.js';
import { DetectionService, type VerdictTtlConfig } from '../service/detection-service.js';
import { ReportService } from '../service/report-service.js';
import { cacheGeneration, SharedVerdictCache } from '../service/shared-verdict-cache.js';
import type { Store } from '../store/ports/store.js';
import { SERVICE_VERSION } from '../version.js';

/** What the pipeline reads from the configuration (`Config` has all of it). */
export type DetectionConfig = IntelLayerOptions &
  PageLayerOptions & {
    verdictTtl: VerdictTtlConfig;
  };

/**
 * Which layer 2 to run:
 * - `configured`: the feed index plus RDAP domain age and Web Risk as the configuration says,
 *   with one outbound client (the server, `linkguard check`);
 * - `local`: the feed index in the store only, no network request (`check --offline`, tests);
 * - an `IntelLayer` the caller built and closes;
 * - null: none (the page eval; verdicts say layer 2 did not run).
 */
export type IntelChoice = 'configured' | 'local' | IntelLayer | null;

/** Inputs of {@link buildDetection}. */
export interface DetectionDeps {
  config: DetectionConfig;
  store: Store;
  engine: Engine;
  clock: Clock;
  intel: IntelChoice;
  /**
   * Layer 3. Absent: built from `config.page` (none when it is disabled) and closed by
   * `close()`; null: no page analysis; a given layer is the caller's to close.
   */
  page?: PageLayer | null;
  /** How a layer that does not run is reported (`offline`: `check --offline`). */
  absentLayers?: 'unavailable' | 'offline';
  /** Verdicts kept in the service's cache; 0 disables it (the page eval). */
  cacheSize?: number;
  /** Told when a background rebuild of the feed index fails (the old index stays). */
  onIntelError?: (error: unknown) => void;
  /** Told when an analyzer throws on a page or the LLM judge fails (never given the page). */
  onPageError?: (error: unknown) => void;
  /**
   * Told about served verdicts, verdict-cache lookups and layer durations (the metrics; passed
   * only when METRICS_TOKEN is set, docs/decisions.md, decision 150). Absent: nothing recorded.
   */
  observer?: DetectionObserver | null;
  /**
   * Redis shared by the instances (REDIS_URL): the second level of the verdict cache lives there
   * (docs/decisions.md, decision 117). Absent: verdicts are cached in process only. Verdicts are
   * shared under a generation that includes the digest of the package's data directory, so
   * `engine` must be built from it (`defaultEngine()`). The client is the caller's to close.
   */
  redis?: {
    client: Redis;
    keyPrefix: string;
    /** Told on the first failure of an outage (`down`) and on the first success after (`up`). */
    onOutage: (event: 'down' | 'up', error?: unknown) => void;
  };
}

/** A built pipeline. */
export interface DetectionPipeline {
  service: DetectionService;
  /** Reports from users, judged by `service` (every door files through it). */
  reports: ReportService;
  /** Layer 2, or null. Its index is loaded; polling is the caller's choice (`startPolling`). */
  intel: IntelLayer | null;
  /** The outbound client of layer 2 (the feed refresher uses it); null without network. */
  intelHttp: HttpClient | null;
  /** Layer 3, or null. */
  page: PageLayer | null;
  /** Close what this builder built (layer 2's polling and connections, layer 3); not the store. */
  close(): Promise<void>;
}

/**
 * Build layers 2 and 3 and the detection service, and load layer 2's feed index from the store.
 * A swap of the feed index clears the service's verdict cache (and moves the shared one to a
 * new generation).
 *
 * @throws when the RDAP data files are missing or invalid (`configured` only), or the store
 *   cannot be read.
 */
export async function buildDetection(deps: DetectionDeps): Promise<DetectionPipeline> {
  const { config, store, engine, clock } = deps;
  const assembled: AssembledIntel | null =
    deps.intel === 'configured' || deps.intel === 'local'
      ? createIntelLayer({
          config,
          engine,
          store,
          clock,
          offline: deps.intel === 'local',
          ...(deps.onIntelError === undefined ? {} : { onError: deps.onIntelError }),
          observer: deps.observer ?? null,
        })
      : null;
  const intel = assembled?.layer ?? (deps.intel instanceof IntelLayer ? deps.intel : null);
  const page = deps.page === undefined ? createPageLayer(config) : deps.page;
  const close = async (): Promise<void> => {
    if (deps.page === undefined) await page?.close();
    await assembled?.close();
  };
  try {
    await intel?.refresh();
  } catch (error) {
    await close();
    throw error;
  }
  const generation = (): string =>
    cacheGeneration({
      serviceVersion: SERVICE_VERSION,
      engineData: engineDataDigest(),
      threatIndex: intel?.fingerprint ?? 'none',
      layers: {
        intel: intel !== null,
        rdap: intel?.hasDomainAge ?? false,
        webRisk: config.webRiskApiKey !== null,
        page: page !== null,
        llm: config.llm?.model ?? null,
      },
    });
  const sharedCache =
    deps.redis === undefined
      ? null
      : new SharedVerdictCache({
          client: deps.redis.client,
          keyPrefix: deps.redis.keyPrefix,
          generation: generation(),
          outage: new OutageNotice(deps.redis.onOutage),
        });
  const service = new DetectionService(engine, store, clock, intel, {
    page,
    verdictTtl: config.verdictTtl,
    sharedCache,
    observer: deps.observer ?? null,
    ...(deps.absentLayers === undefined ? {} : { absentLayers: deps.absentLayers }),
    ...(deps.cacheSize === undefined ? {} : { cacheSize: deps.cacheSize }),
    ...(deps.onPageError === undefined ? {} : { onPageError: deps.onPageError }),
  });
  intel?.onSwap(() => {
    service.clearCache();
    // Verdicts of the new index go under a new generation: the old ones are never read again.
    sharedCache?.setGeneration(generation());
  });
  const reports = new ReportService(service, store, clock, () => ({
    engineVersion: SERVICE_VERSION,
    dataVersion: engineDataDigest(),
  }));
  return { service, reports, intel, intelHttp: assembled?.http ?? null, page, close };
}
