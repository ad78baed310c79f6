/**
 * `POST /v1/detect` with an enterprise key: the 200 body (spec §2.2–2.5, DESIGN §4.10–4.11), the
 * response headers, and the usage log (DESIGN §3 step 4, §8: key id, verdict and a truncated
 * SHA-256 of the normalized URL, never the URL itself). Verdict categories are asserted only for
 * unambiguous URLs; reasons, scores and patterns belong to the engine's own tests.
 */
import { createHash } from 'node:crypto';

import Database from 'better-sqlite3';
import type { LightMyRequestResponse } from 'fastify';
import { Compile } from 'typebox/compile';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { VerdictSchema } from '../../src/api/verdict-schema.js';
import { monthOf } from '../../src/clock.js';
import type { Engine } from '../../src/engine/create-engine.js';
import { detect, detectWithKey } from '../helpers/detect-request.js';
import { type CreatedKey, createEnterpriseKey } from '../helpers/enterprise-key.js';
import { CHAIN_ENV, createTestApp, sharedEngine, type TestContext } from '../helpers/test-app.js';

/** DESIGN §4.10, written out here so a signal dropped by the engine fails this test. */
const SIGNALS = [
  'brand_impersonation',
  'credential_phishing',
  'account_phishing',
  'crypto_scam',
  'crypto_airdrop_scam',
  'crypto_giveaway_scam',
  'wallet_drainer',
  'seed_phrase_phishing',
  'fake_captcha',
  'pastejacking',
  'tech_support_scam',
  'delivery_scam',
  'government_impersonation',
  'invoice_scam',
  'no_contact_info',
  'domain_mismatch',
  'fake_urgency',
  'too_good_prices',
  'suspicious_payment',
  'fresh_domain',
  'disposable_tld',
  'free_hosting_subdomain',
  'known_threat',
];

/** spec §2.5 / DESIGN §4.11: every field always present. */
const DETAILS = [
  'matched_brand',
  'official_domain',
  'domain_matches_brand',
  'target_country',
  'page_language',
  'tld',
  'domain_age_days',
  'matched_patterns',
];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');
const verdictValidator = Compile(VerdictSchema);

let engine: Engine;
let ctx: TestContext;
let key: CreatedKey;

beforeAll(() => {
  engine = sharedEngine();
});

beforeEach(async () => {
  ctx = await createTestApp(engine, { env: { ...CHAIN_ENV } });
  key = await createEnterpriseKey(ctx.store);
});

afterEach(async () => {
  await ctx.cleanup();
});

function expectVerdictBody(response: LightMyRequestResponse): Record<string, unknown> {
  expect(response.statusCode).toBe(200);
  const body: unknown = response.json();
  const errors = [...verdictValidator.Errors(body)];
  expect(errors).toEqual([]);
  expect(verdictValidator.Check(body)).toBe(true);
  return body as Record<string, unknown>;
}

describe('200 verdict body', () => {
  it.each([
    ['https://paypal.com', 'safe', null],
    ['https://metamask-restore-wallet.com', 'danger', 'MetaMask'],
    ['https://paypal.com.account-check.example.top', 'danger', 'PayPal'],
  ])('%s → %s', async (url, verdict, brand) => {
    const body = expectVerdictBody(await detectWithKey(ctx.app, url, key.bearer));
    expect(body.verdict).toBe(verdict);
    if (brand !== null) expect(body.brand).toBe(brand);
  });

  it('carries all 23 signals, fresh_domain null, and every details field', async () => {
    const url = 'https://metamask-restore-wallet.com';
    const body = expectVerdictBody(await detectWithKey(ctx.app, url, key.bearer));
    const signals = body.signals as Record<string, unknown>;
    expect(Object.keys(signals).sort()).toEqual([...SIGNALS].sort());
    expect(signals.fresh_domain).toBeNull();
    for (const name of SIGNALS.filter((s) => s !== 'fresh_domain'))
      expect(typeof signals[name], name).toBe('boolean');
    const details = body.details as Record<string, unknown>;
    expect(Object.keys(details).sort()).toEqual([...DETAILS].sort());
    expect(Array.isArray(details.matched_patterns)).toBe(true);
    expect(details.domain_age_days).toBeNull();
  });

  it('accepts a bare host (metamask.io) and reads it as https://metamask.io/', async () => {
    const body = expectVerdictBody(await detectWithKey(ctx.app, 'metamask.io', key.bearer));
    expect(body.verdict).toBe('safe');
    await ctx.store.usage.flush();
    const db = new Database(ctx.dbPath, { readonly: true });
    try {
      const row = db.prepare('SELECT url_hash AS h FROM usage_events').get() as { h: string };
      expect(row.h).toBe(sha256('https://metamask.io/').slice(0, 16));
    } finally {
      db.close();
    }
  });

  it('two keys get the identical body for the same URL', async () => {
    const other = await createEnterpriseKey(ctx.store, { name: 'Globex' });
    const url = 'https://paypal.com.account-check.example.top';
    const first = await detectWithKey(ctx.app, url, key.bearer);
    const second = await detectWithKey(ctx.app, url, other.bearer);
    expectVerdictBody(first);
    expect(second.statusCode).toBe(200);
    expect(second.body).toBe(first.body);
  });
});

