/**
 * `POST /v1/reports` over `app.inject` on the real SQLite store (and the happy path on
 * PostgreSQL): a report is accepted anonymously, with an enterprise key and with a connector
 * access token from the real OAuth sign-in, answered 202 with its id and the verdict at filing,
 * and stored whole (verdict, engine and data versions, source, normalized URL); bad input is 400
 * with a documented code and nothing counted; the 11th anonymous report of an hour from one
 * source is 429; a wrong key is 401 and counts as a failed authentication; reports cost no usage;
 * the URL, comment and contact never reach the logs.
 */
import type { LightMyRequestResponse } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';

import { EXAMPLE_URLS } from '../../src/api/example-urls.js';
import { monthOf } from '../../src/clock.js';
import { loadConfig } from '../../src/config/config.js';
import { defaultEngine, engineDataDigest } from '../../src/engine-data/load-engine-data.js';
import { createLogger } from '../../src/observability/logger.js';
import { REPORTS_PER_SOURCE } from '../../src/ratelimit/rate-limits.js';
import { buildApp } from '../../src/server/build-app.js';
import { openStore } from '../../src/store/open-store.js';
import type { ReportRecord } from '../../src/store/ports/correction-store.js';
import type { Store } from '../../src/store/ports/store.js';
import { SERVICE_VERSION } from '../../src/version.js';
import { detectWithKey, jsonBody } from '../helpers/detect-request.js';
import { createEnterpriseKey } from '../helpers/enterprise-key.js';
import { createPremiumLicense, startListeningApp } from '../helpers/oauth-app.js';
import { signIn } from '../helpers/oauth-request.js';
import { usePostgresDatabase } from '../helpers/postgres.js';
import {
  logCapture,
  NO_CHAIN_RPC,
  type TestApp,
  testClock,
  useTestApp,
} from '../helpers/test-app.js';

const start = useTestApp();

const COMMENT = 'Our own wallet-recovery help page, not a MetaMask look-alike (ticket 4471).';
const CONTACT = 'webmaster@wallet-help.example.org';

function report(
  app: TestApp,
  body: unknown,
  headers: Record<string, string> = {},
  remoteAddress?: string,
): Promise<LightMyRequestResponse> {
  return app.inject({
    method: 'POST',
    url: '/v1/reports',
    headers: { 'content-type': 'application/json', ...headers },
    payload: JSON.stringify(body),
    ...(remoteAddress === undefined ? {} : { remoteAddress }),
  });
}

/** The stored report behind a 202, checked against the answer. */
async function storedReport(store: Store, response: LightMyRequestResponse): Promise<ReportRecord> {
  expect(response.statusCode, response.body).toBe(202);
  const { id } = response.json<{ id: string }>();
  const stored = await store.reports.findReport(id);
  if (stored === null) throw new Error(`report ${id} was not stored`);
  return stored;
}

