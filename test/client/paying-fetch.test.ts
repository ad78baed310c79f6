/**
 * `createPayingFetch` (src/client/paying-fetch.ts) paying for real on Surfpool and anvil against
 * the service emulator (test/helpers/service-emulator.ts): the emulator's challenge matches the
 * service's 402 schema; one payment on either chain, in either proof header form, then the
 * identical request retried with the proof; and what the client refuses without paying (a price
 * above the cap, a chain not offered, another token, a body that cannot be sent twice).
 * Re-sending after paying is in paying-fetch-retries.test.ts.
 */
import { randomUUID } from 'node:crypto';

import { Compile } from 'typebox/compile';
import type { LocalAccount } from 'viem';
import { describe, expect, it } from 'vitest';

import { PaymentChallengeSchema } from '../../src/api/error-schemas.js';
import { createPayingFetch, readSettlement } from '../../src/client/index.js';
import type { ProofForm } from '../../src/payments/payment-proof.js';
import { expectClientError } from '../helpers/expect-client-error.js';
import { freshEvmAddress, freshSolanaAddress } from '../helpers/fresh-addresses.js';
import { useLocalBase, useLocalSolana } from '../helpers/local-chain-hooks.js';
import { ONE_USDC, PRICE } from '../helpers/payment-values.js';
import {
  challengeBody,
  detectInit,
  EMULATED_VERDICT,
  type Offer,
  proofHeadersOf,
  type RecordedRequest,
  withServiceEmulator,
} from '../helpers/service-emulator.js';
import { solanaPayingFetch, solanaSetup } from '../helpers/solana-setup.js';

const solana = useLocalSolana();
const evm = useLocalBase();
/** The emulator checks proofs on these. */
const chains = { solana, base: evm };

/** A paying fetch from `account` on anvil (polling every 50 ms). */
function basePayingFetch(account: LocalAccount, headerForm?: ProofForm) {
  return createPayingFetch({
    chain: 'base',
    account,
    rpcUrl: evm.rpcUrl,
    pollingIntervalMs: 50,
    headerForm,
  });
}

