/**
 * `npx tsx scripts/screenshot-docs-page.ts`: the README's picture of the API reference, taken
 * from the real `/docs` page in Debian's headless Chromium (`/usr/bin/chromium`). It starts the
 * service in-process on 127.0.0.1 (temp SQLite store, page analysis off, chain RPCs at a closed
 * loopback port), opens `/docs` at 1200×900 with the batch operation expanded, and saves
 * `docs/images/api-docs-page.png`. Requests to any other origin are aborted (there are none).
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import type { Browser } from 'playwright-core';

import { systemClock } from '../src/clock.js';
import { loadConfig } from '../src/config/config.js';
import { defaultEngine } from '../src/engine-data/load-engine-data.js';
import { createLogger } from '../src/observability/logger.js';
import { buildApp } from '../src/server/build-app.js';
import { openStore } from '../src/store/open-store.js';
import { openDocsPage } from '../test/helpers/docs-page.js';
import { launchChromium } from '../test/helpers/headless-chromium.js';
import { freePort } from '../test/helpers/oauth-app.js';

const TIMEOUT_MS = 15_000;
const VIEWPORT = { width: 1200, height: 900 };
const IMAGES = fileURLToPath(new URL('../docs/images/', import.meta.url));
const PAGE_PNG = join(IMAGES, 'api-docs-page.png');

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'linkguard-screenshot-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${String(port)}`;
  const config = loadConfig({
    SOLANA_RPC_URL: 'http://127.0.0.1:9',
    BASE_RPC_URL: 'http://127.0.0.1:9',
    PAGE_ANALYSIS: 'off',
    PUBLIC_BASE_URL: base,
    DATABASE_URL: `sqlite:${join(dir, 'lg.db')}`,
  });
  const store = await openStore(config.store);
  const app = await buildApp({
    config,
    store,
    engine: defaultEngine(),
    clock: systemClock,
    logger: createLogger('warn'),
  });
  let browser: Browser | undefined;
  try {
    await app.listen({ port, host: '127.0.0.1' });
    browser = await launchChromium(TIMEOUT_MS);
    const view = await openDocsPage(browser, base, VIEWPORT, TIMEOUT_MS);
    if (view.external.length > 0) throw new Error(`external requests: ${view.external.join(', ')}`);
    await view.page.locator('.opblock-summary-path', { hasText: '/v1/detect/batch' }).click();
    await view.page.locator('.opblock.is-open .responses-wrapper').first().waitFor();
    mkdirSync(IMAGES, { recursive: true });
    await view.page.screenshot({ path: PAGE_PNG });
    console.log(`wrote ${PAGE_PNG}`);
  } finally {
    try {
      await browser?.close();
    } finally {
      await app.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }
}

await main();
