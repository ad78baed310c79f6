/**
 * `npm run screenshot:oauth`: the README's pictures of the OAuth sign-in page, taken from the real
 * page in Debian's headless Chromium (`/usr/bin/chromium`, JavaScript disabled like the page
 * needs none). It starts the service in-process on 127.0.0.1 (temp SQLite store, page analysis
 * off, chain RPCs at a closed loopback port), registers a client named "Claude" with Claude's
 * redirect URI, opens the authorization page at 800×900 and saves
 * `docs/images/oauth-authorize-page.png`; then it submits a wrong credential and saves the
 * re-rendered page with its error as `docs/images/oauth-authorize-page-error.png`. Nothing is
 * approved, so the browser never leaves loopback (other requests are aborted).
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
import { launchChromium } from '../test/helpers/headless-chromium.js';
import { freePort } from '../test/helpers/oauth-app.js';
import { newAuthorizationRequest, registerPublicClient } from '../test/helpers/oauth-request.js';

const TIMEOUT_MS = 15_000;
const VIEWPORT = { width: 800, height: 900 };

const CLIENT_NAME = 'Claude';
const REDIRECT_URI = 'https://claude.ai/api/mcp/auth_callback';
const WRONG_CREDENTIAL = 'lic_thisIsNotARealLicense0000000000000000000';

const IMAGES = fileURLToPath(new URL('../docs/images/', import.meta.url));
const PAGE_PNG = join(IMAGES, 'oauth-authorize-page.png');
const ERROR_PNG = join(IMAGES, 'oauth-authorize-page-error.png');

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
    // Register the client over HTTP and build its authorization URL (PKCE S256, state, resource).
    const clientId = await registerPublicClient(base, REDIRECT_URI, CLIENT_NAME);
    const authorization = newAuthorizationRequest(base, `${base}/mcp`, clientId, REDIRECT_URI);

    browser = await launchChromium(TIMEOUT_MS);
    const context = await browser.newContext({ viewport: VIEWPORT, javaScriptEnabled: false });
    context.setDefaultTimeout(TIMEOUT_MS);
    // Only the service on loopback may be reached.
    await context.route('**/*', async (route) => {
      const url = new URL(route.request().url());
      await (url.origin === base ? route.continue() : route.abort('blockedbyclient'));
    });
    const page = await context.newPage();

    const opened = await page.goto(authorization.url);
    if (opened?.status() !== 200) {
      throw new Error(`the authorization page answered HTTP ${String(opened?.status())}`);
    }
    mkdirSync(IMAGES, { recursive: true });
    await page.screenshot({ path: PAGE_PNG, fullPage: true });
    console.log(`wrote ${PAGE_PNG}`);

    await page.getByLabel('Premium license or enterprise key').fill(WRONG_CREDENTIAL);
    await page.getByRole('button', { name: 'Connect' }).click();
    await page.getByRole('alert').waitFor({ state: 'visible' });
    await page.screenshot({ path: ERROR_PNG, fullPage: true });
    console.log(`wrote ${ERROR_PNG}`);
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
