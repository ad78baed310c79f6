/**
 * Every error of spec §7 this version covers, over HTTP, with the body shape of DESIGN §4.3
 * (`{status, error, message}` + `reason` / `retry_after`) and the headers of DESIGN §4.8.
 * Real SQLite store, real engine, `inject()`.
 */
import Database from 'better-sqlite3';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';

import { monthOf } from '../../src/clock.js';
import {
  detect,
  detectRaw,
  detectWithKey,
  jsonBody,
  rateLimitHeaders,
} from '../helpers/detect-request.js';
import { createEnterpriseKey } from '../helpers/enterprise-key.js';
import { CHAIN_ENV, T0, useTestApp } from '../helpers/test-app.js';

const start = useTestApp({ env: { ...CHAIN_ENV } });

/** Assert the DESIGN §4.3 error body; returns it for further checks. */
function expectError(
  response: LightMyRequestResponse,
  status: number,
  error: string,
): Record<string, unknown> {
  expect(response.statusCode).toBe(status);
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  const body = jsonBody(response);
  expect(body).toMatchObject({ status, error });
  expect(typeof body.message).toBe('string');
  expect((body.message as string).length).toBeGreaterThan(0);
  // Only the documented fields: no payment instructions, no stack, no internals.
  expect(
    Object.keys(body).every((k) =>
      ['status', 'error', 'message', 'reason', 'retry_after'].includes(k),
    ),
  ).toBe(true);
  return body;
}

const PAYPAL = 'https://paypal.com/';

describe('400 missing_url', () => {
  it.each([
    ['{}', '{}'],
    ['{"url": null}', '{"url": null}'],
    ['an empty body', ''],
  ])('%s', async (_label, payload) => {
    const { app } = await start();
    const response = await detectRaw(app, payload);
    expectError(response, 400, 'missing_url');
  });
});

describe('400 invalid_url', () => {
  const longUrl = `https://example.com/${'a'.repeat(2049 - 'https://example.com/'.length)}`;
  it.each([
    ['http://127.0.0.1/', 'private_address'],
    ['http://2130706433/', 'private_address'],
    ['http://0x7f000001/', 'private_address'],
    ['http://0177.0.0.1/', 'private_address'],
    ['http://0x7f.1/', 'private_address'],
    ['http://127.1/', 'private_address'],
    ['http://10.0.0.1/', 'private_address'],
    ['http://172.16.5.4/', 'private_address'],
    ['http://192.168.1.1/', 'private_address'],
    ['http://169.254.169.254/latest/meta-data/', 'private_address'],
    ['http://100.64.0.1/', 'private_address'],
    ['http://224.0.0.1/', 'private_address'],
    ['http://0.0.0.0/', 'private_address'],
    ['http://255.255.255.255/', 'private_address'],
    ['http://[::1]/', 'private_address'],
    ['http://[::]/', 'private_address'],
    ['http://[::ffff:127.0.0.1]/', 'private_address'],
    ['http://[::ffff:7f00:1]/', 'private_address'],
    ['http://[fe80::1]/', 'private_address'],
    ['http://[fc00::1]/', 'private_address'],
    ['http://[fd12:3456::1]/', 'private_address'],
    ['http://[ff02::1]/', 'private_address'],
    ['http://[64:ff9b::a00:1]/', 'private_address'],
    ['http://[2002:7f00:1::]/', 'private_address'],
    ['http://[2001:db8::1]/', 'private_address'],
    ['http://localhost/', 'special_use_name'],
    ['http://LOCALHOST:8080/', 'special_use_name'],
    ['http://foo.localhost/', 'special_use_name'],
    ['http://printer.local/', 'special_use_name'],
    ['http://x.onion/', 'special_use_name'],
    ['http://a.test/', 'special_use_name'],
    ['http://a.example/', 'special_use_name'],
    ['http://a.invalid/', 'special_use_name'],
    ['http://a.internal/', 'special_use_name'],
    ['http://intranet/', 'unknown_tld'],
    ['http://foo.notarealtld123/', 'unknown_tld'],
    ['ftp://example.com/', 'unsupported_scheme'],
    ['javascript:alert(1)', 'unsupported_scheme'],
    ['data:text/html,hi', 'unsupported_scheme'],
    ['mailto:a@b.com', 'unsupported_scheme'],
    ['http://a..b.com/', 'invalid_host'],
    ['http:///x', null],
    [longUrl, 'too_long'],
  ])('%s → reason %s', async (url, reason) => {
    const { app } = await start();
    // No key and chains configured: a 400 must win over the 402 challenge.
    const body = expectError(await detect(app, { url }), 400, 'invalid_url');
    if (reason === null) expect(typeof body.reason).toBe('string');
    else expect(body.reason).toBe(reason);
  });

  it('the 2049-character URL is exactly one over the limit', () => {
    expect(longUrl).toHaveLength(2049);
  });

  it('a url that is not a string (123) is invalid_url, reason malformed', async () => {
    const { app } = await start();
    const body = expectError(await detect(app, { url: 123 }), 400, 'invalid_url');
    expect(body.reason).toBe('malformed');
  });
});

