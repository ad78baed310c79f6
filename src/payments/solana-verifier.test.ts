/**
 * The decision part of the Solana verifier on `getTransaction` (jsonParsed) shapes that local
 * chains cannot produce: a memo program the RPC does not parse (the v4 program `Memo4c2p…` is
 * absent from Surfpool, payments guide §6.1), memos in inner instructions, token accounts closed
 * in the transaction. The same decisions against a real chain: test/payments/.
 */
import { getBase58Decoder } from '@solana/kit';
import { describe, expect, it } from 'vitest';

import {
  judgeSolanaTransaction,
  memosOf,
  type ParsedTransaction,
  TOKEN_PROGRAM_ADDRESS,
} from './solana-verifier.js';
import { isRpcRequestBug } from './verification.js';

const MEMO_V1 = 'Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo';
const MEMO_V4 = 'Memo4c2pN8afCj432Lb7RMVKi9PbQnnW7ewFFaV3oAH';
const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const RECIPIENT = '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin';
const PAYER = 'BscgYnvFr9gnPWkYKiBvz1rLwVsYRXQtyGmWwVBTwGaJ';
const MEMO = 'linkguard:6f1c2d4e-8a9b-4c3d-9e8f-0a1b2c3d4e5f';
const config = {
  recipient: RECIPIENT,
  mint: USDC,
  minAmountAtomic: 10_000n,
  commitment: 'confirmed' as const,
};
const confirmed = { err: null, confirmationStatus: 'confirmed' as const };

const base58 = (text: string) => getBase58Decoder().decode(new TextEncoder().encode(text));

function balance(accountIndex: number, owner: string, amount: bigint, mint = USDC) {
  return {
    accountIndex,
    mint,
    owner,
    programId: TOKEN_PROGRAM_ADDRESS,
    uiTokenAmount: { amount: amount.toString() },
  };
}

function transaction(
  parts: Partial<NonNullable<ParsedTransaction['meta']>> & {
    instructions?: ParsedTransaction['transaction']['message']['instructions'];
  } = {},
): ParsedTransaction {
  const { instructions, ...meta } = parts;
  return {
    meta: { err: null, preTokenBalances: [], postTokenBalances: [], ...meta },
    transaction: {
      message: {
        accountKeys: [{ pubkey: PAYER }],
        instructions: instructions ?? [{ programId: MEMO_V1, parsed: MEMO }],
      },
    },
  };
}

describe('memosOf', () => {
  it('reads parsed memos, base58 data of unparsed memo programs, and inner instructions', () => {
    const tx = transaction({
      instructions: [
        { programId: MEMO_V1, parsed: 'first' },
        { programId: MEMO_V4, data: base58('second') },
        { programId: TOKEN_PROGRAM_ADDRESS, parsed: 'not a memo' },
      ],
      innerInstructions: [{ instructions: [{ programId: MEMO_V4, parsed: 'inner' }] }],
    });
    expect(memosOf(tx)).toEqual(['first', 'second', 'inner']);
  });

  it('skips data that is not base58 or not UTF-8', () => {
    const invalidUtf8 = getBase58Decoder().decode(new Uint8Array([0xff, 0xfe]));
    const tx = transaction({
      instructions: [
        { programId: MEMO_V4, data: '0OIl' },
        { programId: MEMO_V4, data: invalidUtf8 },
      ],
    });
    expect(memosOf(tx)).toEqual([]);
  });
});

