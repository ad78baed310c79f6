/**
 * `POST /v1/detect/batch` (README, "API"; docs/decisions.md, decisions 184–188) through the real
 * app, a real SQLite store and the real engine: results in input order, per-URL errors identical
 * to what `/v1/detect` answers for that URL, the 100-URL bound, every URL counted against the
 * key like a `/v1/detect` request (per-minute budget, hard monthly cap, usage log), no key,
 * malformed bodies, and the concurrency bound (pages served from loopback).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';

import { BATCH_BODY_LIMIT_BYTES, MAX_BATCH_URLS } from '../../src/api/detect-batch-schemas.js';
import { monthOf } from '../../src/clock.js';
import { BATCH_CONCURRENCY } from '../../src/http/routes/detect-batch-route.js';
import { detect, detectWithKey, jsonBody, rateLimitHeaders } from '../helpers/detect-request.js';
import { createEnterpriseKey } from '../helpers/enterprise-key.js';
import { type TestApp, useTestApp } from '../helpers/test-app.js';

const start = useTestApp();

/** Invented hosts only (none from a threat feed or an evaluation file). */
const OFFICIAL = 'https://docs.github.com/';
const LOOKALIKE = 'https://metamask-restore-wallet.com/';
const PRIVATE = 'http://10.0.0.1/';
const distinctHosts = (n: number, tag = 'shop'): string[] =>
  Array.from({ length: n }, (_, i) => `https://${tag}-${String(i)}-garden-tools.org/`);

function batch(
  app: TestApp,
  body: unknown,
  headers: Record<string, string> = {},
  remoteAddress?: string,
): Promise<LightMyRequestResponse> {
  return app.inject({
    method: 'POST',
    url: '/v1/detect/batch',
    headers: { 'content-type': 'application/json', ...headers },
    payload: typeof body === 'string' ? body : JSON.stringify(body),
    ...(remoteAddress === undefined ? {} : { remoteAddress }),
  });
}

type Item = Record<string, unknown> & { url: string; error?: Record<string, unknown> };

function results(response: LightMyRequestResponse): Item[] {
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  const body = response.json<{ results: Item[] }>();
  expect(Object.keys(body)).toEqual(['results']);
  return body.results;
}

describe('POST /v1/detect/batch: results', () => {
  it('answers one result per URL in input order, each what /v1/detect answers for it', async () => {
    const { app, store } = await start();
    const key = await createEnterpriseKey(store);
    const urls = [OFFICIAL, PRIVATE, LOOKALIKE, '', 'ftp://files.garden-tools.org/', OFFICIAL];
    const items = results(await batch(app, { urls }, { authorization: key.bearer }));
    expect(items.map((item) => item.url)).toEqual(urls);
    for (const [index, item] of items.entries()) {
      const url = urls[index] ?? '';
      const single = await detectWithKey(app, url, key.bearer);
      const { url: echoed, ...rest } = item;
      expect(echoed).toBe(url);
      if (single.statusCode === 200) {
        expect(rest, `item ${String(index)}`).toEqual(jsonBody(single));
      } else {
        // The error entry is the very body /v1/detect answers for that URL alone.
        expect(rest, `item ${String(index)}`).toEqual({ error: jsonBody(single) });
      }
    }
    expect(items[0]).toMatchObject({ verdict: 'safe' });
    expect(items[1]?.error).toMatchObject({
      status: 400,
      error: 'invalid_url',
      reason: 'private_address',
    });
    expect(items[2]).toMatchObject({ verdict: 'danger', brand: 'MetaMask' });
    expect(items[3]?.error).toMatchObject({ error: 'invalid_url', reason: 'empty' });
    expect(items[4]?.error).toMatchObject({ error: 'invalid_url', reason: 'unsupported_scheme' });
    expect(items[5]).toEqual(items[0]);
  });

  it(`takes ${String(MAX_BATCH_URLS)} URLs; ${String(MAX_BATCH_URLS + 1)} is 400 invalid_request too_many_urls`, async () => {
    const { app, store, clock } = await start();
    const key = await createEnterpriseKey(store);
    const urls = distinctHosts(MAX_BATCH_URLS);
    const items = results(await batch(app, { urls }, { authorization: key.bearer }));
    expect(items.map((item) => item.url)).toEqual(urls);
    expect(items.every((item) => typeof item.verdict === 'string')).toBe(true);

    const over = await batch(
      app,
      { urls: distinctHosts(MAX_BATCH_URLS + 1, 'more') },
      { authorization: key.bearer },
    );
    expect(over.statusCode).toBe(400);
    expect(jsonBody(over)).toEqual({
      status: 400,
      error: 'invalid_request',
      message: `At most ${String(MAX_BATCH_URLS)} URLs per request; this one has ${String(MAX_BATCH_URLS + 1)}`,
      reason: 'too_many_urls',
    });
    // Refused whole: nothing of the 101 was counted (only the 100 of the first batch).
    await store.usage.flush();
    const [usage] = await store.usage.usageByMonth(monthOf(clock.now()), key.id);
    expect(usage?.requests).toBe(MAX_BATCH_URLS);
  });
});