describe('createPayingFetch', () => {
  it('emulates the server faithfully: its challenge matches the 402 schema of the service', async () => {
    const { offers } = await solanaSetup(solana, 0n);
    const body = challengeBody(offers, randomUUID(), 'http://127.0.0.1/v1/detect');
    expect(Compile(PaymentChallengeSchema).Check(body)).toBe(true);
  });

  for (const form of ['x-payment', 'legacy'] as const) {
    it(`pays on Solana and retries the identical request with the ${form} proof`, async () => {
      const { payer, recipient, offers } = await solanaSetup(solana);
      await withServiceEmulator({ chains, offers }, async (emulator) => {
        const { payingFetch, events } = solanaPayingFetch(solana, payer, { headerForm: form });
        const response = await payingFetch(emulator.detectUrl, detectInit());
        expect(response.status).toBe(200);
        expect(await response.json()).toEqual(EMULATED_VERDICT);

        expect(emulator.requests).toHaveLength(2);
        const [first, retry] = emulator.requests as [RecordedRequest, RecordedRequest];
        expect(first.proof).toEqual({ kind: 'none' });
        expect(retry.body).toBe(first.body);
        expect(retry.headers['content-type']).toBe('application/json');
        expect(retry.headers['x-request-id']).toBe('client-test');
        const nonce = emulator.nonces[0];
        expect(retry.proof).toMatchObject({
          kind: 'proof',
          form,
          proof: { chain: 'solana', nonce },
        });
        const sent = Object.keys(proofHeadersOf(retry)).sort();
        expect(sent).toEqual(
          form === 'x-payment' ? ['x-payment'] : ['x-402-chain', 'x-402-nonce', 'x-402-signature'],
        );

        const settlement = readSettlement(response);
        const signature =
          retry.proof.kind === 'proof' && retry.proof.proof.chain === 'solana'
            ? retry.proof.proof.txSignature
            : '';
        expect(settlement).toEqual({
          success: true,
          transaction: signature,
          network: 'solana',
          payer: payer.address,
        });
        expect(await solana.tokenBalance(recipient, solana.usdcMint)).toBe(PRICE);
        expect(await solana.tokenBalance(payer.address, solana.usdcMint)).toBe(ONE_USDC - PRICE);
        expect(events.map((event) => event.type)).toEqual(['challenge', 'paid', 'settled']);
        expect(events[0]).toMatchObject({
          network: 'solana',
          nonce,
          amountAtomic: PRICE,
          payTo: recipient,
        });
        expect(events[1]).toMatchObject({ transaction: signature });
        expect(events[2]).toMatchObject({ status: 200, attempts: 1, settlement });
      });
    });

    it(`pays on Base (transfer + EIP-191 signature) with the ${form} proof`, async () => {
      const account = await evm.newFundedAccount(ONE_USDC);
      const recipient = freshEvmAddress();
      const offers: Offer[] = [
        { chain: 'solana', payTo: await freshSolanaAddress(), asset: solana.usdcMint },
        // The challenge may name the token in lower case: it is the same address.
        { chain: 'base', payTo: recipient, asset: evm.usdc.toLowerCase() },
      ];
      await withServiceEmulator({ chains, offers }, async (emulator) => {
        const response = await basePayingFetch(account, form)(emulator.detectUrl, detectInit());
        expect(response.status).toBe(200);
        const retry = emulator.requests[1];
        if (retry === undefined) throw new Error('no retry');
        expect(retry.proof).toMatchObject({
          kind: 'proof',
          form,
          proof: { chain: 'base', nonce: emulator.nonces[0] },
        });
        expect(Object.keys(proofHeadersOf(retry)).sort()).toEqual(
          form === 'x-payment'
            ? ['x-payment']
            : ['x-402-chain', 'x-402-nonce', 'x-402-signature', 'x-402-wallet-sig'],
        );
        expect(readSettlement(response)).toMatchObject({ network: 'base', payer: account.address });
        expect(await evm.balanceOf(evm.usdc, recipient)).toBe(PRICE);
        expect(await evm.balanceOf(evm.usdc, account.address)).toBe(ONE_USDC - PRICE);
      });
    });
  }

  it('returns a response other than a 402 challenge untouched, without paying', async () => {
    const { payer, offers } = await solanaSetup(solana);
    await withServiceEmulator({ chains, offers }, async (emulator) => {
      const { payingFetch, events } = solanaPayingFetch(solana, payer);
      const response = await payingFetch(emulator.detectUrl, detectInit('not a url'));
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ error: 'invalid_url' });
      expect(emulator.requests).toHaveLength(1);
      expect(events).toEqual([]);
      expect(await solana.tokenBalance(payer.address, solana.usdcMint)).toBe(ONE_USDC);
    });
  });

  it('refuses a 402 that asks more than maxPriceAtomic, without paying', async () => {
    const { payer, offers } = await solanaSetup(solana);
    const expensive = offers.map((offer) => ({ ...offer, maxAmountRequired: '20000' }));
    await withServiceEmulator({ chains, offers: expensive }, async (emulator) => {
      const { payingFetch } = solanaPayingFetch(solana, payer);
      const error = await expectClientError(
        payingFetch(emulator.detectUrl, detectInit()),
        'price_too_high',
      );
      expect(error.message).toContain('20000');
      expect(emulator.requests).toHaveLength(1);
      expect(await solana.tokenBalance(payer.address, solana.usdcMint)).toBe(ONE_USDC);

      // A higher cap is the caller's choice.
      const generous = solanaPayingFetch(solana, payer, { maxPriceAtomic: 20_000n }).payingFetch;
      expect((await generous(emulator.detectUrl, detectInit())).status).toBe(200);
      expect(await solana.tokenBalance(payer.address, solana.usdcMint)).toBe(ONE_USDC - 20_000n);
    });
  });

  it('refuses a chain the service does not offer, naming the offered ones', async () => {
    const { offers } = await solanaSetup(solana, 0n);
    const account = await evm.newFundedAccount(ONE_USDC);
    await withServiceEmulator({ chains, offers: offers.slice(0, 1) }, async (emulator) => {
      const payingFetch = createPayingFetch({ chain: 'base', account, rpcUrl: evm.rpcUrl });
      const error = await expectClientError(
        payingFetch(emulator.detectUrl, detectInit()),
        'chain_not_offered',
      );
      expect(error.message).toContain('offers: solana');
      expect(await evm.balanceOf(evm.usdc, account.address)).toBe(ONE_USDC);
    });
  });

  it('refuses to pay in a token other than USDC unless told to accept any asset', async () => {
    const payer = await solana.newFundedWallet(0n);
    const lookalike = await solana.createMint();
    await solana.fundToken(payer.address, lookalike, ONE_USDC);
    const recipient = await freshSolanaAddress();
    const offers = [{ chain: 'solana' as const, payTo: recipient, asset: lookalike }];
    await withServiceEmulator({ chains, offers }, async (emulator) => {
      const strict = solanaPayingFetch(solana, payer).payingFetch;
      await expectClientError(strict(emulator.detectUrl, detectInit()), 'asset_not_accepted');
      expect(await solana.tokenBalance(payer.address, lookalike)).toBe(ONE_USDC);

      const any = solanaPayingFetch(solana, payer, { asset: null }).payingFetch;
      expect((await any(emulator.detectUrl, detectInit())).status).toBe(200);
      expect(await solana.tokenBalance(recipient, lookalike)).toBe(PRICE);
    });
  });

  it('pays from the spec’s `payment` object when the body has no `accepts` array', async () => {
    const account = await evm.newFundedAccount(ONE_USDC);
    const { offers } = await solanaSetup(solana, 0n);
    const recipient = freshEvmAddress();
    const withBase = [
      ...offers.filter((offer) => offer.chain === 'solana'),
      { chain: 'base' as const, payTo: recipient, asset: evm.usdc },
    ];
    await withServiceEmulator(
      { chains, offers: withBase, shape: 'payment-only' },
      async (emulator) => {
        const response = await basePayingFetch(account)(emulator.detectUrl, detectInit());
        expect(response.status).toBe(200);
        expect(await evm.balanceOf(evm.usdc, recipient)).toBe(PRICE);
      },
    );
  });

  it('refuses a stream body, which cannot be sent twice, before any request', async () => {
    const { payer } = await solanaSetup(solana, 0n);
    const { payingFetch } = solanaPayingFetch(solana, payer, {
      fetch: () => Promise.reject(new Error('must not be called')),
    });
    const stream = new ReadableStream({
      start(controller) {
        controller.close();
      },
    });
    await expectClientError(
      payingFetch('http://127.0.0.1:9/v1/detect', { method: 'POST', body: stream }),
      'unsupported_body',
    );
  });
});