describe('POST /v1/reports: accepted', () => {
  it('anonymously: 202 with the receipt; stored with the verdict, versions and normalized URL', async () => {
    const ctx = await start();
    const response = await report(ctx.app, {
      url: 'METAMASK-restore-wallet.com',
      kind: 'false_positive',
      comment: `  ${COMMENT}\n`,
      contact: CONTACT,
    });
    expect(response.statusCode, response.body).toBe(202);
    expect(response.headers['cache-control']).toBe('no-store');
    const body = jsonBody(response);
    expect(body).toEqual({
      id: expect.stringMatching(/^rpt_[0-9A-Za-z]{16}$/) as string,
      status: 'open',
      url: 'https://metamask-restore-wallet.com/',
      kind: 'false_positive',
      verdict: 'danger',
      created_at: new Date(ctx.clock.now()).toISOString(),
    });
    expect(response.headers['ratelimit-policy']).toBe(
      `"reports-per-ip";q=${String(REPORTS_PER_SOURCE)};w=3600`,
    );
    expect(response.headers['ratelimit-remaining']).toBe(String(REPORTS_PER_SOURCE - 1));

    const stored = await storedReport(ctx.store, response);
    // The verdict whole, as /v1/detect serves it for the same URL.
    const key = await createEnterpriseKey(ctx.store);
    const served = jsonBody(
      await detectWithKey(ctx.app, 'metamask-restore-wallet.com', key.bearer),
    );
    expect(stored.verdict).toEqual(served);
    expect(stored.verdict.details.matched_patterns.length).toBeGreaterThan(0);
    expect(stored).toMatchObject({
      url: 'https://metamask-restore-wallet.com/',
      kind: 'false_positive',
      comment: COMMENT,
      contact: CONTACT,
      source: 'anonymous',
      sourceId: null,
      engineVersion: SERVICE_VERSION,
      dataVersion: engineDataDigest(),
      status: 'open',
      createdAt: ctx.clock.now(),
    });
  });

  it('with an enterprise key: source key, its id; the per-credential budget; no usage counted', async () => {
    const ctx = await start();
    const key = await createEnterpriseKey(ctx.store, { monthlyAllowance: 0, hardCap: true });
    const response = await report(
      ctx.app,
      { url: EXAMPLE_URLS.safe, kind: 'false_negative', comment: null, contact: null },
      { authorization: key.bearer },
    );
    // A key whose monthly allowance is spent may still report: reports are free.
    const stored = await storedReport(ctx.store, response);
    expect(stored).toMatchObject({
      source: 'key',
      sourceId: key.id,
      url: EXAMPLE_URLS.safe,
      kind: 'false_negative',
      comment: null,
      contact: null,
    });
    expect(stored.verdict.verdict).toBe('safe');
    expect(jsonBody(response).verdict).toBe('safe');
    expect(response.headers['ratelimit-policy']).toBe('"reports-per-credential";q=100;w=3600');
    await ctx.store.usage.flush();
    expect(await ctx.store.usage.usageByMonth(monthOf(ctx.clock.now()), key.id)).toEqual([]);
  });

  it(
    'with a connector access token from the OAuth sign-in: source connector, the license id',
    { timeout: 20_000 },
    async () => {
      const { ctx, base } = await startListeningApp(start);
      const license = await createPremiumLicense(ctx.store, ctx.clock.now());
      const token = await signIn(base, license.raw);
      const response = await report(
        ctx.app,
        { url: EXAMPLE_URLS.danger, kind: 'false_positive' },
        { authorization: `Bearer ${token}` },
      );
      const stored = await storedReport(ctx.store, response);
      expect(stored).toMatchObject({ source: 'connector', sourceId: license.id });
      expect(response.headers['ratelimit-policy']).toBe('"reports-per-credential";q=100;w=3600');
      // No check of the license's month is spent.
      expect(await ctx.store.licenses.licenseUsage(monthOf(ctx.clock.now()), license.id)).toEqual(
        [],
      );

      // A token that is not (or no longer) valid is a 401 like a wrong key.
      await ctx.store.licenses.revokeLicense(license.id, ctx.clock.now());
      const revoked = await report(
        ctx.app,
        { url: EXAMPLE_URLS.danger, kind: 'false_positive' },
        { authorization: `Bearer ${token}` },
      );
      expect(revoked.statusCode).toBe(401);
      expect(jsonBody(revoked)).toEqual({
        status: 401,
        error: 'invalid_api_key',
        message: 'The access token is invalid, expired or revoked',
      });
      expect(revoked.headers['www-authenticate']).toContain('error="invalid_token"');
    },
  );
});