describe('POST /v1/detect/batch: logs', () => {
  it('log the counts of a batch, never a submitted URL', async () => {
    const { app, store, logs } = await start();
    const key = await createEnterpriseKey(store);
    const urls = ['https://quiet-orchard-lanterns.org/secret-path?token=abc', PRIVATE];
    results(await batch(app, { urls }, { authorization: key.bearer }));
    const record = logs.records().find((r) => r.msg === 'batch judged');
    expect(record?.batch).toEqual({ urls: 2, verdicts: 1, errors: 1 });
    expect(logs.text()).not.toContain('quiet-orchard-lanterns');
    expect(logs.text()).not.toContain('10.0.0.1');
    expect(logs.text()).not.toContain(key.raw);
  });
});

describe('POST /v1/detect/batch: every URL counts against the key like a /v1/detect request', () => {
  it('writes one usage row per judged URL, none for refused URLs', async () => {
    const { app, store, clock } = await start();
    const key = await createEnterpriseKey(store);
    results(
      await batch(
        app,
        { urls: [OFFICIAL, PRIVATE, LOOKALIKE, 'javascript:alert(1)', OFFICIAL] },
        { authorization: key.bearer },
      ),
    );
    await store.usage.flush();
    const [usage] = await store.usage.usageByMonth(monthOf(clock.now()), key.id);
    expect(usage).toMatchObject({ requests: 3, safe: 2, danger: 1, caution: 0 });
  });

  it('spends the per-minute budget URL by URL in input order; the rest get 429 entries', async () => {
    const { app, store } = await start();
    const key = await createEnterpriseKey(store, { rateLimitPerMinute: 5 });
    // The refused URL in the middle spends nothing, as a 400 on /v1/detect does.
    const urls = [...distinctHosts(3), PRIVATE, ...distinctHosts(4, 'late')];
    const response = await batch(app, { urls }, { authorization: key.bearer });
    const items = results(response);
    expect(items.map((item) => item.error?.error ?? item.verdict)).toEqual([
      expect.any(String),
      expect.any(String),
      expect.any(String),
      'invalid_url',
      expect.any(String),
      expect.any(String),
      'rate_limited',
      'rate_limited',
    ]);
    expect(items.slice(0, 3).every((item) => item.error === undefined)).toBe(true);
    expect(items.slice(4, 6).every((item) => item.error === undefined)).toBe(true);
    const refused = items[6]?.error;
    expect(refused).toMatchObject({ status: 429, error: 'rate_limited' });
    expect(refused?.retry_after).toEqual(expect.any(Number));
    expect(refused?.reason).toBeUndefined();
    // The headers report the key's budget after the last URL counted.
    expect(response.headers['ratelimit-policy']).toBe('"per-key";q=5;w=60');
    expect(rateLimitHeaders(response)).toMatchObject({ limit: 5, remaining: 0 });
    // The budget is the key's, shared with /v1/detect.
    expect((await detectWithKey(app, OFFICIAL, key.bearer)).statusCode).toBe(429);
  });

  it('a hard monthly cap running out mid-batch refuses the later URLs (monthly_allowance)', async () => {
    const { app, store, clock } = await start();
    const key = await createEnterpriseKey(store, { monthlyAllowance: 4, hardCap: true });
    expect((await detectWithKey(app, OFFICIAL, key.bearer)).statusCode).toBe(200);
    const urls = distinctHosts(5);
    const items = results(await batch(app, { urls }, { authorization: key.bearer }));
    expect(items.slice(0, 3).every((item) => typeof item.verdict === 'string')).toBe(true);
    for (const item of items.slice(3)) {
      expect(item.error).toMatchObject({
        status: 429,
        error: 'rate_limited',
        reason: 'monthly_allowance',
      });
      expect(item.error?.retry_after).toEqual(expect.any(Number));
    }
    await store.usage.flush();
    const [usage] = await store.usage.usageByMonth(monthOf(clock.now()), key.id);
    expect(usage?.requests).toBe(4);
    // The month is spent for /v1/detect too.
    const single = await detectWithKey(app, OFFICIAL, key.bearer);
    expect(jsonBody(single)).toMatchObject({ error: 'rate_limited', reason: 'monthly_allowance' });
  });

  it('does not spend the public budget of the source', async () => {
    const { app, store } = await start({ env: { RATE_LIMIT_PUBLIC_PER_MINUTE: '3' } });
    const key = await createEnterpriseKey(store);
    results(await batch(app, { urls: distinctHosts(10) }, { authorization: key.bearer }));
    const unkeyed = await detect(app, { url: OFFICIAL });
    expect(unkeyed.statusCode).toBe(402);
    expect(rateLimitHeaders(unkeyed)).toMatchObject({ limit: 3, remaining: 2 });
  });
});

