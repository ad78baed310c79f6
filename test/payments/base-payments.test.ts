/**
 * Paying for `POST /v1/detect` on Base, verified against a real local chain (anvil with chain id
 * 8453 and a test USDC planted at the real Base USDC address): spec §3, §4.1, §5, §7; DESIGN
 * §4.4–4.7, §6. Payments are real transfers and EIP-191 signatures made by the project's client.
 */
import { randomBytes } from 'node:crypto';

import Database from 'better-sqlite3';
import type { Address, Hex, PrivateKeyAccount } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import {
  type LocalBase,
  type RpcProxy,
  startLocalBase,
  startRpcProxy,
} from '../../scripts/local-chains/index.js';
import { sendBaseUsdcPayment, signNonceMessage } from '../../src/client/base-payment.js';
import { type BaseProof, decodeSettlementResponse } from '../../src/payments/payment-proof.js';
import { T0, type TestContext, useTestApp } from '../helpers/test-app.js';
import { challengeFor, expectRefusal, presentProof } from '../helpers/x402-requests.js';

const URL = 'https://example.com/';
const PRICE = 10_000n;

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
  recipient: Address;
  payer: PrivateKeyAccount;
}

/** An app whose Base recipient is a fresh address, and a payer holding 1 USDC and 1 ETH. */
async function setup(env: Record<string, string> = {}): Promise<Setup> {
  const recipient = privateKeyToAccount(generatePrivateKey()).address;
  const context = await startApp({
    env: { BASE_RECIPIENT: recipient, BASE_RPC_URL: proxy.url, ...env },
  });
  const payer = await chain.newFundedAccount(1_000_000n);
  return { context, recipient, payer };
}

interface PayOptions {
  amountAtomic?: bigint;
  recipient?: Address;
  token?: Address;
  gas?: bigint;
  /** Blocks to mine after the transaction's own (default 1: two confirmations, the default minimum). */
  extraBlocks?: number;
}

/** Transfer (or deliberately not quite) and return the transaction hash. */
async function transfer(s: Setup, options: PayOptions = {}): Promise<Hex> {
  const { txHash } = await sendBaseUsdcPayment({
    rpcUrl: chain.rpcUrl,
    account: s.payer,
    token: options.token ?? chain.usdc,
    recipient: options.recipient ?? s.recipient,
    amountAtomic: options.amountAtomic ?? PRICE,
    ...(options.gas === undefined ? {} : { gas: options.gas }),
    pollingIntervalMs: 20,
  });
  const extra = options.extraBlocks ?? 1;
  if (extra > 0) await chain.mine(extra);
  return txHash;
}

async function proofFor(
  s: Setup,
  nonce: string,
  txHash: Hex,
  signer: PrivateKeyAccount = s.payer,
  message = `linkguard:${nonce}`,
): Promise<BaseProof> {
  return { chain: 'base', txHash, walletSig: await signNonceMessage(signer, message), nonce };
}

async function nonceOf(s: Setup, url = URL): Promise<string> {
  return (await challengeFor(s.context.app, url)).payment?.nonce ?? '';
}

function claimCount(dbPath: string): number {
  const db = new Database(dbPath, { readonly: true });
  try {
    return db.prepare('SELECT count(*) FROM payment_claims').pluck().get() as number;
  } finally {
    db.close();
  }
}

