/**
 * The authorization page in a real browser: Debian's headless Chromium, driven by playwright-core
 * with JavaScript disabled, signs in the way a person does. It proves that the page works without
 * scripts (it names the client and where the browser will return, the CSRF cookie round-trips,
 * a refused credential is shown and can be corrected, Cancel answers `access_denied`), that
 * Chromium follows the 303 to the client although the page's CSP has a `form-action` directive
 * (browsers apply it to the redirect after a form), that the inline style's CSP hash matches
 * (no CSP violation is reported), that the page cannot be framed, and that a look-alike
 * redirect host is shown in ASCII (punycode) beside its Unicode form.
 *
 * Chromium is `/usr/bin/chromium` (`apt-get install chromium`; `.ci/run` installs it). A clone
 * without it skips this file unless `CI` is set, in which case the missing browser is a failure.
 */
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';

import type { Browser, BrowserContext, Page } from 'playwright-core';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { CHROMIUM, launchChromium } from '../helpers/headless-chromium.js';
import {
  createPremiumLicense,
  type ListeningApp,
  startListeningApp,
} from '../helpers/oauth-app.js';
import {
  type AuthorizationRequest,
  newAuthorizationRequest,
  registerPublicClient,
} from '../helpers/oauth-request.js';
import { useTestApp } from '../helpers/test-app.js';

const HAS_CHROMIUM = existsSync(CHROMIUM);
const IN_CI = (process.env.CI ?? '') !== '' && process.env.CI !== 'false';
/** Without a browser a developer clone still passes `npm test`; in CI a missing one fails. */
const SKIP = !HAS_CHROMIUM && !IN_CI;
const TITLE = SKIP
  ? `authorization page in headless Chromium — skipped: ${CHROMIUM} not found (apt-get install chromium; with CI set this is a failure)`
  : 'authorization page in headless Chromium (JavaScript disabled)';

/** Bound on every browser wait (navigation, locator, launch). */
const BROWSER_TIMEOUT_MS = 10_000;

const CLIENT_NAME = 'Chromium test client';
const CREDENTIAL_LABEL = 'Premium license or enterprise key';
const CODE_FORMAT = /^mcp_ac_[0-9A-Za-z]{43}$/;

/** The client's redirect target: a loopback server that records the queries it receives. */
interface CallbackServer {
  server: Server;
  /** `http://127.0.0.1:<port>/callback`, the registered redirect URI. */
  redirectUri: string;
  origin: string;
  /** Queries received on `/callback`, in order. */
  received: URLSearchParams[];
}

async function startCallbackServer(): Promise<CallbackServer> {
  const received: URLSearchParams[] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname === '/callback') {
      received.push(url.searchParams);
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><title>Client callback</title><p>Back at the client.</p>');
      return;
    }
    if (url.pathname === '/framing') {
      // A third-party page that tries to show the authorization page in a frame.
      const src = url.searchParams.get('src') ?? '';
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        `<!doctype html><title>Framing attempt</title><iframe name="victim" src="${src.replaceAll('&', '&amp;').replaceAll('"', '&quot;')}"></iframe>`,
      );
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  const origin = `http://127.0.0.1:${String(port)}`;
  return { server, origin, redirectUri: `${origin}/callback`, received };
}

/** A public client registered over HTTP, and a fresh authorization request for it. */
interface Authorization extends AuthorizationRequest {
  clientId: string;
}

/** The part of the page's `window` used in `evaluate` (the project's lib has no DOM types). */
interface InPageWindow {
  getComputedStyle(element: unknown): { backgroundColor: string };
}

/**
 * CSP violations Chromium reports on the page's console (it does so with JavaScript disabled
 * too: a blocked inline style, a form or a redirect refused by `form-action`, a refused frame).
 */
function watchCspViolations(page: Page): string[] {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && message.text().includes('Content Security Policy')) {
      violations.push(message.text());
    }
  });
  return violations;
}

