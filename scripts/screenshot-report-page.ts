/**
 * `npm run screenshot:report`: the README's pictures of the `GET /report` page for site owners,
 * taken from the real page in Debian's headless Chromium (`/usr/bin/chromium`, JavaScript
 * disabled like the page needs none). It starts the service in-process on 127.0.0.1 (temp SQLite
 * store, page analysis off, chain RPCs at a closed loopback port), opens `/report` at 800×900 and
 * saves `docs/images/report-page-form.png`; checks the API reference's invented look-alike
 * (`https://metamask-restore-wallet.com/`, `danger`) and saves the verdict with the dispute form
 * as `report-page-verdict.png`; files a dispute and saves the confirmation as
 * `report-page-filed.png`. Requests to any other origin are aborted (there are none).
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import type { Browser } from 'playwright-core';

import { EXAMPLE_URLS } from '../src/api/example-urls.js';
import { systemClock } from '../src/clock.js';
import { loadConfig } from '../src/config/config.js';
import { defaultEngine } from '../src/engine-data/load-engine-data.js';
import { createLogger } from '../src/observability/logger.js';
import { buildApp } from '../src/server/build-app.js';
import { openStore } from '../src/store/open-store.js';
import { launchChromium } from '../test/helpers/headless-chromium.js';
import { freePort } from '../test/helpers/oauth-app.js';
import {
  checkVerdict,
  openReportContext,
  REPORT_PAGE_LABELS,
  sendDispute,
} from '../test/helpers/report-page-browser.js';

const TIMEOUT_MS = 15_000;
const VIEWPORT = { width: 800, height: 900 };

const IMAGES = fileURLToPath(new URL('../docs/images/', import.meta.url));
const FORM_PNG = join(IMAGES, 'report-page-form.png');
const VERDICT_PNG = join(IMAGES, 'report-page-verdict.png');
const FILED_PNG = join(IMAGES, 'report-page-filed.png');

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
    const { page, external } = await openReportContext(browser, base, {
      javaScriptEnabled: false,
      viewport: VIEWPORT,
      timeoutMs: TIMEOUT_MS,
    });
    mkdirSync(IMAGES, { recursive: true });

    // The form with a URL typed in, as a person is about to press the button.
    await page.goto(`${base}/report`);
    await page.getByLabel(REPORT_PAGE_LABELS.url).fill(EXAMPLE_URLS.danger);
    await page.screenshot({ path: FORM_PNG, fullPage: true });
    console.log(`wrote ${FORM_PNG}`);

    const checked = await checkVerdict(page, base, EXAMPLE_URLS.danger);
    if (checked !== 200) throw new Error(`the verdict look-up answered HTTP ${String(checked)}`);
    await page.screenshot({ path: VERDICT_PNG, fullPage: true });
    console.log(`wrote ${VERDICT_PNG}`);

    const filed = await sendDispute(page, {
      kind: 'false_positive',
      comment: 'This is our own wallet support site.',
      contact: 'owner@example.com',
    });
    if (filed !== 200) throw new Error(`filing answered HTTP ${String(filed)}`);
    await page.screenshot({ path: FILED_PNG, fullPage: true });
    console.log(`wrote ${FILED_PNG}`);
    if (external.length > 0) throw new Error(`the page requested ${external.join(', ')}`);
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
