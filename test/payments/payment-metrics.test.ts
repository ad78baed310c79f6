/**
 * Payment metrics on a real local chain (anvil with chain id 8453 and a test USDC at the Base
 * USDC address, as in base-payments.test.ts): a paid request, a replay (409), an underpayment
 * and a readiness probe are counted by `GET /metrics` under the chain, outcome and reason, with
 * the chain RPC round trips they made — and no payer address, transaction hash or nonce appears.
 */
import type { Address, Hex, PrivateKeyAccount } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type LocalBase, startLocalBase } from '../../scripts/local-chains/index.js';
import { sendBaseUsdcPayment, signNonceMessage } from '../../src/client/base-payment.js';
import type { BaseProof } from '../../src/payments/payment-proof.js';
import { PRICE } from '../helpers/payment-values.js';
import { type TestContext, useTestApp } from '../helpers/test-app.js';
import { challengeFor, expectRefusal, presentProof } from '../helpers/x402-requests.js';

const URL = 'https://example.com/';
const TOKEN = 'metrics-token-for-payments-0123456789';

let chain: LocalBase;
beforeAll(async () => {
  chain = await startLocalBase();
});
afterAll(async () => {
  await chain.stop();
});

const startApp = useTestApp();

/** One series' value from the app's exposition (0 when absent). */
async function scrape(context: TestContext): Promise<(series: string) => number> {
  const response = await context.app.inject({
    method: 'GET',
    url: '/metrics',
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  expect(response.statusCode).toBe(200);
  const lines = response.body.split('\n');
  return (series) => {
    const line = lines.find((l) => l.startsWith(`${series} `));
    return line === undefined ? 0 : Number(line.slice(series.length + 1));
  };
}

describe('payment metrics on anvil', { timeout: 30_000 }, () => {
  it('count paid, replayed and underpaid proofs and the chain RPC calls, by chain and reason', async () => {
    const recipient: Address = privateKeyToAccount(generatePrivateKey()).address;
    const context = await startApp({
      env: { BASE_RECIPIENT: recipient, BASE_RPC_URL: chain.rpcUrl, METRICS_TOKEN: TOKEN },
    });
    const payer: PrivateKeyAccount = await chain.newFundedAccount(1_000_000n);
    const pay = async (amountAtomic: bigint): Promise<BaseProof> => {
      const nonce = (await challengeFor(context.app, URL)).payment?.nonce ?? '';
      const { txHash }: { txHash: Hex } = await sendBaseUsdcPayment({
        rpcUrl: chain.rpcUrl,
        account: payer,
        token: chain.usdc,
        recipient,
        amountAtomic,
        pollingIntervalMs: 20,
      });
      await chain.mine(1);
      const walletSig = await signNonceMessage(payer, `linkguard:${nonce}`);
      return { chain: 'base', txHash, walletSig, nonce };
    };

    const paid = await pay(PRICE);
    expect((await presentProof(context.app, URL, paid)).statusCode).toBe(200);
    expect((await presentProof(context.app, URL, paid)).statusCode).toBe(409);
    const under = await pay(PRICE - 1n);
    expectRefusal(await presentProof(context.app, URL, under), 'amount_too_low');
    const ready = await context.app.inject({ method: 'GET', url: '/v1/ready' });
    expect(ready.json()).toMatchObject({ payments: 'ok' });

    const value = await scrape(context);
    const payments = (labels: string) => value(`linkguard_payments_total{${labels}}`);
    expect(payments('chain="none",outcome="challenged",reason="none"')).toBe(2);
    expect(payments('chain="base",outcome="paid",reason="none"')).toBe(1);
    expect(payments('chain="base",outcome="refused",reason="nonce_already_used"')).toBe(1);
    expect(payments('chain="base",outcome="refused",reason="amount_too_low"')).toBe(1);
    // The replay is refused by the store before any RPC: two verifications reached the chain.
    expect(
      value('linkguard_chain_rpc_duration_seconds_count{chain="base",operation="verify"}'),
    ).toBe(2);
    expect(
      value('linkguard_chain_rpc_duration_seconds_count{chain="base",operation="probe"}'),
    ).toBe(1);
    expect(value('linkguard_chain_rpc_errors_total{chain="base",operation="verify"}')).toBe(0);
    expect(
      value(
        'linkguard_store_operation_duration_seconds_count{port="payments",operation="claimPayment"}',
      ),
    ).toBe(1);

    const text = (
      await context.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: { authorization: `Bearer ${TOKEN}` },
      })
    ).body.toLowerCase();
    for (const secret of [payer.address, recipient, paid.txHash, paid.nonce, under.txHash]) {
      expect(text).not.toContain(secret.toLowerCase());
    }
  });
});