describe('headers', () => {
  it('X-Request-Id is on every response, a UUID when the client sent none', async () => {
    const { app } = ctx;
    const responses = [
      await detectWithKey(app, 'https://paypal.com', key.bearer),
      await detect(app, { url: 'https://paypal.com' }),
      await detect(app, {}),
      await detect(app, { url: 'https://paypal.com' }, { headers: { authorization: 'Basic x' } }),
      await app.inject({ method: 'GET', url: '/v1/detect' }),
      await app.inject({ method: 'GET', url: '/nowhere' }),
      await app.inject({ method: 'GET', url: '/v1/status' }),
      await app.inject({ method: 'GET', url: '/v1/openapi.json' }),
    ];
    expect(responses.map((r) => r.statusCode)).toEqual([200, 402, 400, 401, 405, 404, 200, 200]);
    const ids = responses.map((r) => r.headers['x-request-id']);
    for (const id of ids) expect(id).toMatch(UUID);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('echoes a safe incoming X-Request-Id', async () => {
    const headers = { 'x-request-id': 'client-req_42.a:b' };
    const response = await detectWithKey(ctx.app, 'https://paypal.com', key.bearer, { headers });
    expect(response.headers['x-request-id']).toBe('client-req_42.a:b');
  });

  it.each([
    ['spaces and a newline', 'a b\n'],
    ['too long', 'x'.repeat(65)],
    ['too short', 'abc'],
  ])('replaces an unsafe incoming X-Request-Id (%s)', async (_label, incoming) => {
    const headers = { 'x-request-id': incoming };
    const response = await detectWithKey(ctx.app, 'https://paypal.com', key.bearer, { headers });
    expect(response.headers['x-request-id']).toMatch(UUID);
  });

  it('Cache-Control: no-store on 200 and 402', async () => {
    const ok = await detectWithKey(ctx.app, 'https://paypal.com', key.bearer);
    const challenge = await detect(ctx.app, { url: 'https://paypal.com' });
    expect(ok.headers['cache-control']).toBe('no-store');
    expect(challenge.statusCode).toBe(402);
    expect(challenge.headers['cache-control']).toBe('no-store');
  });
});

describe('usage log', () => {
  const requests = [
    ['https://paypal.com', 'https://paypal.com/', 'safe'],
    [
      'HTTPS://MetaMask-Restore-Wallet.com/seed?step=2',
      'https://metamask-restore-wallet.com/seed?step=2',
      'danger',
    ],
    [
      'https://paypal.com.account-check.example.top/login',
      'https://paypal.com.account-check.example.top/login',
      'danger',
    ],
  ] as const;

  it('writes one row per request: key id, verdict and the truncated hash of the normalized URL', async () => {
    for (const [url] of requests)
      expect((await detectWithKey(ctx.app, url, key.bearer)).statusCode).toBe(200);
    // Requests that are not served (no key, bad input) write nothing.
    await detect(ctx.app, { url: 'https://paypal.com' });
    await detectWithKey(ctx.app, 'http://10.0.0.1/', key.bearer);

    await ctx.store.usage.flush();
    const db = new Database(ctx.dbPath, { readonly: true });
    try {
      const rows = db
        .prepare('SELECT key_id, url_hash, verdict FROM usage_events ORDER BY rowid')
        .all() as { key_id: string; url_hash: string; verdict: string }[];
      expect(rows).toEqual(
        requests.map(([, normalized, verdict]) => ({
          key_id: key.id,
          url_hash: sha256(normalized).slice(0, 16),
          verdict,
        })),
      );
      for (const row of rows) expect(row.url_hash).toMatch(/^[0-9a-f]{16}$/);
    } finally {
      db.close();
    }
  });

  it('no column of any table contains the URL, its host or its path', async () => {
    const url = 'https://metamask-restore-wallet.com/secret-path-7731?ref=zebra';
    expect((await detectWithKey(ctx.app, url, key.bearer)).statusCode).toBe(200);
    expect((await detect(ctx.app, { url })).statusCode).toBe(402); // issues a nonce too
    const needles = ['metamask-restore-wallet', 'secret-path-7731', 'zebra'];
    await ctx.store.usage.flush();
    const db = new Database(ctx.dbPath, { readonly: true });
    try {
      const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as {
        name: string;
      }[];
      expect(tables.map((t) => t.name)).toEqual(
        expect.arrayContaining(['api_keys', 'usage_events', 'payment_nonces']),
      );
      let cells = 0;
      for (const { name } of tables) {
        for (const row of db.prepare(`SELECT * FROM "${name}"`).all() as Record<
          string,
          unknown
        >[]) {
          for (const value of Object.values(row)) {
            cells++;
            const text = Buffer.isBuffer(value) ? value.toString('latin1') : String(value);
            for (const needle of needles) expect(text.toLowerCase()).not.toContain(needle);
          }
        }
      }
      expect(cells).toBeGreaterThan(10);
    } finally {
      db.close();
    }
  });

  it('usageByMonth counts the requests by verdict (what `keys usage` reports)', async () => {
    const other = await createEnterpriseKey(ctx.store);
    for (const [url] of requests) await detectWithKey(ctx.app, url, key.bearer);
    await detectWithKey(ctx.app, 'https://paypal.com', other.bearer);
    const month = monthOf(ctx.clock.now());
    expect(await ctx.store.usage.usageByMonth(month, key.id)).toEqual([
      { keyId: key.id, month, requests: 3, safe: 1, caution: 0, danger: 2 },
    ]);
    const all = await ctx.store.usage.usageByMonth(month, null);
    expect(all.map((u) => [u.keyId, u.requests])).toEqual([
      [key.id, 3],
      [other.id, 1],
    ]);
    // T0 is in March 2026: the next month is empty.
    expect(await ctx.store.usage.usageByMonth('2026-04', null)).toEqual([]);
  });
});