describe('POST /v1/detect/batch: access', () => {
  it('without a key: 401 api_key_required with a Bearer challenge, spending the public budget', async () => {
    const { app } = await start({ env: { RATE_LIMIT_PUBLIC_PER_MINUTE: '2' } });
    const response = await batch(app, { urls: [OFFICIAL] });
    expect(response.statusCode).toBe(401);
    expect(response.headers['www-authenticate']).toBe('Bearer');
    expect(jsonBody(response)).toMatchObject({ status: 401, error: 'api_key_required' });
    expect(rateLimitHeaders(response)).toMatchObject({ limit: 2, remaining: 1 });
    await batch(app, { urls: [OFFICIAL] });
    const spent = await batch(app, { urls: [OFFICIAL] });
    expect(spent.statusCode).toBe(429);
    expect(spent.headers['retry-after']).toEqual(expect.any(String));
  });

  it('a payment proof is not a key: still 401', async () => {
    const { app } = await start();
    const response = await batch(
      app,
      { urls: [OFFICIAL] },
      { 'x-402-signature': '5'.repeat(88), 'x-402-nonce': crypto.randomUUID() },
    );
    expect(jsonBody(response)).toMatchObject({ status: 401, error: 'api_key_required' });
  });

  it('a wrong key: 401 invalid_api_key with error="invalid_token", counted as a failure', async () => {
    const { app } = await start();
    const wrong = `Bearer sk_live_${'A'.repeat(43)}`;
    const response = await batch(app, { urls: [OFFICIAL] }, { authorization: wrong });
    expect(response.statusCode).toBe(401);
    expect(response.headers['www-authenticate']).toMatch(/^Bearer error="invalid_token"/);
    expect(jsonBody(response)).toMatchObject({ error: 'invalid_api_key' });
    // The failed-authentication budget (20 per 10 minutes) is shared with /v1/detect.
    for (let i = 0; i < 19; i++) await batch(app, { urls: [OFFICIAL] }, { authorization: wrong });
    const locked = await batch(app, { urls: [OFFICIAL] }, { authorization: wrong });
    expect(jsonBody(locked)).toMatchObject({ error: 'rate_limited', reason: 'auth_failures' });
  });
});

