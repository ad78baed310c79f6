/**
 * A detection service with all three layers for the layer-3 tests, built like the server's
 * (`buildDetection()`): a temp SQLite store, the
 * feed index over it (no RDAP, no Web Risk: tests stay on loopback), and a page layer built from
 * the real configuration (`loadConfig`) whose client reaches the fixture server through
 * `NET_RESOLVE`, or resolves names with an injected resolver.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { type Config, loadConfig } from '../../src/config/config.js';
import { defaultEngine } from '../../src/engine-data/load-engine-data.js';
import type { IntelLayer } from '../../src/intel/intel-layer.js';
import type { LookupFunction } from '../../src/net/index.js';
import type { DetectionObserver } from '../../src/observability/observer.js';
import { createPageLayer, type PageLayer } from '../../src/page/page-layer.js';
import { buildDetection } from '../../src/server/build-detection.js';
import type { DetectionService } from '../../src/service/detection-service.js';
import type { Store } from '../../src/store/ports/store.js';
import { openSqliteStore } from '../../src/store/sqlite/open-sqlite-store.js';
import { type TestClock, testClock } from './test-app.js';

export interface PageServiceHarness {
  service: DetectionService;
  store: Store;
  intel: IntelLayer;
  page: PageLayer;
  config: Config;
  clock: TestClock;
  /** Judge a raw URL (validated like the HTTP layer does). */
  verdictOf(url: string): ReturnType<DetectionService['judge']>;
  close(): Promise<void>;
}

/**
 * @param env configuration on top of `PAGE_ANALYSIS=on`.
 * @param options.lookup resolver for the page client (fake DNS for SSRF tests);
 *   `onPageError` is told when an analyzer throws; `observer` is told what the metrics count.
 */
export async function pageService(
  env: Record<string, string>,
  options: {
    lookup?: LookupFunction;
    onPageError?: (error: unknown) => void;
    observer?: DetectionObserver;
  } = {},
): Promise<PageServiceHarness> {
  const dir = mkdtempSync(join(tmpdir(), 'linkguard-page-'));
  const config = loadConfig({
    DATABASE_URL: `sqlite:${join(dir, 'lg.db')}`,
    RDAP_ENABLED: 'false',
    PAGE_ANALYSIS: 'on',
    ...env,
  });
  const store = openSqliteStore(join(dir, 'lg.db'));
  const engine = defaultEngine();
  // A given page layer (the injected resolver) is closed below; the rest by `detection.close()`.
  const page = createPageLayer(
    config,
    options.lookup === undefined ? {} : { lookup: options.lookup },
  );
  if (page === null) throw new Error('page layer is off');
  const clock = testClock();
  const detection = await buildDetection({
    config,
    store,
    engine,
    clock,
    intel: 'local',
    page,
    ...(options.onPageError === undefined ? {} : { onPageError: options.onPageError }),
    ...(options.observer === undefined ? {} : { observer: options.observer }),
  });
  const { service } = detection;
  const intel = detection.intel;
  if (intel === null) throw new Error('no intel layer');
  return {
    service,
    store,
    intel,
    page,
    config,
    clock,
    verdictOf: (url) => service.judge(service.parse(url)),
    close: async () => {
      await page.close();
      await detection.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