describe('judgeSolanaTransaction', () => {
  it('accepts a payment whose memo sits in an inner instruction (a CPI route)', () => {
    const tx = transaction({
      instructions: [],
      innerInstructions: [{ instructions: [{ programId: MEMO_V4, data: base58(MEMO) }] }],
      preTokenBalances: [balance(1, PAYER, 50_000n)],
      postTokenBalances: [balance(1, PAYER, 40_000n), balance(2, RECIPIENT, 10_000n)],
    });
    expect(judgeSolanaTransaction(tx, confirmed, MEMO, config)).toEqual({
      ok: true,
      payer: PAYER,
      amountAtomic: 10_000n,
    });
  });

  it('sums every token account the recipient owns, and counts a new account from zero', () => {
    const tx = transaction({
      preTokenBalances: [balance(3, RECIPIENT, 1_000n)],
      postTokenBalances: [balance(3, RECIPIENT, 6_000n), balance(4, RECIPIENT, 5_000n)],
    });
    expect(judgeSolanaTransaction(tx, confirmed, MEMO, config)).toMatchObject({
      ok: true,
      amountAtomic: 10_000n,
    });
  });

  it('counts an account closed in the transaction as emptied', () => {
    const tx = transaction({
      preTokenBalances: [balance(3, RECIPIENT, 20_000n)],
      postTokenBalances: [balance(4, RECIPIENT, 25_000n)],
    });
    // +25,000 − 20,000: the recipient is only 5,000 better off.
    expect(judgeSolanaTransaction(tx, confirmed, MEMO, config)).toMatchObject({
      ok: false,
      reason: 'amount_too_low',
    });
  });

  it('ignores USDC-mint balances under another token program', () => {
    const tx = transaction({
      postTokenBalances: [
        {
          ...balance(2, RECIPIENT, 10_000n),
          programId: 'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb',
        },
      ],
    });
    expect(judgeSolanaTransaction(tx, confirmed, MEMO, config)).toMatchObject({
      ok: false,
      reason: 'wrong_token',
    });
  });

  it('never takes a memo that merely contains the expected text', () => {
    const tx = transaction({
      instructions: [{ programId: MEMO_V1, parsed: `${MEMO} please` }],
      postTokenBalances: [balance(2, RECIPIENT, 10_000n)],
    });
    expect(judgeSolanaTransaction(tx, confirmed, MEMO, config)).toMatchObject({
      reason: 'memo_mismatch',
    });
  });

  it.each([
    ['a status below the commitment', { err: null, confirmationStatus: 'processed' as const }],
    ['a status without a level', { err: null, confirmationStatus: null }],
    ['no status although the transaction is returned', null],
  ])('is pending with %s', (_label, status) => {
    const tx = transaction({ postTokenBalances: [balance(2, RECIPIENT, 10_000n)] });
    expect(judgeSolanaTransaction(tx, status, MEMO, config)).toMatchObject({
      ok: false,
      reason: 'payment_pending',
      retryAfterSeconds: 1,
    });
  });

  it('is pending when the status is known but the transaction is not served yet', () => {
    expect(judgeSolanaTransaction(null, confirmed, MEMO, config)).toMatchObject({
      reason: 'payment_pending',
    });
  });

  it('is tx_failed when only the status carries the error', () => {
    const failedStatus = {
      err: { InstructionError: [1, { Custom: 1 }] },
      confirmationStatus: 'confirmed' as const,
    };
    expect(judgeSolanaTransaction(null, failedStatus, MEMO, config)).toMatchObject({
      reason: 'tx_failed',
    });
  });

  it('requires finalized when configured', () => {
    const tx = transaction({ postTokenBalances: [balance(2, RECIPIENT, 10_000n)] });
    const finalized = { ...config, commitment: 'finalized' as const };
    expect(judgeSolanaTransaction(tx, confirmed, MEMO, finalized)).toMatchObject({
      reason: 'payment_pending',
    });
    expect(
      judgeSolanaTransaction(tx, { err: null, confirmationStatus: 'finalized' }, MEMO, finalized),
    ).toMatchObject({ ok: true });
  });
});

describe('isRpcRequestBug', () => {
  it('finds JSON-RPC request errors in viem (code) and kit (context.__code) errors and causes', () => {
    expect(isRpcRequestBug({ code: -32602 })).toBe(true);
    expect(isRpcRequestBug({ context: { __code: -32601 } })).toBe(true);
    expect(isRpcRequestBug(new Error('wrapped', { cause: { code: -32700 } }))).toBe(true);
  });

  it('treats server errors, HTTP errors and plain failures as outages', () => {
    expect(isRpcRequestBug({ code: -32005 })).toBe(false); // node unhealthy
    expect(isRpcRequestBug({ context: { __code: 8100002, statusCode: 503 } })).toBe(false);
    expect(isRpcRequestBug(new TypeError('fetch failed'))).toBe(false);
    expect(isRpcRequestBug(undefined)).toBe(false);
  });
});
