/**
 * The 402 challenge of `POST /v1/detect` without a key (spec §2.6, §3, §5; DESIGN §4.1, §4.2,
 * §4.6): both body shapes, the stored nonce, the configurable prefix, which chains are offered.
 * Proofs: payment-proofs.test.ts (no chain) and test/payments/ (real local chains).
 */
import { createHash, createHmac } from 'node:crypto';

import Database from 'better-sqlite3';
import type { LightMyRequestResponse } from 'fastify';
import { Compile } from 'typebox/compile';
import { describe, expect, it } from 'vitest';
import { PaymentRequirementsSchema } from 'x402/types';

import { PaymentChallengeSchema } from '../../src/api/error-schemas.js';
import { detect } from '../helpers/detect-request.js';
import {
  BASE_RECIPIENT,
  SOLANA_RECIPIENT,
  T0,
  type TestContext,
  useTestApp,
} from '../helpers/test-app.js';

/** Circle's USDC addresses (developers.circle.com/stablecoins/usdc-contract-addresses). */
const SOLANA_USDC_MINT = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const BASE_USDC = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
const PUBLIC_BASE_URL = 'https://api.linkguard.example.com';
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const TTL_MS = 600_000;

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');
/** The nonce's URL binding: HMAC-SHA256 of the URL's SHA-256 under the server secret. */
const urlKey = (secret: string, url: string): string =>
  createHmac('sha256', secret)
    .update(`payment-nonce-url:${sha256(url)}`)
    .digest('hex');
/** The secret the store keeps (the candidate is ignored once one exists). */
const storedSecret = (store: TestContext['store']): Promise<string> =>
  store.payments.serverSecret('payment-nonce-url', 'not-used', 0);
const challengeValidator = Compile(PaymentChallengeSchema);

interface Option extends Record<string, unknown> {
  chain: string;
  nonce: string;
  alternatives?: Option[];
}
interface Accepts extends Record<string, unknown> {
  network: string;
  extra: Record<string, unknown>;
}
interface Challenge extends Record<string, unknown> {
  error: string;
  payment: Option | null;
  accepts: Accepts[];
}

const startApp = useTestApp({ env: { PUBLIC_BASE_URL } });

function start(env: Record<string, string>): Promise<TestContext> {
  return startApp({ env });
}

const bothChains = { SOLANA_RECIPIENT, BASE_RECIPIENT };

function expectChallenge(response: LightMyRequestResponse, error: string): Challenge {
  expect(response.statusCode).toBe(402);
  const body: unknown = response.json();
  expect([...challengeValidator.Errors(body)]).toEqual([]);
  const challenge = body as Challenge;
  expect(challenge).toMatchObject({ status: 402, error, x402Version: 1 });
  expect(typeof challenge.message).toBe('string');
  return challenge;
}

