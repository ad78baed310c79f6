/**
 * `sendSolanaUsdcPayment` (src/client/solana-payment.ts) against a real Surfpool: it moves exactly
 * the amount to the recipient's ATA with the memo that binds the nonce, and it can land the
 * deliberately wrong payments the server's tests need (a failed transfer that still carries its
 * memo, the v1 memo program, no memo, another mint). Also what it says when the commitment is not
 * reached in time.
 */
import type { Signature } from '@solana/kit';
import {
  LEGACY_MEMO_PROGRAM_ADDRESS_V1,
  LEGACY_MEMO_PROGRAM_ADDRESS_V3,
} from '@solana-program/memo';
import { describe, expect, it } from 'vitest';

import { sendSolanaUsdcPayment, type SolanaPaymentOptions } from '../../src/client/index.js';
import { expectClientError } from '../helpers/expect-client-error.js';
import { freshSolanaAddress } from '../helpers/fresh-addresses.js';
import { useLocalSolana } from '../helpers/local-chain-hooks.js';
import { freshMemo, ONE_USDC, PRICE } from '../helpers/payment-values.js';
import { solanaTransaction } from '../helpers/solana-transaction.js';

const solana = useLocalSolana();

/** A payer with `usdc` atomic USDC, a fresh recipient, and a sender of PRICE USDC between them. */
async function payerAndRecipient(usdc: bigint) {
  const payer = await solana.newFundedWallet(usdc);
  const recipient = await freshSolanaAddress();
  const pay = (options: Partial<SolanaPaymentOptions> = {}) =>
    sendSolanaUsdcPayment({
      rpcUrl: solana.rpcUrl,
      signer: payer,
      recipient,
      mint: solana.usdcMint,
      amountAtomic: PRICE,
      memo: freshMemo(),
      ...options,
    });
  return { payer, recipient, pay };
}

const landed = (signature: Signature) => solanaTransaction(solana.rpcUrl, signature);

describe('sendSolanaUsdcPayment', () => {
  it('moves exactly the amount to the recipient ATA and carries the memo (MemoSq4g… by default)', async () => {
    const { payer, recipient, pay } = await payerAndRecipient(ONE_USDC);
    const memo = freshMemo();
    const result = await pay({ memo });
    expect(result.failed).toBe(false);
    expect(await solana.tokenBalance(recipient, solana.usdcMint)).toBe(PRICE);
    expect(await solana.tokenBalance(payer.address, solana.usdcMint)).toBe(ONE_USDC - PRICE);
    const tx = await landed(result.signature);
    expect(tx.err).toBeNull();
    expect(tx.feePayer).toBe(payer.address);
    expect(tx.memos).toEqual([{ programId: LEGACY_MEMO_PROGRAM_ADDRESS_V3, text: memo }]);
  });

  it('pays again to a recipient whose ATA already exists (the ATA creation is idempotent)', async () => {
    const { recipient, pay } = await payerAndRecipient(ONE_USDC);
    for (const memo of [freshMemo(), freshMemo()]) {
      const { failed } = await pay({ memo });
      expect(failed).toBe(false);
    }
    expect(await solana.tokenBalance(recipient, solana.usdcMint)).toBe(2n * PRICE);
  });

  it('lands an overspend with skipPreflight as a failed transaction that still carries its memo', async () => {
    const { payer, recipient, pay } = await payerAndRecipient(5_000n);
    const memo = freshMemo();
    const result = await pay({ memo, skipPreflight: true });
    expect(result.failed).toBe(true);
    expect(await solana.tokenBalance(recipient, solana.usdcMint)).toBe(0n);
    expect(await solana.tokenBalance(payer.address, solana.usdcMint)).toBe(5_000n);
    const tx = await landed(result.signature);
    expect(tx.err).not.toBeNull();
    expect(tx.memos.map((m) => m.text)).toEqual([memo]);
  });

  it('refuses the same overspend before landing when preflight runs (nothing paid)', async () => {
    const { payer, pay } = await payerAndRecipient(5_000n);
    await expect(pay()).rejects.toThrow();
    expect(await solana.tokenBalance(payer.address, solana.usdcMint)).toBe(5_000n);
  });

  it('sends the memo with the v1 memo program, or no memo at all, and pays in another mint', async () => {
    const { payer, recipient, pay } = await payerAndRecipient(ONE_USDC);
    const memo = freshMemo();
    const v1 = await pay({ memo, memoProgram: LEGACY_MEMO_PROGRAM_ADDRESS_V1 });
    expect(v1.failed).toBe(false);
    expect((await landed(v1.signature)).memos).toEqual([
      { programId: LEGACY_MEMO_PROGRAM_ADDRESS_V1, text: memo },
    ]);

    const otherMint = await solana.createMint();
    await solana.fundToken(payer.address, otherMint, ONE_USDC);
    const noMemo = await pay({ mint: otherMint, amountAtomic: 9_999n, memo: null });
    expect(noMemo.failed).toBe(false);
    expect((await landed(noMemo.signature)).memos).toEqual([]);
    expect(await solana.tokenBalance(recipient, otherMint)).toBe(9_999n);
    expect(await solana.tokenBalance(recipient, solana.usdcMint)).toBe(PRICE);
  });

  it('names the sent transaction when the commitment is not reached in time', async () => {
    const { recipient, pay } = await payerAndRecipient(ONE_USDC);
    // Surfpool finalizes about 2 s after confirming (payments guide §3.1).
    const error = await expectClientError(
      pay({ commitment: 'finalized', timeoutMs: 200 }),
      'not_confirmed',
    );
    expect(error.transaction).toMatch(/^[1-9A-HJ-NP-Za-km-z]{64,88}$/);
    // It landed all the same: the error is about waiting, not about paying.
    await expect.poll(() => solana.tokenBalance(recipient, solana.usdcMint)).toBe(PRICE);
  });
});
