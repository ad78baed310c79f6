/**
 * Standard x402 `exact` payments on Base (README, "Paying per request (x402)"; docs/decisions.md,
 * decisions 151–156): the unmodified official clients — `x402-fetch` 1.2.0 (protocol v1) and
 * `@x402/fetch` + `@x402/evm` 2.27.0 (protocol v2) — pay the service listening on loopback with
 * signed EIP-3009 authorizations, which the service settles itself on a real local chain (anvil
 * answering as Base, the test USDC with EIP-3009 at the real USDC address) with the settlement
 * account of BASE_SETTLEMENT_PRIVATE_KEY, then claims in its store. Negative cases: wrong amount,
 * wrong recipient, expired authorization, replay (409), RPC outage (503, nothing consumed, the
 * same payment works afterwards).
 */
import type { AddressInfo } from 'node:net';

import { decodePaymentRequiredHeader, decodePaymentResponseHeader } from '@x402/core/http';
import { registerExactEvmScheme } from '@x402/evm/exact/client';
import { wrapFetchWithPayment as wrapFetchV2, x402Client } from '@x402/fetch';
import Database from 'better-sqlite3';
import {
  type Address,
  createTestClient,
  createWalletClient,
  type Hex,
  http,
  publicActions,
} from 'viem';
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts';
import { base } from 'viem/chains';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createPaymentHeader } from 'x402/client';
import type { PaymentRequirements as PaymentRequirementsV1, Signer } from 'x402/types';
import { decodeXPaymentResponse, wrapFetchWithPayment as wrapFetchV1 } from 'x402-fetch';

import {
  type LocalBase,
  type RpcProxy,
  startLocalBase,
  startRpcProxy,
} from '../../scripts/local-chains/index.js';
import { testClock, type TestContext, useTestApp } from '../helpers/test-app.js';

/**
 * The platform fetch, for requests to the service on loopback: the official clients wrap a
 * fetch, and the SSRF-safe client of src/net is for the service's own outbound requests.
 */
const loopbackFetch: typeof fetch = globalThis.fetch;

const PRICE = 10_000n;
const BODY = JSON.stringify({ url: 'https://example.com/' });
const ONE_ETH = 10n ** 18n;
const METRICS_TOKEN = 'x402-exact-metrics-token';

let chain: LocalBase;
let proxy: RpcProxy;
beforeAll(async () => {
  chain = await startLocalBase();
  proxy = await startRpcProxy(chain.rpcUrl);
});
afterAll(async () => {
  await proxy.close();
  await chain.stop();
});
afterEach(() => {
  proxy.setMode('up');
});

const startApp = useTestApp();

interface Setup {
  context: TestContext;
  url: string;
  recipient: Address;
  payer: PrivateKeyAccount;
  settler: Address;
  settlementKey: Hex;
}

/**
 * The service on 127.0.0.1 offering Base, settling with a fresh settlement account that holds
 * gas ETH; its clock is the real one (EIP-3009 validity is checked against the chain's time).
 */
async function setup(env: Record<string, string> = {}): Promise<Setup> {
  const recipient = privateKeyToAccount(generatePrivateKey()).address;
  const settlementKey = generatePrivateKey();
  const settler = privateKeyToAccount(settlementKey).address;
  await createTestClient({ mode: 'anvil', chain: base, transport: http(chain.rpcUrl) }).setBalance({
    address: settler,
    value: ONE_ETH,
  });
  const context = await startApp({
    clock: testClock(Date.now()),
    env: {
      BASE_RECIPIENT: recipient,
      BASE_RPC_URL: proxy.url,
      BASE_SETTLEMENT_PRIVATE_KEY: settlementKey,
      ...env,
    },
  });
  await context.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = context.app.server.address() as AddressInfo;
  const payer = await chain.newFundedAccount(1_000_000n);
  return {
    context,
    url: `http://127.0.0.1:${port}/v1/detect`,
    recipient,
    payer,
    settler,
    settlementKey,
  };
}