describe('400 invalid_request, 413, 415', () => {
  it('rejects an unknown body field', async () => {
    const { app } = await start();
    const body = { url: 'https://example.com', x: 1 };
    expectError(await detect(app, body), 400, 'invalid_request');
  });

  it.each([
    ['invalid JSON', '{"url": "https://example.com"'],
    ['a JSON array', '["https://example.com"]'],
  ])('rejects %s', async (_label, payload) => {
    const { app } = await start();
    const response = await detectRaw(app, payload);
    expectError(response, 400, 'invalid_request');
  });

  it('413 payload_too_large for a body over 16 KiB', async () => {
    const { app } = await start();
    const url = `https://example.com/?q=${'a'.repeat(16 * 1024)}`;
    expectError(await detect(app, { url }), 413, 'payload_too_large');
  });

  it.each([
    ['text/plain', 'https://example.com'],
    ['application/x-www-form-urlencoded', 'url=https%3A%2F%2Fexample.com'],
  ])('415 unsupported_media_type for a %s body', async (contentType, payload) => {
    const { app } = await start();
    const response = await detectRaw(app, payload, contentType);
    expectError(response, 415, 'unsupported_media_type');
  });
});

describe('401 invalid_api_key', () => {
  const unknownKey = `sk_live_${'A'.repeat(43)}`;

  it.each([
    ['a malformed Bearer value', 'Bearer sk_live_short'],
    ['a Basic credential', `Basic ${Buffer.from('user:pass').toString('base64')}`],
    ['a well-formed but unknown sk_live_ key', `Bearer ${unknownKey}`],
    ['two tokens', `Bearer ${unknownKey} extra`],
  ])('%s, without falling back to a 402 challenge', async (_label, authorization) => {
    const context = await start();
    const response = await detect(context.app, { url: PAYPAL }, { headers: { authorization } });
    const body = expectError(response, 401, 'invalid_api_key');
    expect(body).not.toHaveProperty('payment');
    expect(body).not.toHaveProperty('accepts');
    // No nonce was issued on the way.
    const db = new Database(context.dbPath, { readonly: true });
    try {
      expect(db.prepare('SELECT count(*) AS n FROM payment_nonces').get()).toEqual({ n: 0 });
    } finally {
      db.close();
    }
  });

  it('an expired key is refused once the clock passes expiresAt', async () => {
    const { app, store, clock } = await start();
    const key = await createEnterpriseKey(store, { expiresAt: T0 + 60_000 });
    expect((await detectWithKey(app, PAYPAL, key.bearer)).statusCode).toBe(200);
    clock.set(T0 + 60_000);
    expectError(await detectWithKey(app, PAYPAL, key.bearer), 401, 'invalid_api_key');
  });

  it('a revoked key works until revoked and is refused on the very next request', async () => {
    const { app, store, clock } = await start();
    const key = await createEnterpriseKey(store);
    expect((await detectWithKey(app, PAYPAL, key.bearer)).statusCode).toBe(200);
    expect(await store.keys.revokeKey(key.id, clock.now())).toBe('revoked');
    expectError(await detectWithKey(app, PAYPAL, key.bearer), 401, 'invalid_api_key');
  });
});

