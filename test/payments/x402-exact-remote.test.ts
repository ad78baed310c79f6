/**
 * Standard x402 `exact` payments through a remote facilitator (X402_FACILITATOR_URL; README,
 * "Paying per request (x402)"; docs/decisions.md, decision 152): a real `x402Facilitator` with
 * `@x402/evm`'s schemes served on loopback over the documented `/verify`, `/settle`,
 * `/supported` API settles on the local anvil chain; the service holds no settlement key. The
 * unmodified official clients (v1 `x402-fetch`, v2 `@x402/fetch`) pay; a facilitator that does
 * not answer is 503 with nothing consumed, and without its `/supported` the standard scheme is
 * not offered.
 */
import type { AddressInfo } from 'node:net';

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
import { wrapFetchWithPayment as wrapFetchV1 } from 'x402-fetch';

import { type LocalBase, startLocalBase } from '../../scripts/local-chains/index.js';
import { testClock, type TestContext, useTestApp } from '../helpers/test-app.js';
import {
  type FacilitatorServer,
  startFacilitatorServer,
} from '../helpers/x402-facilitator-server.js';

/** The platform fetch, for requests to the service on loopback (see x402-exact-base.test.ts). */
const loopbackFetch: typeof fetch = globalThis.fetch;

const PRICE = 10_000n;
const BODY = JSON.stringify({ url: 'https://example.com/' });

let chain: LocalBase;
let facilitator: FacilitatorServer | undefined;
beforeAll(async () => {
  chain = await startLocalBase();
});
afterAll(async () => {
  await chain.stop();
});
afterEach(async () => {
  await facilitator?.close();
  facilitator = undefined;
});

const startApp = useTestApp();

interface Setup {
  context: TestContext;
  url: string;
  recipient: Address;
  payer: PrivateKeyAccount;
  facilitator: FacilitatorServer;
}

async function setup(): Promise<Setup> {
  const key: Hex = generatePrivateKey();
  await createTestClient({ mode: 'anvil', chain: base, transport: http(chain.rpcUrl) }).setBalance({
    address: privateKeyToAccount(key).address,
    value: 10n ** 18n,
  });
  const running = await startFacilitatorServer({ rpcUrl: chain.rpcUrl, privateKey: key });
  facilitator = running;
  const recipient = privateKeyToAccount(generatePrivateKey()).address;
  const context = await startApp({
    clock: testClock(Date.now()),
    env: { BASE_RECIPIENT: recipient, X402_FACILITATOR_URL: running.url },
  });
  await context.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = context.app.server.address() as AddressInfo;
  const payer = await chain.newFundedAccount(1_000_000n);
  return {
    context,
    url: `http://127.0.0.1:${port}/v1/detect`,
    recipient,
    payer,
    facilitator: running,
  };
}

function post(headers: Record<string, string> = {}): RequestInit {
  return {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: BODY,
  };
}

function v1Wallet(payer: PrivateKeyAccount): Signer {
  const wallet = createWalletClient({ account: payer, chain: base, transport: http(chain.rpcUrl) });
  // x402 1.2.0 types its wallet against its own viem copy (see x402-exact-base.test.ts).
  return wallet.extend(publicActions) as unknown as Signer;
}

function claimCount(s: Setup): number {
  const db = new Database(s.context.dbPath, { readonly: true });
  try {
    return db.prepare('SELECT count(*) FROM payment_claims').pluck().get() as number;
  } finally {
    db.close();
  }
}

describe('a remote facilitator (X402_FACILITATOR_URL)', () => {
  it('settles a v1 payment of the unmodified x402-fetch', async () => {
    const s = await setup();
    const response = await wrapFetchV1(loopbackFetch, v1Wallet(s.payer))(s.url, post());
    expect(response.status, await response.clone().text()).toBe(200);
    expect(response.headers.get('x-payment-response')).not.toBeNull();
    expect(await chain.balanceOf(chain.usdc, s.recipient)).toBe(PRICE);
    expect(claimCount(s)).toBe(1);
    expect(s.facilitator.calls()).toMatchObject({ '/verify': 1, '/settle': 1 });
  });

  it('settles a v2 payment of the unmodified @x402/fetch', async () => {
    const s = await setup();
    const client = new x402Client();
    registerExactEvmScheme(client, { signer: s.payer });
    const response = await wrapFetchV2(loopbackFetch, client)(s.url, post());
    expect(response.status, await response.clone().text()).toBe(200);
    expect(response.headers.get('payment-response')).not.toBeNull();
    expect(await chain.balanceOf(chain.usdc, s.recipient)).toBe(PRICE);
    expect(claimCount(s)).toBe(1);
  });

  it('answers 503 when the facilitator does not answer, consuming nothing', async () => {
    const s = await setup();
    const challenge = await loopbackFetch(s.url, post());
    const body = (await challenge.json()) as { accepts: PaymentRequirementsV1[] };
    const entry = body.accepts.find((a) => a.network === 'base');
    expect(entry?.extra).toMatchObject({ name: 'USD Coin', version: '2' });
    if (entry === undefined) throw new Error('no base entry');
    const payment = await createPaymentHeader(v1Wallet(s.payer), 1, entry);
    await s.facilitator.close();
    const down = await loopbackFetch(s.url, post({ 'x-payment': payment }));
    expect(down.status).toBe(503);
    expect(((await down.json()) as { error: string }).error).toBe('chain_unavailable');
    expect(claimCount(s)).toBe(0);
    expect(await chain.balanceOf(chain.usdc, s.payer.address)).toBe(1_000_000n);
  });

  it('does not offer the standard scheme while /supported cannot be read', async () => {
    const s = await setup();
    await s.facilitator.close();
    const response = await loopbackFetch(s.url, post());
    expect(response.status).toBe(402);
    expect(response.headers.get('payment-required')).toBeNull();
    const body = (await response.json()) as { accepts: { extra: Record<string, unknown> }[] };
    expect(body.accepts[0]?.extra.name).toBeUndefined();
  });
});