describe('a valid Base payment', () => {
  it.each(['x-payment', 'legacy'] as const)(
    'is served with the verdict and X-PAYMENT-RESPONSE (%s)',
    async (form) => {
      const s = await setup();
      const challenge = await challengeFor(s.context.app, URL);
      const nonce = challenge.payment?.nonce ?? '';
      expect(challenge.payment?.sign_message).toBe(`linkguard:${nonce}`);
      const txHash = await transfer(s);

      const response = await presentProof(
        s.context.app,
        URL,
        await proofFor(s, nonce, txHash),
        form,
      );
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toMatchObject({ verdict: 'safe' });
      expect(decodeSettlementResponse(String(response.headers['x-payment-response']))).toEqual({
        success: true,
        transaction: txHash,
        network: 'base',
        payer: s.payer.address,
      });
      expect(await s.context.store.payments.findClaim('base', txHash)).toEqual({
        chain: 'base',
        txId: txHash,
        nonce,
        payer: s.payer.address,
        amountAtomic: PRICE,
        claimedAt: T0,
      });
      expect(await chain.balanceOf(chain.usdc, s.recipient)).toBe(PRICE);
    },
  );

  it('pays once: the same proof again is 409, the transaction with a new nonce is refused', async () => {
    const s = await setup();
    const nonce = await nonceOf(s);
    const txHash = await transfer(s);
    const first = await proofFor(s, nonce, txHash);
    expect((await presentProof(s.context.app, URL, first)).statusCode).toBe(200);
    expect((await presentProof(s.context.app, URL, first, 'legacy')).statusCode).toBe(409);

    // Base binds the payer, not the transaction, to the nonce: a fresh signature over a new
    // nonce would verify, so the permanent claim on the hash is what refuses it.
    const fresh = await nonceOf(s);
    expectRefusal(
      await presentProof(s.context.app, URL, await proofFor(s, fresh, txHash)),
      'tx_already_claimed',
    );
    expect(claimCount(s.context.dbPath)).toBe(1);
  });

  it('50 concurrent requests with one valid proof: exactly one 200', async () => {
    const s = await setup();
    const nonce = await nonceOf(s);
    const valid = await proofFor(s, nonce, await transfer(s));
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        presentProof(s.context.app, URL, valid, i % 2 ? 'legacy' : 'x-payment'),
      ),
    );
    const statuses = responses.map((r) => r.statusCode);
    expect(statuses.filter((code) => code === 200)).toHaveLength(1);
    expect(statuses.every((code) => code === 200 || code === 409 || code === 402)).toBe(true);
    expect(claimCount(s.context.dbPath)).toBe(1);
  });
});

describe('a Base payment that does not pay for this request', () => {
  it("a thief's signature over the right nonce → signer_mismatch", async () => {
    const s = await setup();
    const nonce = await nonceOf(s);
    const txHash = await transfer(s);
    const thief = privateKeyToAccount(generatePrivateKey());
    expectRefusal(
      await presentProof(s.context.app, URL, await proofFor(s, nonce, txHash, thief)),
      'signer_mismatch',
    );
    expect((await s.context.store.payments.findNonce(nonce))?.consumedAt).toBeNull();
  });

  it("the payer's signature of another nonce → signer_mismatch", async () => {
    const s = await setup();
    const nonce = await nonceOf(s);
    const other = await nonceOf(s);
    const txHash = await transfer(s);
    expectRefusal(
      await presentProof(
        s.context.app,
        URL,
        await proofFor(s, nonce, txHash, s.payer, `linkguard:${other}`),
      ),
      'signer_mismatch',
    );
  });

  it('a reverted transfer → tx_failed', async () => {
    const s = await setup();
    const nonce = await nonceOf(s);
    // More than the payer holds, with explicit gas so it is mined (and reverts) instead of
    // being refused at estimation.
    const txHash = await transfer(s, { amountAtomic: 5_000_000n, gas: 100_000n });
    expectRefusal(
      await presentProof(s.context.app, URL, await proofFor(s, nonce, txHash)),
      'tx_failed',
    );
  });

  it('pays 0.009999 USDC → amount_too_low', async () => {
    const s = await setup();
    const nonce = await nonceOf(s);
    const txHash = await transfer(s, { amountAtomic: PRICE - 1n });
    expectRefusal(
      await presentProof(s.context.app, URL, await proofFor(s, nonce, txHash)),
      'amount_too_low',
    );
  });

  it('pays another address → wrong_recipient', async () => {
    const s = await setup();
    const nonce = await nonceOf(s);
    const txHash = await transfer(s, {
      recipient: privateKeyToAccount(generatePrivateKey()).address,
    });
    expectRefusal(
      await presentProof(s.context.app, URL, await proofFor(s, nonce, txHash)),
      'wrong_recipient',
    );
  });

  it('pays in a look-alike "USDC" contract → wrong_token', async () => {
    const s = await setup();
    const lookalike = await chain.deployToken();
    await chain.mint(lookalike, s.payer.address, 1_000_000n);
    const nonce = await nonceOf(s);
    const txHash = await transfer(s, { token: lookalike });
    expectRefusal(
      await presentProof(s.context.app, URL, await proofFor(s, nonce, txHash)),
      'wrong_token',
    );
  });

  it('a hash the chain does not know → tx_not_found', async () => {
    const s = await setup();
    const nonce = await nonceOf(s);
    const unknown: Hex = `0x${randomBytes(32).toString('hex')}`;
    expectRefusal(
      await presentProof(s.context.app, URL, await proofFor(s, nonce, unknown)),
      'tx_not_found',
    );
  });

  it('was paid for another URL → request_mismatch', async () => {
    const s = await setup();
    const nonce = await nonceOf(s, 'https://paypal.com/');
    const valid = await proofFor(s, nonce, await transfer(s));
    expectRefusal(await presentProof(s.context.app, URL, valid), 'request_mismatch');
    expect((await presentProof(s.context.app, 'https://paypal.com/', valid)).statusCode).toBe(200);
  });
});