describe.skipIf(SKIP)(TITLE, { timeout: 30_000 }, () => {
  const start = useTestApp();
  let browser: Browser | undefined;
  let callback: CallbackServer | undefined;

  beforeAll(async () => {
    if (!HAS_CHROMIUM) {
      throw new Error(
        `CI is set but ${CHROMIUM} is missing: install Debian's chromium (.ci/run does) to run this test`,
      );
    }
    callback = await startCallbackServer();
    browser = await launchChromium(BROWSER_TIMEOUT_MS);
  });

  afterAll(async () => {
    try {
      await browser?.close();
    } finally {
      const server = callback?.server;
      if (server !== undefined) {
        server.closeAllConnections();
        await new Promise<void>((resolve) => {
          server.close(() => {
            resolve();
          });
        });
      }
    }
  });

  /**
   * Start the app, register a client whose redirect URI is the callback server, and open a
   * JavaScript-less browser context; `use` gets them and the context is closed afterwards.
   */
  async function withSignIn(
    use: (env: {
      app: ListeningApp;
      auth: Authorization;
      page: Page;
      callback: CallbackServer;
    }) => Promise<void>,
  ): Promise<void> {
    if (browser === undefined || callback === undefined) throw new Error('beforeAll did not run');
    callback.received.length = 0;
    const app = await startListeningApp(start);
    const clientId = await registerPublicClient(app.base, callback.redirectUri, CLIENT_NAME);
    const auth: Authorization = {
      clientId,
      ...newAuthorizationRequest(app.base, app.mcpUrl, clientId, callback.redirectUri),
    };
    const context: BrowserContext = await browser.newContext({ javaScriptEnabled: false });
    context.setDefaultTimeout(BROWSER_TIMEOUT_MS);
    context.setDefaultNavigationTimeout(BROWSER_TIMEOUT_MS);
    try {
      const page = await context.newPage();
      await use({ app, auth, page, callback });
    } finally {
      await context.close();
    }
  }

  /** Wait until the browser has arrived at the callback server; return the query it received. */
  async function arrivedAtCallback(page: Page, server: CallbackServer): Promise<URLSearchParams> {
    await page.waitForURL((url) => url.origin === server.origin && url.pathname === '/callback', {
      timeout: BROWSER_TIMEOUT_MS,
    });
    await page.getByText('Back at the client.').waitFor({ state: 'visible' });
    expect(server.received).toHaveLength(1);
    const [query] = server.received;
    if (query === undefined) throw new Error('the callback server received nothing');
    return query;
  }

  it('signs in with a license and follows the 303 to the client despite form-action', async () => {
    await withSignIn(async ({ app, auth, page, callback }) => {
      const license = await createPremiumLicense(app.ctx.store, app.ctx.clock.now());
      const violations = watchCspViolations(page);
      const redirects: { status: number; method: string; location: string | undefined }[] = [];
      page.on('response', (response) => {
        if (response.status() >= 300 && response.status() < 400) {
          redirects.push({
            status: response.status(),
            method: response.request().method(),
            location: response.headers().location,
          });
        }
      });

      const opened = await page.goto(auth.url);
      expect(opened?.status()).toBe(200);
      const csp = (await opened?.allHeaders())?.['content-security-policy'] ?? '';
      expect(csp).toContain(`form-action 'self' ${callback.origin}`);
      expect(await page.title()).toBe('Connect to linkguard');
      expect(await page.getByText(CLIENT_NAME, { exact: true }).isVisible()).toBe(true);
      expect(await page.getByText(callback.redirectUri, { exact: true }).isVisible()).toBe(true);
      // The CSRF cookie is set for the form's path only, HttpOnly and SameSite=Strict.
      expect(await page.context().cookies(`${app.base}/`)).toEqual([]);
      const cookies = await page.context().cookies(auth.url);
      expect(cookies).toHaveLength(1);
      expect(cookies[0]).toMatchObject({
        path: '/oauth/authorize',
        httpOnly: true,
        sameSite: 'Strict',
      });
      // The inline style is allowed by its CSP hash: the Connect button is styled.
      const connect = page.getByRole('button', { name: 'Connect' });
      const background = await connect.evaluate((button: unknown) => {
        // Runs in the page (Playwright evaluates even with page scripts off); no DOM types here.
        const view = globalThis as unknown as InPageWindow;
        return view.getComputedStyle(button).backgroundColor;
      });
      expect(background).toBe('rgb(29, 78, 216)');

      await page.getByLabel(CREDENTIAL_LABEL).fill(license.raw);
      await connect.click();
      const query = await arrivedAtCallback(page, callback);

      expect(query.get('code')).toMatch(CODE_FORMAT);
      expect(query.get('state')).toBe(auth.state);
      expect(query.get('iss')).toBe(app.base);
      expect(query.get('error')).toBeNull();
      // Chromium took the 303 from the form's POST (not some other way round to the client).
      expect(redirects).toHaveLength(1);
      expect(redirects[0]).toMatchObject({ status: 303, method: 'POST' });
      expect(redirects[0]?.location?.startsWith(`${callback.redirectUri}?`)).toBe(true);
      // No CSP violation: neither the inline style (hash) nor the form or its redirect.
      expect(violations).toEqual([]);

      // The code the browser carried redeems with the verifier computed here (PKCE S256).
      const exchange = await request(`${app.base}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code: query.get('code') ?? '',
          redirect_uri: callback.redirectUri,
          client_id: auth.clientId,
          code_verifier: auth.verifier,
          resource: app.mcpUrl,
        }).toString(),
      });
      const tokens = (await exchange.body.json()) as { access_token?: string };
      expect(exchange.statusCode).toBe(200);
      expect(tokens.access_token).toMatch(/^mcp_at_[0-9A-Za-z]{43}$/);
    });
  });

  it('shows a refused credential on the re-rendered page, then accepts the right one', async () => {
    await withSignIn(async ({ app, auth, page, callback }) => {
      const license = await createPremiumLicense(app.ctx.store, app.ctx.clock.now());
      const violations = watchCspViolations(page);
      await page.goto(auth.url);

      const [refused] = await Promise.all([
        page.waitForResponse(
          (response) =>
            response.request().method() === 'POST' && response.url().endsWith('/oauth/authorize'),
        ),
        (async () => {
          await page
            .getByLabel(CREDENTIAL_LABEL)
            .fill('lic_thisIsNotARealLicense0000000000000000000');
          await page.getByRole('button', { name: 'Connect' }).click();
        })(),
      ]);
      expect(refused.status()).toBe(400);
      const alert = page.getByRole('alert');
      await alert.waitFor({ state: 'visible' });
      expect(await alert.textContent()).toBe(
        'That is not a valid Premium license or enterprise key, or it was revoked. Check it and try again.',
      );
      // Still the sign-in page for the same client, with an empty field and nothing sent back.
      expect(await page.getByText(CLIENT_NAME, { exact: true }).isVisible()).toBe(true);
      expect(await page.getByLabel(CREDENTIAL_LABEL).inputValue()).toBe('');
      expect(callback.received).toHaveLength(0);

      await page.getByLabel(CREDENTIAL_LABEL).fill(license.raw);
      await page.getByRole('button', { name: 'Connect' }).click();
      const query = await arrivedAtCallback(page, callback);
      expect(query.get('code')).toMatch(CODE_FORMAT);
      expect(query.get('state')).toBe(auth.state);
      expect(query.get('iss')).toBe(app.base);
      expect(violations).toEqual([]);
    });
  });

  it('answers access_denied to the client when the user presses Cancel', async () => {
    await withSignIn(async ({ app, auth, page, callback }) => {
      const violations = watchCspViolations(page);
      await page.goto(auth.url);
      // Cancel needs no credential: the field is required only for Connect (formnovalidate).
      await page.getByRole('button', { name: 'Cancel' }).click();
      const query = await arrivedAtCallback(page, callback);
      expect(query.get('error')).toBe('access_denied');
      expect(query.get('code')).toBeNull();
      expect(query.get('state')).toBe(auth.state);
      expect(query.get('iss')).toBe(app.base);
      expect(violations).toEqual([]);
    });
  });

  it('shows a look-alike redirect host in ASCII (punycode) beside its Unicode form', async () => {
    if (browser === undefined) throw new Error('beforeAll did not run');
    const app = await startListeningApp(start);
    // Cyrillic а (U+0430) in place of the Latin a: reads as paypal.com in most fonts.
    const lookalike = 'https://p\u0430ypal.com/callback';
    const clientId = await registerPublicClient(app.base, lookalike, CLIENT_NAME);
    const auth = newAuthorizationRequest(app.base, app.mcpUrl, clientId, lookalike);
    const context = await browser.newContext({ javaScriptEnabled: false });
    context.setDefaultTimeout(BROWSER_TIMEOUT_MS);
    context.setDefaultNavigationTimeout(BROWSER_TIMEOUT_MS);
    try {
      const page = await context.newPage();
      const violations = watchCspViolations(page);
      const opened = await page.goto(auth.url);
      expect(opened?.status()).toBe(200);
      // The address the browser will load, and the host on its own, both in punycode.
      const where = page.getByText('https://xn--pypal-4ve.com/callback', { exact: true });
      expect(await where.isVisible()).toBe(true);
      const ascii = page.getByTitle('host in ASCII');
      expect(await ascii.textContent()).toBe('xn--pypal-4ve.com');
      expect(await ascii.isVisible()).toBe(true);
      const unicode = page.getByTitle('host in Unicode');
      expect(await unicode.textContent()).toBe('p\u0430ypal.com');
      expect(await unicode.isVisible()).toBe(true);
      expect(
        await page.getByText('the ASCII form is the real one', { exact: false }).isVisible(),
      ).toBe(true);
      expect(violations).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('refuses to be framed (CSP frame-ancestors and X-Frame-Options)', async () => {
    await withSignIn(async ({ auth, page, callback }) => {
      const violations = watchCspViolations(page);
      const blocked: string[] = [];
      page.on('requestfailed', (failed) => {
        blocked.push(`${failed.url()} ${failed.failure()?.errorText ?? ''}`);
      });
      const opened = await page.goto(auth.url);
      const headers = (await opened?.allHeaders()) ?? {};
      expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(headers['x-frame-options']).toBe('DENY');

      // And Chromium honours it: a third-party page that frames the sign-in page gets no form.
      const framing = new URL('/framing', callback.origin);
      framing.searchParams.set('src', auth.url);
      await page.goto(framing.href);
      // The frame holds Chromium's error page, not the form.
      expect(page.frame({ name: 'victim' })?.url()).toBe('chrome-error://chromewebdata/');
      expect(blocked).toEqual([`${auth.url} net::ERR_BLOCKED_BY_RESPONSE`]);
      expect(violations).toHaveLength(1);
      expect(violations[0]).toContain("frame-ancestors 'none'");
      expect(callback.received).toHaveLength(0);
    });
  });
});
