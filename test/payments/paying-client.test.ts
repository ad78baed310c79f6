/**
 * The user's side end to end: the project's paying fetch (`src/client/`) against the real service
 * listening on loopback, verified against real local chains (Surfpool and anvil). Both chains,
 * both header forms, a Base payment that must wait for confirmations, and the spec's promise that
 * a paid verdict is identical to the enterprise-key verdict.
 */
import type { AddressInfo } from 'node:net';

import { address } from '@solana/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  type LocalBase,
  type LocalSolana,
  startLocalBase,
  startLocalSolana,
} from '../../scripts/local-chains/index.js';
import {
  createPayingFetch,
  type PayingFetchEvent,
  readSettlement,
} from '../../src/client/index.js';
import type { Chain, ProofForm } from '../../src/payments/payment-proof.js';
import { detectWithKey } from '../helpers/detect-request.js';
import { createEnterpriseKey } from '../helpers/enterprise-key.js';
import {
  BASE_RECIPIENT,
  SOLANA_RECIPIENT,
  type TestContext,
  useTestApp,
} from '../helpers/test-app.js';

let solana: LocalSolana;
let base: LocalBase;
beforeAll(async () => {
  [solana, base] = await Promise.all([startLocalSolana(), startLocalBase()]);
});
afterAll(async () => {
  await Promise.all([solana.stop(), base.stop()]);
});

const startApp = useTestApp();

/** The service on 127.0.0.1:<random port>, offering both chains against the local chains. */
async function listening(
  env: Record<string, string> = {},
): Promise<{ context: TestContext; url: string }> {
  const context = await startApp({
    env: {
      SOLANA_RECIPIENT,
      SOLANA_RPC_URL: solana.rpcUrl,
      BASE_RECIPIENT,
      BASE_RPC_URL: base.rpcUrl,
      BASE_MIN_CONFIRMATIONS: '1',
      ...env,
    },
  });
  await context.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = context.app.server.address() as AddressInfo;
  return { context, url: `http://127.0.0.1:${port}/v1/detect` };
}

async function payingFetchFor(chain: Chain, form: ProofForm, events: PayingFetchEvent[]) {
  const onEvent = (event: PayingFetchEvent) => events.push(event);
  return chain === 'solana'
    ? createPayingFetch({
        chain,
        signer: await solana.newFundedWallet(1_000_000n),
        rpcUrl: solana.rpcUrl,
        headerForm: form,
        onEvent,
      })
    : createPayingFetch({
        chain,
        account: await base.newFundedAccount(1_000_000n),
        rpcUrl: base.rpcUrl,
        pollingIntervalMs: 20,
        headerForm: form,
        onEvent,
      });
}

const post = (url: string) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ url }),
});

describe('the paying fetch against the service', () => {
  it.each([
    ['solana', 'x-payment'],
    ['solana', 'legacy'],
    ['base', 'x-payment'],
    ['base', 'legacy'],
  ] as const)('pays on %s with %s and gets the verdict a key gets', async (chain, form) => {
    const { context, url } = await listening();
    const events: PayingFetchEvent[] = [];
    const payingFetch = await payingFetchFor(chain, form, events);
    const target = 'http://secure-paypa1-login.top/verify';

    const response = await payingFetch(url, post(target));
    expect(response.status).toBe(200);
    const paid: unknown = await response.json();
    const settlement = readSettlement(response);
    expect(settlement).toMatchObject({ success: true, network: chain });
    expect(events.map((e) => e.type)).toEqual(['challenge', 'paid', 'settled']);
    const recipientBalance =
      chain === 'solana'
        ? await solana.tokenBalance(address(SOLANA_RECIPIENT), solana.usdcMint)
        : await base.balanceOf(base.usdc, BASE_RECIPIENT);
    expect(recipientBalance).toBeGreaterThanOrEqual(10_000n);

    // Spec §5: the enterprise key returns the identical verdict object as a paid call.
    const key = await createEnterpriseKey(context.store);
    const withKey = await detectWithKey(context.app, target, key.bearer);
    expect(paid).toEqual(withKey.json());
    expect(paid).toMatchObject({ verdict: 'danger', brand: 'PayPal' });
  });

  /** Pay on Base for example.com while anvil (which mines on demand) gets a block every 200 ms. */
  async function payOnBaseWhileMining(url: string, confirmations?: number) {
    const events: PayingFetchEvent[] = [];
    const payingFetch = createPayingFetch({
      chain: 'base',
      account: await base.newFundedAccount(1_000_000n),
      rpcUrl: base.rpcUrl,
      pollingIntervalMs: 20,
      ...(confirmations === undefined ? {} : { confirmations }),
      onEvent: (event) => events.push(event),
    });
    const miner = setInterval(() => {
      void base.mine(1);
    }, 200);
    try {
      const response = await payingFetch(url, post('https://example.com/'));
      expect(response.status).toBe(200);
    } finally {
      clearInterval(miner);
    }
    expect(events.filter((e) => e.type === 'paid')).toHaveLength(1);
    return events;
  }

  it('waits for the confirmations the 402 asks before presenting: no pending round trip', async () => {
    const { url } = await listening({ BASE_MIN_CONFIRMATIONS: '3' });
    const events = await payOnBaseWhileMining(url);
    expect(events.filter((e) => e.type === 'retry')).toEqual([]);
    expect(events.at(-1)).toMatchObject({ type: 'settled', status: 200, attempts: 1 });
  });

  it('presenting too early: payment_pending, then the same proof is served', async () => {
    const { url } = await listening({ BASE_MIN_CONFIRMATIONS: '3' });
    const events = await payOnBaseWhileMining(url, 1);
    const retries = events.filter((e) => e.type === 'retry');
    expect(retries.length).toBeGreaterThanOrEqual(1);
    // Two blocks missing at Base's 2 s block time.
    expect(retries[0]).toMatchObject({ status: 402, reason: 'payment_pending', waitMs: 4000 });
  });
});
