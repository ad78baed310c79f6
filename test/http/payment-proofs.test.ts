/**
 * Proofs that are decided before any chain request (spec §3, §7; DESIGN §4.4): malformed proof
 * headers, unknown / expired / claimed / foreign nonces, transactions that already paid, chains
 * this instance does not offer. The chain RPCs point at a loopback endpoint that counts requests,
 * so each test proves that no RPC call was made. Also: an RPC that fails or hangs is 503
 * `chain_unavailable` with nothing consumed. Verification against real chains: test/payments/.
 */
import { randomBytes } from 'node:crypto';

import { getBase58Decoder } from '@solana/kit';
import type { LightMyRequestResponse } from 'fastify';
import { Compile } from 'typebox/compile';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { PaymentChallengeSchema } from '../../src/api/error-schemas.js';
import { paymentHeaders, type PaymentProof } from '../../src/payments/payment-proof.js';
import { type CountingRpc, startCountingRpc } from '../helpers/counting-rpc.js';
import { detect, detectWithKey } from '../helpers/detect-request.js';
import { createEnterpriseKey } from '../helpers/enterprise-key.js';
import {
  BASE_RECIPIENT,
  SOLANA_RECIPIENT,
  T0,
  type TestContext,
  useTestApp,
} from '../helpers/test-app.js';

const URL = 'https://paypal.com/';
const challengeValidator = Compile(PaymentChallengeSchema);
const base58 = getBase58Decoder();

interface Challenge {
  error: string;
  reason?: string;
  retry_after?: number;
  payment: { nonce: string } | null;
  accepts: { extra: { nonce: string } }[];
}

const newSignature = () => base58.decode(randomBytes(64));
const newTxHash = () => `0x${randomBytes(32).toString('hex')}` as const;
const WALLET_SIG = `0x${'cd'.repeat(65)}` as const;

let rpc: CountingRpc;
beforeEach(async () => {
  rpc = await startCountingRpc();
});
afterEach(async () => {
  await rpc.close();
});

const startApp = useTestApp();
function start(env: Record<string, string> = {}): Promise<TestContext> {
  return startApp({
    env: {
      SOLANA_RECIPIENT,
      BASE_RECIPIENT,
      SOLANA_RPC_URL: rpc.url,
      BASE_RPC_URL: rpc.url,
      CHAIN_RPC_TIMEOUT_MS: '300',
      ...env,
    },
  });
}

function refusal(response: LightMyRequestResponse, reason: string): Challenge {
  expect(response.statusCode).toBe(402);
  const body: unknown = response.json();
  expect([...challengeValidator.Errors(body)]).toEqual([]);
  expect(body).toMatchObject({ status: 402, error: 'payment_invalid', reason, x402Version: 1 });
  return body as Challenge;
}

async function nonceFor(context: TestContext, url = URL): Promise<string> {
  const response = await detect(context.app, { url });
  expect(response.statusCode).toBe(402);
  return (response.json<Challenge>().payment ?? { nonce: '' }).nonce;
}

function solanaProof(nonce: string, txSignature = newSignature()): PaymentProof {
  return { chain: 'solana', txSignature, nonce };
}

function pay(context: TestContext, proof: PaymentProof, form: 'x-payment' | 'legacy', url = URL) {
  return detect(context.app, { url }, { headers: paymentHeaders(proof, form) });
}