describe('405 and 404', () => {
  it('GET /v1/detect is 405 with Allow: POST', async () => {
    const { app } = await start();
    const response = await app.inject({ method: 'GET', url: '/v1/detect' });
    expectError(response, 405, 'method_not_allowed');
    expect(response.headers.allow).toBe('POST');
  });

  it('an unknown path is 404 with the JSON error body', async () => {
    const { app } = await start();
    expectError(await app.inject({ method: 'GET', url: '/v1/nope' }), 404, 'not_found');
  });
});

/** Assert a 429 with `Retry-After` and `retry_after` ≥ 1, equal to each other. */
function expectRateLimited(response: LightMyRequestResponse): Record<string, unknown> {
  const body = expectError(response, 429, 'rate_limited');
  expect(body.retry_after).toBeGreaterThanOrEqual(1);
  expect(Number(response.headers['retry-after'])).toBe(body.retry_after);
  return body;
}

describe('429 rate_limited', () => {
  const env = { RATE_LIMIT_PUBLIC_PER_MINUTE: '3' };

  it('public limit: the 4th request from one IP is refused; another IP is not', async () => {
    const { app } = await start({ env });
    for (let i = 0; i < 3; i++) expect((await detect(app, { url: PAYPAL })).statusCode).toBe(402);
    expectRateLimited(await detect(app, { url: PAYPAL }));
    const other = await detect(app, { url: PAYPAL }, { remoteAddress: '198.51.100.7' });
    expect(other.statusCode).toBe(402);
  });

  it('per-key limit: the 3rd request of a 2/min key is refused', async () => {
    const { app, store } = await start({ env });
    const key = await createEnterpriseKey(store, { rateLimitPerMinute: 2 });
    expect((await detectWithKey(app, PAYPAL, key.bearer)).statusCode).toBe(200);
    expect((await detectWithKey(app, PAYPAL, key.bearer)).statusCode).toBe(200);
    const refused = await detectWithKey(app, PAYPAL, key.bearer);
    expect(expectRateLimited(refused)).not.toHaveProperty('reason', 'monthly_allowance');
    expect(rateLimitHeaders(refused)).toMatchObject({ limit: 2, remaining: 0 });
  });

  it('two keys with the same limit have independent budgets', async () => {
    const { app, store } = await start({ env });
    const a = await createEnterpriseKey(store, { rateLimitPerMinute: 2 });
    const b = await createEnterpriseKey(store, { rateLimitPerMinute: 2 });
    for (let i = 0; i < 2; i++) await detectWithKey(app, PAYPAL, a.bearer);
    expectRateLimited(await detectWithKey(app, PAYPAL, a.bearer));
    expect((await detectWithKey(app, PAYPAL, b.bearer)).statusCode).toBe(200);
    expect((await detectWithKey(app, PAYPAL, b.bearer)).statusCode).toBe(200);
  });

  it('keyed traffic does not spend the public budget', async () => {
    const { app, store } = await start({ env });
    const key = await createEnterpriseKey(store);
    for (let i = 0; i < 5; i++)
      expect((await detectWithKey(app, PAYPAL, key.bearer)).statusCode).toBe(200);
    const unkeyed = await detect(app, { url: PAYPAL });
    expect(unkeyed.statusCode).toBe(402);
    expect(rateLimitHeaders(unkeyed)).toMatchObject({ limit: 3, remaining: 2 });
  });

  it('a hard-capped key is refused above its monthly allowance; a soft one is not', async () => {
    const { app, store, clock } = await start();
    const capped = await createEnterpriseKey(store, { monthlyAllowance: 2, hardCap: true });
    const soft = await createEnterpriseKey(store, { monthlyAllowance: 2, hardCap: false });
    for (let i = 0; i < 2; i++) {
      expect((await detectWithKey(app, PAYPAL, capped.bearer)).statusCode).toBe(200);
      expect((await detectWithKey(app, PAYPAL, soft.bearer)).statusCode).toBe(200);
    }
    const refused = await detectWithKey(app, PAYPAL, capped.bearer);
    expect(expectRateLimited(refused).reason).toBe('monthly_allowance');
    for (let i = 0; i < 2; i++)
      expect((await detectWithKey(app, PAYPAL, soft.bearer)).statusCode).toBe(200);
    // The refused request was not served, so it is not in the usage log.
    const usage = await store.usage.usageByMonth(monthOf(clock.now()), capped.id);
    expect(usage.map((u) => u.requests)).toEqual([2]);
  });
});