describe('POST /v1/reports: refused', () => {
  const good = { url: EXAMPLE_URLS.danger, kind: 'false_positive' };
  const CASES: [string, unknown, Record<string, unknown>][] = [
    [
      'an unknown kind',
      { ...good, kind: 'spam' },
      {
        error: 'invalid_request',
        reason: 'unknown_kind',
        message: 'kind must be one of false_positive, false_negative',
      },
    ],
    [
      'no kind',
      { url: good.url },
      {
        error: 'invalid_request',
        reason: 'unknown_kind',
        message: 'kind must be one of false_positive, false_negative',
      },
    ],
    [
      'a comment of 1,001 characters',
      { ...good, comment: 'é'.repeat(1001) },
      {
        error: 'invalid_request',
        reason: 'comment_too_long',
        message: 'comment is longer than 1000 characters',
      },
    ],
    [
      'a comment with a C1 control character (CSI)',
      { ...good, comment: 'see \u009b31m here' },
      {
        error: 'invalid_request',
        reason: 'invalid_comment',
        message: 'comment contains control characters',
      },
    ],
    [
      'a comment with a control character',
      { ...good, comment: 'see \u0007 here' },
      {
        error: 'invalid_request',
        reason: 'invalid_comment',
        message: 'comment contains control characters',
      },
    ],
    [
      'a comment that is not a string',
      { ...good, comment: 42 },
      { error: 'invalid_request', reason: 'invalid_comment', message: 'comment must be a string' },
    ],
    [
      'an invalid URL (localhost)',
      { ...good, url: 'http://localhost/' },
      {
        error: 'invalid_url',
        reason: 'special_use_name',
        message: '"localhost" is a special-use name, not a public site',
      },
    ],
    [
      'a URL longer than 2048 characters',
      { ...good, url: `https://example.com/${'a'.repeat(2048)}` },
      { error: 'invalid_url', reason: 'too_long', message: 'URL is longer than 2048 characters' },
    ],
    [
      'a URL that is not a string',
      { ...good, url: ['https://example.com/'] },
      { error: 'invalid_url', reason: 'malformed', message: 'url must be a string' },
    ],
    ['no url', { kind: 'false_positive' }, { error: 'missing_url' }],
    ['a null url', { url: null, kind: 'false_positive' }, { error: 'missing_url' }],
    [
      'an unknown field',
      { ...good, email: CONTACT },
      {
        error: 'invalid_request',
        message: 'Unknown field "email"; the body takes only url, kind, comment, contact',
      },
    ],
    [
      'a contact that is not an email address',
      { ...good, contact: 'call me maybe' },
      {
        error: 'invalid_request',
        reason: 'invalid_contact',
        message: 'contact must be an email address',
      },
    ],
    [
      'a contact longer than 254 characters',
      { ...good, contact: `${'a'.repeat(250)}@example.org` },
      {
        error: 'invalid_request',
        reason: 'invalid_contact',
        message: 'contact must be an email address',
      },
    ],
    [
      'a body that is not an object',
      [good],
      { error: 'invalid_request', message: 'The body must be a JSON object' },
    ],
  ];

  it('bad input is 400 with its code, stores nothing and costs no report', async () => {
    const ctx = await start();
    for (const [what, body, expected] of CASES) {
      const response = await report(ctx.app, body);
      expect(response.statusCode, what).toBe(400);
      expect(jsonBody(response), what).toMatchObject({ status: 400, ...expected });
    }
    expect(await ctx.store.reports.listReports()).toEqual([]);
    // None of the 14 refusals counted: the source still has its whole budget.
    const accepted = await report(ctx.app, good);
    expect(accepted.statusCode).toBe(202);
    expect(accepted.headers['ratelimit-remaining']).toBe(String(REPORTS_PER_SOURCE - 1));
  });

  it('a comment of exactly 1,000 characters (astral ones too) is accepted', async () => {
    const ctx = await start();
    const comment = '😀'.repeat(1000);
    const stored = await storedReport(ctx.store, await report(ctx.app, { ...good, comment }));
    expect(stored.comment).toBe(comment);
  });

  it('the 11th anonymous report of an hour from one source is 429 with Retry-After', async () => {
    const ctx = await start();
    for (let i = 0; i < REPORTS_PER_SOURCE; i += 1) {
      expect((await report(ctx.app, good, {}, '203.0.113.7')).statusCode).toBe(202);
    }
    const refused = await report(ctx.app, good, {}, '203.0.113.7');
    expect(refused.statusCode).toBe(429);
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect(jsonBody(refused)).toEqual({
      status: 429,
      error: 'rate_limited',
      message: 'Too many reports from this address: at most 10 per hour',
      retry_after: retryAfter,
    });
    expect(refused.headers['ratelimit-remaining']).toBe('0');
    expect(refused.headers.ratelimit).toBe(`"reports-per-ip";r=0;t=${String(retryAfter)}`);
    expect(await ctx.store.reports.listReports()).toHaveLength(REPORTS_PER_SOURCE);
    // Another source, and a key from the same address, still report.
    expect((await report(ctx.app, good, {}, '198.51.100.9')).statusCode).toBe(202);
    const key = await createEnterpriseKey(ctx.store);
    const keyed = await report(ctx.app, good, { authorization: key.bearer }, '203.0.113.7');
    expect(keyed.statusCode).toBe(202);
  });

  it('a wrong key is 401 and counts as a failed authentication of the source', async () => {
    const ctx = await start();
    const wrong = `Bearer sk_live_${'B'.repeat(43)}`;
    const refused = await report(ctx.app, good, { authorization: wrong }, '192.0.2.44');
    expect(refused.statusCode).toBe(401);
    expect(jsonBody(refused)).toEqual({
      status: 401,
      error: 'invalid_api_key',
      message: 'The API key is invalid, expired or revoked',
    });
    expect(refused.headers['www-authenticate']).toContain('error="invalid_token"');
    const malformed = await report(ctx.app, good, { authorization: 'Basic abc' }, '192.0.2.44');
    expect(jsonBody(malformed)).toMatchObject({
      error: 'invalid_api_key',
      reason: 'malformed_authorization',
    });
    // 20 failures per 10 minutes (decision 131): the 21st credential is refused unchecked.
    for (let i = 2; i < 20; i += 1) {
      expect((await report(ctx.app, good, { authorization: wrong }, '192.0.2.44')).statusCode).toBe(
        401,
      );
    }
    const key = await createEnterpriseKey(ctx.store);
    const gated = await report(ctx.app, good, { authorization: key.bearer }, '192.0.2.44');
    expect(gated.statusCode).toBe(429);
    expect(jsonBody(gated)).toMatchObject({ error: 'rate_limited', reason: 'auth_failures' });
    expect(await ctx.store.reports.listReports()).toEqual([]);
  });

  it('other methods are 405 with Allow: POST', async () => {
    const ctx = await start();
    const response = await ctx.app.inject({ method: 'GET', url: '/v1/reports' });
    expect(response.statusCode).toBe(405);
    expect(response.headers.allow).toBe('POST');
    expect(jsonBody(response)).toMatchObject({ error: 'method_not_allowed' });
  });
});