describe('malformed proofs → 402 malformed_proof, before any RPC call', () => {
  const cases: [string, (nonce: string) => Record<string, string>][] = [
    ['X-PAYMENT that is not base64', () => ({ 'x-payment': '***' })],
    [
      'X-PAYMENT with x402Version 2',
      (nonce) => ({
        'x-payment': Buffer.from(
          JSON.stringify({
            x402Version: 2,
            scheme: 'exact',
            network: 'solana',
            payload: { txSignature: newSignature(), nonce },
          }),
        ).toString('base64'),
      }),
    ],
    [
      'a Solana signature that is not base58',
      (nonce) => ({ 'x-402-signature': '0OIl', 'x-402-nonce': nonce }),
    ],
    [
      'a 64-character Solana signature outside the base58 alphabet',
      (nonce) => ({ 'x-402-signature': '0'.repeat(64), 'x-402-nonce': nonce }),
    ],
    [
      'an X-PAYMENT Solana signature of 88 characters with an "O"',
      (nonce) => paymentHeaders(solanaProof(nonce, `${newSignature().slice(0, 87)}O`)),
    ],
    ['X-402-Signature alone', () => ({ 'x-402-signature': newSignature() })],
    ['X-402-Nonce alone', (nonce) => ({ 'x-402-nonce': nonce })],
    [
      'X-402-Wallet-Sig on Base without a hash',
      (nonce) => ({ 'x-402-chain': 'base', 'x-402-wallet-sig': WALLET_SIG, 'x-402-nonce': nonce }),
    ],
    [
      'a Base proof without wallet signature',
      (nonce) => ({ 'x-402-chain': 'base', 'x-402-signature': newTxHash(), 'x-402-nonce': nonce }),
    ],
    [
      'a nonce that is not a UUID',
      () => ({ 'x-402-signature': newSignature(), 'x-402-nonce': 'n-1' }),
    ],
  ];

  it.each(cases)('%s', async (_label, headers) => {
    const context = await start();
    const presented = await nonceFor(context);
    const response = await detect(context.app, { url: URL }, { headers: headers(presented) });
    const body = refusal(response, 'malformed_proof');
    // A fresh nonce; the presented one is still issued and unconsumed.
    expect(body.payment?.nonce).not.toBe(presented);
    expect(body.accepts.map((a) => a.extra.nonce)).toEqual([
      body.payment?.nonce,
      body.payment?.nonce,
    ]);
    expect(await context.store.payments.findNonce(body.payment?.nonce ?? '')).toMatchObject({
      consumedAt: null,
    });
    expect((await context.store.payments.findNonce(presented))?.consumedAt).toBeNull();
    expect(rpc.requests()).toBe(0);
  });

  it("the review's proof (64 zeros, an unknown UUIDv4 nonce) is 402 on every retry, never 500", async () => {
    const context = await start();
    const headers = {
      'x-402-signature': '0'.repeat(64),
      'x-402-nonce': '00000000-0000-4000-8000-000000000000',
    };
    const nonces = new Set<string>();
    for (let attempt = 0; attempt < 3; attempt++) {
      const body = refusal(await detect(context.app, { url: URL }, { headers }), 'malformed_proof');
      nonces.add(body.payment?.nonce ?? '');
    }
    expect(nonces.size).toBe(3);
    expect(context.logs.text()).not.toContain('0'.repeat(64));
    expect(context.logs.records().filter((r) => (r.level as number) >= 50)).toEqual([]);
    expect(rpc.requests()).toBe(0);
  });

  it('refuses a chain this instance does not offer', async () => {
    const context = await start({ BASE_RECIPIENT: '' });
    const nonce = await nonceFor(context);
    const proof: PaymentProof = {
      chain: 'base',
      txHash: newTxHash(),
      walletSig: WALLET_SIG,
      nonce,
    };
    const body = refusal(await pay(context, proof, 'x-payment'), 'malformed_proof');
    expect(body.accepts).toHaveLength(1);
    expect(rpc.requests()).toBe(0);
  });
});

describe('nonce checks → decided from the store, before any RPC call', () => {
  it.each(['x-payment', 'legacy'] as const)(
    'an unknown nonce is nonce_unknown (%s)',
    async (form) => {
      const context = await start();
      const response = await pay(
        context,
        solanaProof('00000000-0000-4000-8000-000000000000'),
        form,
      );
      refusal(response, 'nonce_unknown');
      expect(rpc.requests()).toBe(0);
    },
  );

  it('a nonce issued for another URL is request_mismatch', async () => {
    const context = await start();
    const nonce = await nonceFor(context, 'https://example.com/');
    refusal(await pay(context, solanaProof(nonce), 'x-payment'), 'request_mismatch');
    expect((await context.store.payments.findNonce(nonce))?.consumedAt).toBeNull();
    expect(rpc.requests()).toBe(0);
  });

  it('the same URL in another spelling is the same request (nonces bind the normalized URL)', async () => {
    const context = await start();
    const nonce = await nonceFor(context, 'https://PayPal.com');
    const response = await pay(context, solanaProof(nonce), 'x-payment', 'paypal.com');
    // It got past the nonce checks: the (failing) RPC was asked.
    expect(response.statusCode).toBe(503);
    expect(rpc.requests()).toBeGreaterThan(0);
  });

  it('a nonce is expired at its 10th minute, and reaches the chain one millisecond before', async () => {
    const context = await start();
    const nonce = await nonceFor(context);
    context.clock.set(T0 + 600_000);
    refusal(await pay(context, solanaProof(nonce), 'x-payment'), 'nonce_expired');
    expect(rpc.requests()).toBe(0);
    context.clock.set(T0 + 599_999);
    expect((await pay(context, solanaProof(nonce), 'x-payment')).statusCode).toBe(503);
  });

  it('a claimed nonce is 409 nonce_already_used, whatever the transaction', async () => {
    const context = await start();
    const nonce = await nonceFor(context);
    const signature = newSignature();
    const claim = {
      chain: 'solana' as const,
      txId: signature,
      nonce,
      payer: SOLANA_RECIPIENT,
      amountAtomic: 10_000n,
      claimedAt: T0,
    };
    const urlHash = (await context.store.payments.findNonce(nonce))?.urlHash ?? '';
    expect(await context.store.payments.claimPayment(claim, urlHash)).toBe('claimed');
    for (const proof of [solanaProof(nonce, signature), solanaProof(nonce)]) {
      const response = await pay(context, proof, 'legacy');
      expect(response.statusCode).toBe(409);
      expect(response.json()).toMatchObject({ status: 409, error: 'nonce_already_used' });
    }
    expect(rpc.requests()).toBe(0);
  });

  it('a transaction that already paid is tx_already_claimed with a new nonce', async () => {
    const context = await start();
    const first = await nonceFor(context);
    const txHash = newTxHash();
    const urlHash = (await context.store.payments.findNonce(first))?.urlHash ?? '';
    await context.store.payments.claimPayment(
      {
        chain: 'base',
        txId: txHash,
        nonce: first,
        payer: BASE_RECIPIENT,
        amountAtomic: 10_000n,
        claimedAt: T0,
      },
      urlHash,
    );
    const second = await nonceFor(context);
    const proof: PaymentProof = { chain: 'base', txHash, walletSig: WALLET_SIG, nonce: second };
    refusal(await pay(context, proof, 'x-payment'), 'tx_already_claimed');
    expect((await context.store.payments.findNonce(second))?.consumedAt).toBeNull();
    expect(rpc.requests()).toBe(0);
  });
});

