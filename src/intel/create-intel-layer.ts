/**
 * @module intel/create-intel-layer
 * Assemble layer 2 from the configuration: the feed index over the store, RDAP domain age and
 * Google Web Risk (when a key is set), all outbound requests through one SSRF-safe client.
 * `offline` keeps the local index and makes no network request (`linkguard check --offline`).
 */
import type { Clock } from '../clock.js';
import type { Engine } from '../engine/create-engine.js';
import { createHttpClient, type HttpClient, type ResolveOverride } from '../net/index.js';
import type { DetectionObserver } from '../observability/observer.js';
import type { Store } from '../store/ports/store.js';
import { SERVICE_VERSION } from '../version.js';
import { IntelLayer } from './intel-layer.js';
import { loadRdapBootstrap } from './rdap/rdap-bootstrap.js';
import { createRdapClient } from './rdap/rdap-client.js';
import { timedDomainAge, timedReputation } from './timed-sources.js';
import { createWebRiskClient } from './web-risk/web-risk-client.js';

/** The User-Agent of every outbound request of the service. */
export const OUTBOUND_USER_AGENT = `linkguard/${SERVICE_VERSION} (+threat-intel)`;

/** What layer 2 needs from the configuration. */
export interface IntelLayerOptions {
  /** Fixed name resolution for the outbound client (tests only; see `NET_RESOLVE`). */
  netResolve: readonly ResolveOverride[];
  /** Domain-age lookups over RDAP. */
  rdapEnabled: boolean;
  /** Longest a verdict waits for an RDAP answer, ms. */
  rdapTimeoutMs: number;
  /** Google Web Risk API key, or null for no Web Risk lookups. A secret: never logged. */
  webRiskApiKey: string | null;
  /** Base URL of the Web Risk API. */
  webRiskUrl: string;
}

export interface AssembledIntel {
  layer: IntelLayer;
  /** The outbound client (null offline), also used by the feed refresher. */
  http: HttpClient | null;
  /** Stop polling and close connections. */
  close(): Promise<void>;
}

/**
 * Build layer 2. Call `layer.refresh()` before serving (loads the index from the store).
 *
 * @param deps.observer told the duration of every RDAP and Web Risk lookup (metrics); absent:
 *   the sources are used as they are.
 * @throws when the RDAP data files are missing or invalid (a broken install must not start).
 */
export function createIntelLayer(deps: {
  config: IntelLayerOptions;
  engine: Engine;
  store: Store;
  clock: Clock;
  offline?: boolean;
  onError?: (error: unknown) => void;
  observer?: DetectionObserver | null;
}): AssembledIntel {
  const { config, engine, store, clock } = deps;
  const http =
    deps.offline === true
      ? null
      : createHttpClient({ userAgent: OUTBOUND_USER_AGENT, resolveOverrides: config.netResolve });
  const observer = deps.observer ?? null;
  const rdap =
    http !== null && config.rdapEnabled
      ? createRdapClient({
          http,
          bootstrap: loadRdapBootstrap(),
          clock,
          timeoutMs: config.rdapTimeoutMs,
        })
      : null;
  const domainAge = rdap === null || observer === null ? rdap : timedDomainAge(rdap, observer);
  const reputation =
    http !== null && config.webRiskApiKey !== null
      ? createWebRiskClient({
          http,
          apiKey: config.webRiskApiKey,
          clock,
          baseUrl: config.webRiskUrl,
        })
      : null;
  const webRisk =
    reputation === null || observer === null ? reputation : timedReputation(reputation, observer);
  const layer = new IntelLayer({
    engine,
    store: store.intel,
    domainAge,
    webRisk,
    ...(deps.onError === undefined ? {} : { onError: deps.onError }),
  });
  return {
    layer,
    http,
    close: async () => {
      layer.stopPolling();
      await http?.close();
    },
  };
}
