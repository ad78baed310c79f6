/**
 * Paying for `POST /v1/detect` on Solana, verified against a real local chain (Surfpool, with a
 * real SPL mint at the mainnet USDC address): spec §3, §4.1, §5, §7; DESIGN §4.4–4.7, §6.
 * Payments are real transactions built by the project's client (`src/client/`), including the
 * deliberately wrong ones.
 */
import { randomBytes } from 'node:crypto';

import {
  type Address,
  generateKeyPairSigner,
  getBase58Decoder,
  type KeyPairSigner,
} from '@solana/kit';
import { LEGACY_MEMO_PROGRAM_ADDRESS_V1 } from '@solana-program/memo';
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

import {
  type LocalSolana,
  type RpcProxy,
  startLocalSolana,
  startRpcProxy,
} from '../../scripts/local-chains/index.js';
import { sendSolanaUsdcPayment } from '../../src/client/solana-payment.js';
import { decodeSettlementResponse, type SolanaProof } from '../../src/payments/payment-proof.js';
import { DetectionService } from '../../src/service/detection-service.js';
import { T0, type TestContext, useTestApp } from '../helpers/test-app.js';
import { challengeFor, expectRefusal, presentProof } from '../helpers/x402-requests.js';

const URL = 'https://example.com/';
const PRICE = 10_000n;

let chain: LocalSolana;
let proxy: RpcProxy;
beforeAll(async () => {
  chain = await startLocalSolana();
  proxy = await startRpcProxy(chain.rpcUrl);
});
afterAll(async () => {
  await proxy.close();
  await chain.stop();
});
afterEach(() => {
  proxy.setMode('up');
  vi.restoreAllMocks();
});

const startApp = useTestApp();

interface Setup {
  context: TestContext;
  recipient: Address;
  payer: KeyPairSigner;
}

/** An app whose Solana recipient is a fresh wallet, and a payer holding 1 USDC. */
async function setup(env: Record<string, string> = {}): Promise<Setup> {
  const recipient = (await generateKeyPairSigner()).address;
  const context = await startApp({
    env: { SOLANA_RECIPIENT: recipient, SOLANA_RPC_URL: proxy.url, ...env },
  });
  const payer = await chain.newFundedWallet(1_000_000n);
  return { context, recipient, payer };
}

interface PayOptions {
  memo?: string | null;
  amountAtomic?: bigint;
  recipient?: Address;
  mint?: Address;
  memoProgram?: Address;
  skipPreflight?: boolean;
}

/** Pay for `nonce` the way the 402 asks (or deliberately not), and return the signature. */
async function pay(s: Setup, nonce: string, options: PayOptions = {}): Promise<string> {
  const result = await sendSolanaUsdcPayment({
    rpcUrl: chain.rpcUrl,
    signer: s.payer,
    recipient: options.recipient ?? s.recipient,
    mint: options.mint ?? chain.usdcMint,
    amountAtomic: options.amountAtomic ?? PRICE,
    memo: options.memo === undefined ? `linkguard:${nonce}` : options.memo,
    ...(options.memoProgram === undefined ? {} : { memoProgram: options.memoProgram }),
    skipPreflight: options.skipPreflight ?? false,
  });
  return result.signature;
}

const proof = (txSignature: string, nonce: string): SolanaProof => ({
  chain: 'solana',
  txSignature,
  nonce,
});

async function nonceOf(s: Setup, url = URL): Promise<string> {
  return (await challengeFor(s.context.app, url)).payment?.nonce ?? '';
}

function claimRows(dbPath: string): Record<string, unknown>[] {
  const db = new Database(dbPath, { readonly: true });
  try {
    return db.prepare('SELECT * FROM payment_claims').all() as Record<string, unknown>[];
  } finally {
    db.close();
  }
}