function post(init: RequestInit = {}): RequestInit {
  return {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(init.headers as Record<string, string>) },
    body: BODY,
  };
}

/** The payer's wallet as x402 v1 clients take it: a viem wallet client on Base (chain 8453). */
function v1Wallet(payer: PrivateKeyAccount): Signer {
  const wallet = createWalletClient({ account: payer, chain: base, transport: http(chain.rpcUrl) });
  // x402 1.2.0 types its wallet against its own viem copy; the object is a viem wallet client
  // with public actions, which is what it documents.
  return wallet.extend(publicActions) as unknown as Signer;
}

function v2Fetch(payer: PrivateKeyAccount): typeof fetch {
  const client = new x402Client();
  registerExactEvmScheme(client, { signer: payer });
  return wrapFetchV2(loopbackFetch, client);
}

function claimCount(s: Setup): number {
  const db = new Database(s.context.dbPath, { readonly: true });
  try {
    return db.prepare('SELECT count(*) FROM payment_claims').pluck().get() as number;
  } finally {
    db.close();
  }
}

/** The v1 402 body's Base entry, as x402-fetch parses it. */
async function v1Requirements(s: Setup): Promise<PaymentRequirementsV1> {
  const response = await loopbackFetch(s.url, post());
  expect(response.status).toBe(402);
  const body = (await response.json()) as { accepts: PaymentRequirementsV1[] };
  const entry = body.accepts.find((a) => a.network === 'base');
  if (entry === undefined) throw new Error('no base entry');
  return entry;
}

/** An X-PAYMENT made by the official v1 client for `requirements`. */
function v1Payment(s: Setup, requirements: PaymentRequirementsV1): Promise<string> {
  return createPaymentHeader(v1Wallet(s.payer), 1, requirements);
}

async function expectRefused(response: Response, reason: string): Promise<void> {
  expect(response.status).toBe(402);
  const body = (await response.json()) as { reason?: string };
  expect(body.reason).toBe(reason);
}