function nonceCount(dbPath: string): number {
  const db = new Database(dbPath, { readonly: true });
  try {
    return (db.prepare('SELECT count(*) AS n FROM payment_nonces').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

describe('402 payment_required', () => {
  it('carries the spec `payment` shape: Solana first, Base as the alternative', async () => {
    const { app } = await start(bothChains);
    const body = expectChallenge(
      await detect(app, { url: 'https://paypal.com' }),
      'payment_required',
    );
    const payment = body.payment;
    expect(payment).not.toBeNull();
    const nonce = payment?.nonce ?? '';
    expect(nonce).toMatch(UUID_V4);
    const expires = new Date(T0 + TTL_MS).toISOString();
    expect(payment).toEqual({
      amount: '0.01',
      token: 'USDC',
      token_mint: SOLANA_USDC_MINT,
      chain: 'solana',
      recipient: SOLANA_RECIPIENT,
      nonce,
      memo_format: `linkguard:${nonce}`,
      expires_at: expires,
      alternatives: [
        {
          amount: '0.01',
          token: 'USDC',
          chain: 'base',
          chain_id: 8453,
          token_contract: BASE_USDC,
          recipient: BASE_RECIPIENT,
          nonce,
          nonce_binding: 'eip191',
          sign_message: `linkguard:${nonce}`,
          expires_at: expires,
        },
      ],
    });
  });

  it('carries the x402 v1 `accepts` envelope with the same nonce', async () => {
    const { app } = await start(bothChains);
    const body = expectChallenge(
      await detect(app, { url: 'https://paypal.com' }),
      'payment_required',
    );
    const nonce = body.payment?.nonce ?? '';
    const common = {
      scheme: 'exact',
      maxAmountRequired: '10000',
      resource: `${PUBLIC_BASE_URL}/v1/detect`,
      mimeType: 'application/json',
      maxTimeoutSeconds: 600,
    };
    expect(body.accepts).toHaveLength(2);
    expect(body.accepts[0]).toMatchObject({
      ...common,
      network: 'solana',
      payTo: SOLANA_RECIPIENT,
      asset: SOLANA_USDC_MINT,
      extra: { nonce, memo_template: 'linkguard:<nonce>' },
    });
    expect(body.accepts[1]).toMatchObject({
      ...common,
      network: 'base',
      payTo: BASE_RECIPIENT,
      asset: BASE_USDC,
      extra: { nonce, sign_message_template: 'linkguard:<nonce>', min_confirmations: 2 },
    });
    expect(body.accepts[0]?.extra).not.toHaveProperty('min_confirmations');
    for (const entry of body.accepts) expect(typeof entry.description).toBe('string');
  });

  it('has `accepts` entries that are valid x402 v1 PaymentRequirements (x402 npm package)', async () => {
    const { app } = await start(bothChains);
    const body = expectChallenge(
      await detect(app, { url: 'https://paypal.com' }),
      'payment_required',
    );
    expect(body.accepts).toHaveLength(2);
    for (const entry of body.accepts) {
      const parsed = PaymentRequirementsSchema.safeParse(entry);
      expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
    }
    // A wrong entry does fail that schema (the check can fail).
    const broken = { ...body.accepts[0], maxAmountRequired: '0.01' };
    expect(PaymentRequirementsSchema.safeParse(broken).success).toBe(false);
  });

  it('stores the nonce with the clock time, a 600 s life and the keyed digest of the normalized URL', async () => {
    const { app, store } = await start(bothChains);
    const body = expectChallenge(
      await detect(app, { url: 'HTTPS://PayPal.COM' }),
      'payment_required',
    );
    const nonce = body.payment?.nonce ?? '';
    const secret = await storedSecret(store);
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    expect(await store.payments.findNonce(nonce)).toEqual({
      nonce,
      urlHash: urlKey(secret, 'https://paypal.com/'),
      issuedAt: T0,
      expiresAt: T0 + TTL_MS,
      consumedAt: null,
    });
  });

  it('never stores the plain SHA-256 of the URL (a guessable URL could be tested against it)', async () => {
    const { app, store } = await start(bothChains);
    const body = expectChallenge(await detect(app, { url: 'paypal.com' }), 'payment_required');
    const stored = await store.payments.findNonce(body.payment?.nonce ?? '');
    expect(stored?.urlHash).toMatch(/^[0-9a-f]{64}$/);
    expect(stored?.urlHash).not.toBe(sha256('https://paypal.com/'));
  });

  it('keys the binding with LINKGUARD_SECRET when it is set', async () => {
    const secret = 'k'.repeat(40);
    const { app, store } = await start({ ...bothChains, LINKGUARD_SECRET: secret });
    const body = expectChallenge(await detect(app, { url: 'paypal.com' }), 'payment_required');
    const stored = await store.payments.findNonce(body.payment?.nonce ?? '');
    expect(stored?.urlHash).toBe(urlKey(secret, 'https://paypal.com/'));
  });

  it('binds the nonce of a bare host to its https:// form', async () => {
    const { app, store } = await start(bothChains);
    const body = expectChallenge(await detect(app, { url: 'metamask.io' }), 'payment_required');
    const stored = await store.payments.findNonce(body.payment?.nonce ?? '');
    expect(stored?.urlHash).toBe(urlKey(await storedSecret(store), 'https://metamask.io/'));
  });

  it('issues a new nonce on every 402', async () => {
    const context = await start(bothChains);
    const nonces: string[] = [];
    for (let i = 0; i < 3; i++) {
      context.clock.advance(1000);
      const body = expectChallenge(
        await detect(context.app, { url: 'https://paypal.com' }),
        'payment_required',
      );
      nonces.push(body.payment?.nonce ?? '');
      expect((await context.store.payments.findNonce(nonces[i] ?? ''))?.issuedAt).toBe(
        T0 + 1000 * (i + 1),
      );
    }
    expect(new Set(nonces).size).toBe(3);
    expect(nonceCount(context.dbPath)).toBe(3);
  });

  it('X402_PREFIX changes the memo, the message and both templates', async () => {
    const { app } = await start({ ...bothChains, X402_PREFIX: 'acme-pay' });
    const body = expectChallenge(
      await detect(app, { url: 'https://paypal.com' }),
      'payment_required',
    );
    const nonce = body.payment?.nonce ?? '';
    expect(body.payment?.memo_format).toBe(`acme-pay:${nonce}`);
    expect(body.payment?.alternatives?.[0]?.sign_message).toBe(`acme-pay:${nonce}`);
    expect(body.accepts[0]?.extra.memo_template).toBe('acme-pay:<nonce>');
    expect(body.accepts[1]?.extra.sign_message_template).toBe('acme-pay:<nonce>');
    expect(JSON.stringify(body)).not.toContain('linkguard:');
  });

  it('with only BASE_RECIPIENT, Solana is not offered', async () => {
    const { app } = await start({ BASE_RECIPIENT });
    const body = expectChallenge(
      await detect(app, { url: 'https://paypal.com' }),
      'payment_required',
    );
    expect(body.payment).toMatchObject({
      chain: 'base',
      recipient: BASE_RECIPIENT,
      alternatives: [],
    });
    expect(body.payment).not.toHaveProperty('token_mint');
    expect(body.accepts.map((a) => a.network)).toEqual(['base']);
    // (The human `message` is not checked: it still says "Solana or Base"; reported, cosmetic.)
    expect(JSON.stringify([body.payment, body.accepts])).not.toMatch(/solana|EPjFWdd5/i);
  });

  it('with no recipient at all, payment is null, accepts is empty and no nonce is stored', async () => {
    const { app, dbPath } = await start({});
    const body = expectChallenge(
      await detect(app, { url: 'https://paypal.com' }),
      'payment_required',
    );
    expect(body.payment).toBeNull();
    expect(body.accepts).toEqual([]);
    expect(body.message).toMatch(/key/i);
    expect(nonceCount(dbPath)).toBe(0);
  });
});