describe('a valid Solana payment', () => {
  it.each(['x-payment', 'legacy'] as const)(
    'is served with the verdict and X-PAYMENT-RESPONSE (%s)',
    async (form) => {
      const s = await setup();
      const challenge = await challengeFor(s.context.app, URL);
      const nonce = challenge.payment?.nonce ?? '';
      expect(challenge.payment?.memo_format).toBe(`linkguard:${nonce}`);
      const signature = await pay(s, nonce);

      const response = await presentProof(s.context.app, URL, proof(signature, nonce), form);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toMatchObject({ verdict: 'safe' });
      expect(decodeSettlementResponse(String(response.headers['x-payment-response']))).toEqual({
        success: true,
        transaction: signature,
        network: 'solana',
        payer: s.payer.address,
      });
      expect(await chain.tokenBalance(s.recipient, chain.usdcMint)).toBe(PRICE);

      // The claim keeps chain, transaction, nonce, payer, amount and time: no URL.
      const rows = claimRows(s.context.dbPath);
      expect(rows).toEqual([
        {
          chain: 'solana',
          tx_id: signature,
          nonce,
          payer: s.payer.address,
          amount_atomic: '10000',
          claimed_at: T0,
        },
      ]);
      expect(JSON.stringify(rows)).not.toContain('example.com');
      expect((await s.context.store.payments.findNonce(nonce))?.consumedAt).toBe(T0);

      // Logs name the chain and header form of a paid request, never the proof or the payer.
      const logs = s.context.logs.text();
      expect(logs).toContain('paid request');
      for (const secret of [signature, nonce, s.payer.address]) expect(logs).not.toContain(secret);
    },
  );

  it('is accepted with the memo v1 program too', async () => {
    const s = await setup();
    const nonce = await nonceOf(s);
    const signature = await pay(s, nonce, { memoProgram: LEGACY_MEMO_PROGRAM_ADDRESS_V1 });
    expect((await presentProof(s.context.app, URL, proof(signature, nonce))).statusCode).toBe(200);
  });

  it('pays once: the same proof again is 409, the same transaction with a new nonce is refused', async () => {
    const s = await setup();
    const nonce = await nonceOf(s);
    const signature = await pay(s, nonce);
    expect((await presentProof(s.context.app, URL, proof(signature, nonce))).statusCode).toBe(200);

    const again = await presentProof(s.context.app, URL, proof(signature, nonce), 'legacy');
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ error: 'nonce_already_used' });

    const fresh = await nonceOf(s);
    expectRefusal(
      await presentProof(s.context.app, URL, proof(signature, fresh)),
      'tx_already_claimed',
    );
    expect((await s.context.store.payments.findNonce(fresh))?.consumedAt).toBeNull();
    expect(claimRows(s.context.dbPath)).toHaveLength(1);
  });

  it('50 concurrent requests with one valid proof: exactly one 200', async () => {
    const s = await setup();
    const nonce = await nonceOf(s);
    const signature = await pay(s, nonce);
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        presentProof(s.context.app, URL, proof(signature, nonce), i % 2 ? 'legacy' : 'x-payment'),
      ),
    );
    const statuses = responses.map((r) => r.statusCode);
    expect(statuses.filter((code) => code === 200)).toHaveLength(1);
    // The others lost the race for the nonce (409) or for the transaction (402).
    expect(statuses.every((code) => code === 200 || code === 409 || code === 402)).toBe(true);
    expect(claimRows(s.context.dbPath)).toHaveLength(1);
  });
});