describe('RateLimit-Policy and RateLimit (draft-ietf-httpapi-ratelimit-headers-11)', () => {
  it('name the budget and match the older fields on 200 and 429', async () => {
    const { app, store } = await start({ env: { RATE_LIMIT_PUBLIC_PER_MINUTE: '1' } });
    const key = await createEnterpriseKey(store, { rateLimitPerMinute: 7 });
    const ok = await detectWithKey(app, PAYPAL, key.bearer);
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['ratelimit-policy']).toBe('"per-key";q=7;w=60');
    expect(ok.headers.ratelimit).toBe(`"per-key";r=6;t=${String(ok.headers['ratelimit-reset'])}`);
    expect(rateLimitHeaders(ok)).toMatchObject({ limit: 7, remaining: 6 });

    expect((await detect(app, { url: PAYPAL })).headers.ratelimit).toMatch(/^"per-ip";r=0;t=\d+$/);
    const refused = await detect(app, { url: PAYPAL });
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['ratelimit-policy']).toBe('"per-ip";q=1;w=60');
    const t = Number(refused.headers['retry-after']);
    expect(t).toBeGreaterThanOrEqual(1);
    expect(t).toBeLessThanOrEqual(60);
    expect(refused.headers.ratelimit).toBe(`"per-ip";r=0;t=${t}`);
    expect(rateLimitHeaders(refused)).toEqual({ limit: 1, remaining: 0, reset: t });
  });

  it('report the public budget without counting on a 400', async () => {
    const { app } = await start({ env: { RATE_LIMIT_PUBLIC_PER_MINUTE: '5' } });
    const invalid = await detect(app, { url: 'http://127.0.0.1/' });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.headers['ratelimit-policy']).toBe('"per-ip";q=5;w=60');
    expect(invalid.headers.ratelimit).toBe('"per-ip";r=5;t=60');
  });
});

describe('RateLimit-* headers on every detect response', () => {
  it('are present on 402, 401, 400, 429 and 200, and remaining counts down', async () => {
    const { app, store } = await start({ env: { RATE_LIMIT_PUBLIC_PER_MINUTE: '4' } });
    const seen: { status: number; limit: number; remaining: number; reset: number }[] = [];
    const record = (response: LightMyRequestResponse): void => {
      seen.push({ status: response.statusCode, ...rateLimitHeaders(response) });
    };
    record(await detect(app, { url: PAYPAL })); // 402, spends 1
    const unknown = `Bearer sk_live_${'B'.repeat(43)}`;
    record(await detect(app, { url: PAYPAL }, { headers: { authorization: unknown } })); // 401
    record(await detect(app, { url: 'http://127.0.0.1/' })); // 400, reported, not spent
    record(await detect(app, { url: PAYPAL })); // 402
    record(await detect(app, { url: PAYPAL })); // 402, last one
    record(await detect(app, { url: PAYPAL })); // 429
    const key = await createEnterpriseKey(store, { rateLimitPerMinute: 10 });
    record(await detectWithKey(app, PAYPAL, key.bearer)); // 200
    record(await detectWithKey(app, PAYPAL, key.bearer)); // 200

    expect(seen.map((s) => s.status)).toEqual([402, 401, 400, 402, 402, 429, 200, 200]);
    for (const s of seen) {
      expect(Number.isInteger(s.limit) && Number.isInteger(s.remaining)).toBe(true);
      expect(s.reset).toBeGreaterThanOrEqual(1);
      expect(s.reset).toBeLessThanOrEqual(60);
    }
    expect(seen.map((s) => s.limit)).toEqual([4, 4, 4, 4, 4, 4, 10, 10]);
    expect(seen.map((s) => s.remaining)).toEqual([3, 2, 2, 1, 0, 0, 9, 8]);
  });
});
