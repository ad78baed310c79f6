/**
 * The API reference at `/docs` in a real headless Chromium (Debian's `/usr/bin/chromium` through
 * playwright-core), served by the service listening on 127.0.0.1: linkguard's logo and title,
 * not the framework's, and not one request leaving the service's own origin.
 */
import { Buffer } from 'node:buffer';

import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { DOCS_TITLE, LOGO_SVG } from '../../src/http/docs-branding.js';
import { openDocsPage } from '../helpers/docs-page.js';
import { launchChromium } from '../helpers/headless-chromium.js';
import { freePort } from '../helpers/oauth-app.js';
import { useTestApp } from '../helpers/test-app.js';

const TIMEOUT_MS = 15_000;

const start = useTestApp();
let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium(TIMEOUT_MS);
}, TIMEOUT_MS);

afterAll(async () => {
  await browser.close();
});

describe('GET /docs in headless Chromium', () => {
  it(
    'shows the linkguard logo and title and requests nothing from another origin',
    { timeout: 30_000 },
    async () => {
      const port = await freePort();
      const base = `http://127.0.0.1:${String(port)}`;
      const { app } = await start({ env: { PUBLIC_BASE_URL: base } });
      await app.listen({ port, host: '127.0.0.1' });
      const view = await openDocsPage(browser, base, { width: 1200, height: 900 }, TIMEOUT_MS);
      try {
        expect(view.title).toBe(DOCS_TITLE);
        // The top bar's image is our SVG, not Swagger's.
        const [header, data] = view.logoSrc.split(',', 2);
        expect(header).toBe('data:image/svg+xml;base64');
        const svg = Buffer.from(data ?? '', 'base64').toString('utf8');
        expect(svg).toBe(LOGO_SVG);
        expect(svg).toContain('<title>linkguard</title>');
        expect(view.apiTitle).toMatch(/^linkguard/);
        // The page loaded its files, the document and the logo from the service alone.
        expect(view.external).toEqual([]);
        expect(view.failed).toEqual([]);
        expect(view.requested.some((url) => url === `${base}/docs/json`)).toBe(true);
        expect(view.requested.some((url) => url.endsWith('/docs/static/theme/linkguard.css'))).toBe(
          true,
        );
        // Swagger's own logo file is never asked for.
        expect(view.requested.some((url) => url.endsWith('/logo.svg'))).toBe(false);
        // The operations of the API are listed, the batch route among them.
        await expect(
          view.page.locator('.opblock-summary-path', { hasText: '/v1/detect/batch' }).count(),
        ).resolves.toBe(1);
      } finally {
        await view.page.context().close();
      }
    },
  );
});