describe('a Solana payment that does not pay for this request', () => {
  it('carries the memo of another nonce → memo_mismatch, nothing consumed', async () => {
    const s = await setup();
    const paidFor = await nonceOf(s);
    const presented = await nonceOf(s);
    const signature = await pay(s, paidFor);
    expectRefusal(
      await presentProof(s.context.app, URL, proof(signature, presented)),
      'memo_mismatch',
    );
    expect((await s.context.store.payments.findNonce(presented))?.consumedAt).toBeNull();
    // The payment is still good for the nonce it names.
    expect((await presentProof(s.context.app, URL, proof(signature, paidFor))).statusCode).toBe(
      200,
    );
  });

  it('carries no memo → memo_mismatch', async () => {
    const s = await setup();
    const nonce = await nonceOf(s);
    const signature = await pay(s, nonce, { memo: null });
    expectRefusal(await presentProof(s.context.app, URL, proof(signature, nonce)), 'memo_mismatch');
  });

  it('carries the memo with another prefix → memo_mismatch', async () => {
    const s = await setup({ X402_PREFIX: 'acme' });
    const challenge = await challengeFor(s.context.app, URL);
    const nonce = challenge.payment?.nonce ?? '';
    expect(challenge.payment?.memo_format).toBe(`acme:${nonce}`);
    const signature = await pay(s, nonce); // memo "linkguard:<nonce>"
    expectRefusal(await presentProof(s.context.app, URL, proof(signature, nonce)), 'memo_mismatch');
  });

  it('failed on chain but still carries the memo → tx_failed', async () => {
    const s = await setup();
    const nonce = await nonceOf(s);
    // More than the payer holds: lands with skipPreflight, fails in the transfer instruction.
    const signature = await pay(s, nonce, { amountAtomic: 5_000_000n, skipPreflight: true });
    const body = expectRefusal(
      await presentProof(s.context.app, URL, proof(signature, nonce)),
      'tx_failed',
    );
    expect(body.payment?.nonce).not.toBe(nonce);
    expect((await s.context.store.payments.findNonce(nonce))?.consumedAt).toBeNull();
  });

  it('pays 0.009999 USDC → amount_too_low', async () => {
    const s = await setup();
    const nonce = await nonceOf(s);
    const signature = await pay(s, nonce, { amountAtomic: PRICE - 1n });
    expectRefusal(
      await presentProof(s.context.app, URL, proof(signature, nonce)),
      'amount_too_low',
    );
  });

  it('pays another wallet → wrong_recipient', async () => {
    const s = await setup();
    const nonce = await nonceOf(s);
    const other = (await generateKeyPairSigner()).address;
    const signature = await pay(s, nonce, { recipient: other });
    expectRefusal(
      await presentProof(s.context.app, URL, proof(signature, nonce)),
      'wrong_recipient',
    );
  });

  it('pays in a look-alike token → wrong_token', async () => {
    const s = await setup();
    const lookalike = await chain.createMint();
    await chain.fundToken(s.payer.address, lookalike, 1_000_000n);
    const nonce = await nonceOf(s);
    const signature = await pay(s, nonce, { mint: lookalike });
    expectRefusal(await presentProof(s.context.app, URL, proof(signature, nonce)), 'wrong_token');
  });

  it('is a transaction the chain does not know → tx_not_found', async () => {
    const s = await setup();
    const nonce = await nonceOf(s);
    const unknown = getBase58Decoder().decode(randomBytes(64));
    expectRefusal(await presentProof(s.context.app, URL, proof(unknown, nonce)), 'tx_not_found');
  });

  it('was paid for another URL → request_mismatch', async () => {
    const s = await setup();
    const nonce = await nonceOf(s, 'https://paypal.com/');
    const signature = await pay(s, nonce);
    expectRefusal(
      await presentProof(s.context.app, URL, proof(signature, nonce)),
      'request_mismatch',
    );
    // The payment still buys the URL it was issued for.
    expect(
      (await presentProof(s.context.app, 'https://paypal.com/', proof(signature, nonce)))
        .statusCode,
    ).toBe(200);
  });

  it('comes after the nonce expired → nonce_expired', async () => {
    const s = await setup();
    const nonce = await nonceOf(s);
    const signature = await pay(s, nonce);
    s.context.clock.advance(600_000);
    expectRefusal(await presentProof(s.context.app, URL, proof(signature, nonce)), 'nonce_expired');
    expect(claimRows(s.context.dbPath)).toHaveLength(0);
  });
});