describe('confirmations and reorgs', () => {
  it('too few confirmations → payment_pending with the same nonce; served once mined', async () => {
    const s = await setup({ BASE_MIN_CONFIRMATIONS: '3' });
    const nonce = await nonceOf(s);
    const valid = await proofFor(s, nonce, await transfer(s, { extraBlocks: 0 }));

    const pending = await presentProof(s.context.app, URL, valid);
    const body = expectRefusal(pending, 'payment_pending');
    expect(body.payment?.nonce).toBe(nonce);
    // Two blocks missing at Base's 2 s block time.
    expect(pending.headers['retry-after']).toBe('4');
    expect(body.retry_after).toBe(4);
    expect((await s.context.store.payments.findNonce(nonce))?.consumedAt).toBeNull();

    await chain.mine(2);
    expect((await presentProof(s.context.app, URL, valid)).statusCode).toBe(200);
  });

  it('a payment reorganized away → tx_not_found, nothing consumed; a new payment is served', async () => {
    const s = await setup({ BASE_MIN_CONFIRMATIONS: '3' });
    const nonce = await nonceOf(s);
    const snapshot = await chain.snapshot();
    const reorged = await proofFor(s, nonce, await transfer(s));
    expectRefusal(await presentProof(s.context.app, URL, reorged), 'payment_pending');

    await chain.revert(snapshot); // the blocks holding the payment are gone
    expectRefusal(await presentProof(s.context.app, URL, reorged), 'tx_not_found');
    expect((await s.context.store.payments.findNonce(nonce))?.consumedAt).toBeNull();

    const replacement = await proofFor(s, nonce, await transfer(s, { extraBlocks: 2 }));
    expect((await presentProof(s.context.app, URL, replacement)).statusCode).toBe(200);
  });
});

describe('failures around verification consume nothing', () => {
  it('RPC down → 503 chain_unavailable; once it is back the same proof is served', async () => {
    const s = await setup();
    const nonce = await nonceOf(s);
    const valid = await proofFor(s, nonce, await transfer(s));
    proxy.setMode('down');
    const down = await presentProof(s.context.app, URL, valid);
    expect(down.statusCode).toBe(503);
    expect(down.json()).toMatchObject({ error: 'chain_unavailable', retry_after: 5 });
    expect((await s.context.store.payments.findNonce(nonce))?.consumedAt).toBeNull();
    proxy.setMode('up');
    expect((await presentProof(s.context.app, URL, valid)).statusCode).toBe(200);
  });

  it('RPC hanging → 503 after CHAIN_RPC_TIMEOUT_MS', async () => {
    const s = await setup({ CHAIN_RPC_TIMEOUT_MS: '300' });
    const nonce = await nonceOf(s);
    const valid = await proofFor(s, nonce, await transfer(s));
    proxy.setMode('hang');
    expect((await presentProof(s.context.app, URL, valid)).statusCode).toBe(503);
    proxy.setMode('up');
    expect((await presentProof(s.context.app, URL, valid)).statusCode).toBe(200);
  });
});

describe('readiness', () => {
  it('reports the Base RPC', async () => {
    const s = await setup();
    const ready = await s.context.app.inject({ method: 'GET', url: '/v1/ready' });
    expect(ready.json()).toMatchObject({ status: 'ready', chains: { base: 'ok' } });
  });
});