describe('POST /v1/reports: privacy', () => {
  it('the URL, comment, contact, key and client address are never logged', async () => {
    const ctx = await start({ logLevel: 'debug' });
    const key = await createEnterpriseKey(ctx.store);
    const url = 'https://report-privacy-probe.example-shop.net/account/42';
    const body = {
      url,
      kind: 'false_negative',
      comment: 'privacy-probe-comment-7f3a',
      contact: 'privacy-probe@example-shop.net',
    };
    const client = '203.0.113.201';
    const anonymous = await storedReport(ctx.store, await report(ctx.app, body, {}, client));
    const keyed = await storedReport(
      ctx.store,
      await report(ctx.app, body, { authorization: key.bearer }, client),
    );
    expect(anonymous.url).toBe(url);
    expect(keyed.comment).toBe(body.comment);
    const refused = await report(ctx.app, { ...body, comment: 'privacy-probe-comment'.repeat(60) });
    expect(refused.statusCode).toBe(400);
    const logs = ctx.logs.text();
    expect(logs).toContain(anonymous.id);
    expect(logs).toContain(keyed.id);
    for (const secret of [
      'report-privacy-probe',
      'privacy-probe-comment',
      'privacy-probe@',
      key.raw,
      client,
    ]) {
      expect(logs).not.toContain(secret);
    }
  });
});

describe('POST /v1/reports on PostgreSQL', () => {
  const databaseUrl = usePostgresDatabase();
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await close?.();
    close = undefined;
  });

  it('anonymous and keyed reports are accepted and stored whole', async () => {
    const config = loadConfig({
      ...NO_CHAIN_RPC,
      PAGE_ANALYSIS: 'off',
      DATABASE_URL: databaseUrl(),
    });
    const store = await openStore(config.store);
    const clock = testClock();
    const app = await buildApp({
      config,
      store,
      engine: defaultEngine(),
      clock,
      logger: createLogger('error', logCapture()),
    });
    close = async () => {
      await app.close();
      await store.close();
    };
    const anonymous = await storedReport(
      store,
      await report(app, {
        url: 'metamask-restore-wallet.com',
        kind: 'false_positive',
        comment: COMMENT,
      }),
    );
    expect(anonymous).toMatchObject({
      url: 'https://metamask-restore-wallet.com/',
      source: 'anonymous',
      sourceId: null,
      comment: COMMENT,
      engineVersion: SERVICE_VERSION,
      dataVersion: engineDataDigest(),
    });
    expect(anonymous.verdict.verdict).toBe('danger');
    const key = await createEnterpriseKey(store);
    const keyed = await storedReport(
      store,
      await report(
        app,
        { url: EXAMPLE_URLS.safe, kind: 'false_negative', contact: CONTACT },
        { authorization: key.bearer },
      ),
    );
    expect(keyed).toMatchObject({ source: 'key', sourceId: key.id, contact: CONTACT });
    expect((await store.reports.listReports()).map((r) => r.id).sort()).toEqual(
      [anonymous.id, keyed.id].sort(),
    );
  });
});