describe('POST /v1/detect/batch: malformed requests', () => {
  it.each<[string, string, number, Record<string, unknown>]>([
    ['not JSON', '{"urls":', 400, { error: 'invalid_request' }],
    ['not an object', '["https://a.org/"]', 400, { error: 'invalid_request' }],
    ['no urls', '{}', 400, { error: 'missing_url' }],
    ['urls null', '{"urls":null}', 400, { error: 'missing_url' }],
    ['urls empty', '{"urls":[]}', 400, { error: 'missing_url', message: 'urls is empty' }],
    ['urls a string', '{"urls":"https://a.org/"}', 400, { error: 'invalid_request' }],
    [
      'an entry that is not a string',
      '{"urls":["https://a.org/",7]}',
      400,
      { error: 'invalid_request', message: 'urls[1] must be a string' },
    ],
    [
      'an unknown field',
      '{"urls":["https://a.org/"],"url":"x"}',
      400,
      { error: 'invalid_request', message: 'Unknown field "url"; the body takes only "urls"' },
    ],
    ['an empty body', '', 400, { error: 'missing_url' }],
  ])('%s', async (_label, payload, status, expected) => {
    const { app, store } = await start();
    const key = await createEnterpriseKey(store);
    const response = await batch(app, payload, { authorization: key.bearer });
    expect(response.statusCode).toBe(status);
    expect(jsonBody(response)).toMatchObject({ status, ...expected });
    // Refused before any URL was counted: the public budget is reported, not spent.
    expect(response.headers['ratelimit-policy']).toMatch(/^"per-ip"/);
  });

  it('a body over the limit is 413 payload_too_large; text/plain is 415', async () => {
    const { app, store } = await start();
    const key = await createEnterpriseKey(store);
    const long = `https://garden-tools.org/${'a'.repeat(2000)}`;
    const urls = Array.from(
      { length: Math.ceil(BATCH_BODY_LIMIT_BYTES / long.length) + 1 },
      () => long,
    ).slice(0, MAX_BATCH_URLS);
    // 100 URLs of 2 kB fit; the limit is reached with escapes that triple their size.
    expect(results(await batch(app, { urls }, { authorization: key.bearer }))).toHaveLength(
      urls.length,
    );
    const escaped = JSON.stringify({ urls }).replaceAll('a', '\\u0061');
    const tooLarge = await batch(app, escaped, { authorization: key.bearer });
    expect(tooLarge.statusCode).toBe(413);
    expect(jsonBody(tooLarge)).toMatchObject({ error: 'payload_too_large' });
    const text = await app.inject({
      method: 'POST',
      url: '/v1/detect/batch',
      headers: { 'content-type': 'text/plain', authorization: key.bearer },
      payload: 'https://garden-tools.org/',
    });
    expect(text.statusCode).toBe(415);
    expect(jsonBody(text)).toMatchObject({ error: 'unsupported_media_type' });
  });

  it('other methods are 405 with Allow: POST', async () => {
    const { app } = await start();
    const response = await app.inject({ method: 'GET', url: '/v1/detect/batch' });
    expect(response.statusCode).toBe(405);
    expect(response.headers.allow).toBe('POST');
    expect(jsonBody(response)).toMatchObject({ error: 'method_not_allowed' });
  });
});

describe('POST /v1/detect/batch: bounded concurrency', () => {
  it(`judges at most ${String(BATCH_CONCURRENCY)} URLs at a time (pages read from loopback)`, async () => {
    let inFlight = 0;
    let most = 0;
    const server = createServer((_request, response) => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      // Held long enough for every admitted URL to be waiting on its page at once.
      setTimeout(() => {
        inFlight -= 1;
        response
          .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
          .end('<!doctype html><title>Garden tools</title><p>Rakes and spades.</p>');
      }, 150);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const hosts = Array.from({ length: 40 }, (_, i) => `tools-${String(i)}-garden-shop.org`);
      const { app, store } = await start({
        env: {
          PAGE_ANALYSIS: 'on',
          NET_RESOLVE: hosts.map((host) => `${host}:${String(port)}:127.0.0.1`).join(','),
        },
      });
      const key = await createEnterpriseKey(store);
      const urls = hosts.map((host) => `http://${host}:${String(port)}/`);
      const items = results(await batch(app, { urls }, { authorization: key.bearer }));
      expect(items.map((item) => item.url)).toEqual(urls);
      expect(items.every((item) => typeof item.verdict === 'string')).toBe(true);
      // Every page was read (none left to layers 1–2 alone) …
      expect(items.every((item) => !String(item.reason).includes('Page not analysed'))).toBe(true);
      // … never more than the bound at once, and more than one at a time.
      expect(most).toBeLessThanOrEqual(BATCH_CONCURRENCY);
      expect(most).toBeGreaterThan(1);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