describe('chain RPC failures → 503 chain_unavailable, nothing consumed', () => {
  it.each(['solana', 'base'] as const)('%s RPC answering 500', async (chain) => {
    const context = await start();
    const nonce = await nonceFor(context);
    const proof: PaymentProof =
      chain === 'solana'
        ? solanaProof(nonce)
        : { chain: 'base', txHash: newTxHash(), walletSig: WALLET_SIG, nonce };
    const response = await pay(context, proof, 'x-payment');
    expect(response.statusCode).toBe(503);
    expect(response.json()).toMatchObject({
      status: 503,
      error: 'chain_unavailable',
      retry_after: 5,
    });
    expect(response.headers['retry-after']).toBe('5');
    expect((await context.store.payments.findNonce(nonce))?.consumedAt).toBeNull();
    expect(rpc.requests()).toBeGreaterThan(0);
  });

  it('an RPC that never answers is 503 after CHAIN_RPC_TIMEOUT_MS', async () => {
    const hung = await startCountingRpc('hang');
    try {
      const context = await start({ SOLANA_RPC_URL: hung.url, BASE_RPC_URL: hung.url });
      for (const chain of ['solana', 'base'] as const) {
        const nonce = await nonceFor(context);
        const proof: PaymentProof =
          chain === 'solana'
            ? solanaProof(nonce)
            : { chain: 'base', txHash: newTxHash(), walletSig: WALLET_SIG, nonce };
        const response = await pay(context, proof, 'legacy');
        expect(response.json()).toMatchObject({ error: 'chain_unavailable' });
        expect((await context.store.payments.findNonce(nonce))?.consumedAt).toBeNull();
      }
      expect(hung.requests()).toBeGreaterThan(0);
    } finally {
      await hung.close();
    }
  });

  it('logs the failure without the proof', async () => {
    const context = await start();
    const nonce = await nonceFor(context);
    const signature = newSignature();
    await pay(context, solanaProof(nonce, signature), 'x-payment');
    const logs = context.logs.text();
    expect(logs).not.toContain(signature);
    expect(logs).not.toContain(nonce);
  });
});

describe('a BASE_RPC_URL that serves another chain', () => {
  it('is refused at verification (503, nothing consumed) and reported by /v1/ready', async () => {
    const ethereum = await startCountingRpc('ethereum');
    try {
      const context = await start({ BASE_RPC_URL: ethereum.url });
      const nonce = await nonceFor(context);
      const proof: PaymentProof = {
        chain: 'base',
        txHash: newTxHash(),
        walletSig: WALLET_SIG,
        nonce,
      };
      const response = await pay(context, proof, 'x-payment');
      expect(response.statusCode).toBe(503);
      expect(response.json()).toMatchObject({ error: 'chain_unavailable' });
      expect((await context.store.payments.findNonce(nonce))?.consumedAt).toBeNull();
      const ready = await context.app.inject({ method: 'GET', url: '/v1/ready' });
      // Readiness follows the store only; the chains are reported.
      expect(ready.statusCode).toBe(200);
      expect(ready.json()).toEqual({
        status: 'ready',
        store: 'ok',
        payments: 'unavailable',
        chains: { solana: 'unavailable', base: 'wrong_chain' },
      });
    } finally {
      await ethereum.close();
    }
  });
});

describe('an enterprise key wins over proof headers', () => {
  it('serves with the key, issues no nonce and calls no chain', async () => {
    const context = await start();
    const key = await createEnterpriseKey(context.store);
    const headers = paymentHeaders(solanaProof('00000000-0000-4000-8000-000000000000'));
    const response = await detectWithKey(context.app, URL, key.bearer, { headers });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ verdict: 'safe' });
    expect(response.headers['x-payment-response']).toBeUndefined();
    expect(rpc.requests()).toBe(0);
  });
});