describe('protocol v1 (x402-fetch)', () => {
  it('offers what the official client needs in the body', async () => {
    const s = await setup();
    const entry = await v1Requirements(s);
    expect(entry).toMatchObject({
      scheme: 'exact',
      network: 'base',
      maxAmountRequired: PRICE.toString(),
      payTo: s.recipient,
      asset: chain.usdc,
      maxTimeoutSeconds: 600,
      extra: { name: 'USD Coin', version: '2' },
    });
  });

  it('pays with the unmodified client, settled and claimed; a replay is 409', async () => {
    const s = await setup({ METRICS_TOKEN });
    const pay = wrapFetchV1(loopbackFetch, v1Wallet(s.payer));
    const response = await pay(s.url, post());
    expect(response.status, await response.clone().text()).toBe(200);
    expect(await response.json()).toMatchObject({ verdict: 'safe' });
    const settlement = decodeXPaymentResponse(response.headers.get('x-payment-response') ?? '');
    expect(settlement).toMatchObject({ success: true, network: 'base', payer: s.payer.address });
    expect(settlement.transaction).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await chain.balanceOf(chain.usdc, s.recipient)).toBe(PRICE);
    expect(await chain.balanceOf(chain.usdc, s.payer.address)).toBe(1_000_000n - PRICE);
    expect(claimCount(s)).toBe(1);

    // The same X-PAYMENT again: the authorization paid once.
    const payment = await v1Payment(s, await v1Requirements(s));
    const first = await loopbackFetch(s.url, post({ headers: { 'x-payment': payment } }));
    expect(first.status).toBe(200);
    const replay = await loopbackFetch(s.url, post({ headers: { 'x-payment': payment } }));
    expect(replay.status).toBe(409);
    expect(((await replay.json()) as { error: string }).error).toBe('nonce_already_used');
    expect(claimCount(s)).toBe(2);
    expect(await chain.balanceOf(chain.usdc, s.recipient)).toBe(2n * PRICE);

    // Nothing of the payment or the settlement account reaches the logs.
    const logs = s.context.logs.text().toLowerCase();
    expect(logs).toContain('paid request');
    for (const secret of [s.payer.address, s.settlementKey, s.settlementKey.slice(2), payment]) {
      expect(logs).not.toContain(secret.toLowerCase());
    }
    expect(logs).not.toContain(settlement.transaction.toLowerCase());

    // Counted like the spec's own payments: two paid, one replay refused, by chain and reason.
    const scraped = await loopbackFetch(s.url.replace('/v1/detect', '/metrics'), {
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    const text = await scraped.text();
    expect(text).toContain('linkguard_payments_total{chain="base",outcome="paid",reason="none"} 2');
    expect(text).toContain(
      'linkguard_payments_total{chain="base",outcome="refused",reason="nonce_already_used"} 1',
    );
    expect(text.toLowerCase()).not.toContain(s.payer.address.toLowerCase());
  });

  it('refuses a wrong amount, a wrong recipient and an expired authorization, charging nothing', async () => {
    const s = await setup();
    const requirements = await v1Requirements(s);
    const cases: [PaymentRequirementsV1, string][] = [
      [{ ...requirements, maxAmountRequired: (PRICE - 1n).toString() }, 'amount_mismatch'],
      [
        { ...requirements, payTo: privateKeyToAccount(generatePrivateKey()).address },
        'wrong_recipient',
      ],
      // validBefore 3 s ahead: already inside the facilitator's 6 s safety margin.
      [{ ...requirements, maxTimeoutSeconds: 3 }, 'authorization_expired'],
      // Valid for a day: longer than a nonce lives.
      [{ ...requirements, maxTimeoutSeconds: 86_400 }, 'authorization_expired'],
    ];
    for (const [tampered, reason] of cases) {
      const payment = await v1Payment(s, tampered);
      await expectRefused(
        await loopbackFetch(s.url, post({ headers: { 'x-payment': payment } })),
        reason,
      );
    }
    expect(claimCount(s)).toBe(0);
    expect(await chain.balanceOf(chain.usdc, s.payer.address)).toBe(1_000_000n);
  });

  it('answers an RPC outage with 503, consuming nothing; the same payment works afterwards', async () => {
    const s = await setup();
    const payment = await v1Payment(s, await v1Requirements(s));
    proxy.setMode('down');
    const down = await loopbackFetch(s.url, post({ headers: { 'x-payment': payment } }));
    expect(down.status).toBe(503);
    expect(((await down.json()) as { error: string }).error).toBe('chain_unavailable');
    expect(down.headers.get('retry-after')).not.toBeNull();
    expect(claimCount(s)).toBe(0);
    expect(await chain.balanceOf(chain.usdc, s.payer.address)).toBe(1_000_000n);
    // The outage is logged (redacted): no payer, payload or settlement key in it.
    const logs = s.context.logs.text().toLowerCase();
    expect(logs).toContain('chain_unavailable');
    for (const secret of [s.payer.address, s.settlementKey.slice(2), payment]) {
      expect(logs).not.toContain(secret.toLowerCase());
    }

    proxy.setMode('up');
    const up = await loopbackFetch(s.url, post({ headers: { 'x-payment': payment } }));
    expect(up.status, await up.clone().text()).toBe(200);
    expect(claimCount(s)).toBe(1);
  });
});

describe('without a settlement account or facilitator', () => {
  it('offers no standard scheme and refuses a standard payment, charging nothing', async () => {
    const offering = await setup();
    const requirements = await v1Requirements(offering);
    const payment = await v1Payment(offering, requirements);
    // One app per test is cleaned up by the hooks: close this one before starting the next.
    await offering.context.cleanup();
    const s = await setup({ BASE_SETTLEMENT_PRIVATE_KEY: '' });
    const response = await loopbackFetch(s.url, post());
    expect(response.status).toBe(402);
    expect(response.headers.get('payment-required')).toBeNull();
    const body = (await response.json()) as { accepts: { extra: Record<string, unknown> }[] };
    expect(body.accepts[0]?.extra).not.toHaveProperty('name');
    await expectRefused(
      await loopbackFetch(s.url, post({ headers: { 'x-payment': payment } })),
      'malformed_proof',
    );
    expect(claimCount(s)).toBe(0);
    expect(await chain.balanceOf(chain.usdc, offering.payer.address)).toBe(1_000_000n);
  });
});

describe('protocol v2 (@x402/fetch + @x402/evm)', () => {
  it('offers PAYMENT-REQUIRED with the challenge nonce', async () => {
    const s = await setup();
    const response = await loopbackFetch(s.url, post());
    expect(response.status).toBe(402);
    const body = (await response.json()) as { payment: { nonce: string } };
    const required = decodePaymentRequiredHeader(response.headers.get('payment-required') ?? '');
    expect(required).toMatchObject({
      x402Version: 2,
      accepts: [
        {
          scheme: 'exact',
          network: 'eip155:8453',
          amount: PRICE.toString(),
          asset: chain.usdc,
          payTo: s.recipient,
          maxTimeoutSeconds: 600,
          extra: { name: 'USD Coin', version: '2', nonce: body.payment.nonce },
        },
      ],
    });
  });

  it('pays with the unmodified client, answered with PAYMENT-RESPONSE; a replay is 409', async () => {
    const s = await setup();
    const response = await v2Fetch(s.payer)(s.url, post());
    expect(response.status, await response.clone().text()).toBe(200);
    expect(await response.json()).toMatchObject({ verdict: 'safe' });
    const settlement = decodePaymentResponseHeader(response.headers.get('payment-response') ?? '');
    expect(settlement).toMatchObject({
      success: true,
      network: 'eip155:8453',
      payer: s.payer.address,
    });
    expect(await chain.balanceOf(chain.usdc, s.recipient)).toBe(PRICE);
    expect(claimCount(s)).toBe(1);

    // Replaying the PAYMENT-SIGNATURE the client sent: its nonce and authorization are spent.
    const signed: Hex[] = [];
    const recording: typeof fetch = async (input, init) => {
      const request = new Request(input, init);
      const header = request.headers.get('payment-signature');
      if (header !== null) signed.push(header as Hex);
      return loopbackFetch(request);
    };
    const client = new x402Client();
    registerExactEvmScheme(client, { signer: s.payer });
    expect((await wrapFetchV2(recording, client)(s.url, post())).status).toBe(200);
    const replay = await loopbackFetch(
      s.url,
      post({ headers: { 'payment-signature': signed[0] ?? '' } }),
    );
    expect(replay.status).toBe(409);
    expect(claimCount(s)).toBe(2);
  });

  it('answers an RPC outage with 503; the same payment works afterwards', async () => {
    const s = await setup();
    const signed: string[] = [];
    const recording: typeof fetch = async (input, init) => {
      const request = new Request(input, init);
      const header = request.headers.get('payment-signature');
      if (header !== null) {
        signed.push(header);
        proxy.setMode('down');
      }
      return loopbackFetch(request);
    };
    const client = new x402Client();
    registerExactEvmScheme(client, { signer: s.payer });
    const down = await wrapFetchV2(recording, client)(s.url, post());
    expect(down.status).toBe(503);
    expect(claimCount(s)).toBe(0);
    proxy.setMode('up');
    const up = await loopbackFetch(
      s.url,
      post({ headers: { 'payment-signature': signed[0] ?? '' } }),
    );
    expect(up.status, await up.clone().text()).toBe(200);
    expect(up.headers.get('payment-response')).not.toBeNull();
    expect(claimCount(s)).toBe(1);
  });
});