describe('commitment', () => {
  it('finalized required: payment_pending keeps the nonce, then the same proof is served', async () => {
    const s = await setup({ SOLANA_COMMITMENT: 'finalized' });
    const nonce = await nonceOf(s);
    const signature = await pay(s, nonce); // returns once confirmed

    const pending = await presentProof(s.context.app, URL, proof(signature, nonce));
    const body = expectRefusal(pending, 'payment_pending');
    expect(body.payment?.nonce).toBe(nonce); // the same nonce, still valid
    expect(body.retry_after).toBe(1);
    expect(pending.headers['retry-after']).toBe('1');
    expect((await s.context.store.payments.findNonce(nonce))?.consumedAt).toBeNull();

    // Surfpool finalizes ~2 s after confirmation: retry like a client would, bounded.
    let status = pending.statusCode;
    for (let attempt = 0; attempt < 40 && status !== 200; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      status = (await presentProof(s.context.app, URL, proof(signature, nonce))).statusCode;
    }
    expect(status).toBe(200);
  });
});

describe('failures around verification consume nothing', () => {
  it('RPC down → 503 chain_unavailable; once it is back the same proof is served', async () => {
    const s = await setup();
    const nonce = await nonceOf(s);
    const signature = await pay(s, nonce);
    proxy.setMode('down');
    const down = await presentProof(s.context.app, URL, proof(signature, nonce));
    expect(down.statusCode).toBe(503);
    expect(down.json()).toMatchObject({ error: 'chain_unavailable', retry_after: 5 });
    expect((await s.context.store.payments.findNonce(nonce))?.consumedAt).toBeNull();

    proxy.setMode('up');
    expect((await presentProof(s.context.app, URL, proof(signature, nonce))).statusCode).toBe(200);
  });

  it('RPC hanging → 503 after CHAIN_RPC_TIMEOUT_MS', async () => {
    const s = await setup({ CHAIN_RPC_TIMEOUT_MS: '300' });
    const nonce = await nonceOf(s);
    const signature = await pay(s, nonce);
    proxy.setMode('hang');
    const response = await presentProof(s.context.app, URL, proof(signature, nonce));
    expect(response.statusCode).toBe(503);
    proxy.setMode('up');
    expect((await presentProof(s.context.app, URL, proof(signature, nonce))).statusCode).toBe(200);
  });

  it('a server error while judging after verification → 500; the same proof works on retry', async () => {
    const s = await setup();
    const nonce = await nonceOf(s);
    const signature = await pay(s, nonce);
    vi.spyOn(DetectionService.prototype, 'judge').mockImplementationOnce(() => {
      throw new Error('injected engine failure');
    });
    const failed = await presentProof(s.context.app, URL, proof(signature, nonce));
    expect(failed.statusCode).toBe(500);
    expect(failed.json()).toMatchObject({ error: 'internal_error' });
    expect((await s.context.store.payments.findNonce(nonce))?.consumedAt).toBeNull();
    expect(claimRows(s.context.dbPath)).toHaveLength(0);

    expect((await presentProof(s.context.app, URL, proof(signature, nonce))).statusCode).toBe(200);
  });
});

describe('readiness', () => {
  it('reports the Solana RPC', async () => {
    const s = await setup();
    const ready = await s.context.app.inject({ method: 'GET', url: '/v1/ready' });
    expect(ready.json()).toMatchObject({ status: 'ready', chains: { solana: 'ok' } });
    proxy.setMode('down');
    // A probe answers readiness checks for 5 s (decision 128); the next one sees the outage.
    s.context.clock.advance(5_000);
    const down = await s.context.app.inject({ method: 'GET', url: '/v1/ready' });
    expect(down.json()).toMatchObject({ status: 'ready', chains: { solana: 'unavailable' } });
  });
});
