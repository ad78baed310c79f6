import { describe, expect, it } from 'vitest';

import { seededRandom } from '../../test/helpers/seeded-random.js';
import {
  type BaseProof,
  decodeSettlementResponse,
  encodeSettlementResponse,
  isSolanaSignature,
  paymentHeaders,
  readPaymentProof,
  type SolanaProof,
} from './payment-proof.js';

const NONCE = '6f1c2d4e-8a9b-4c3d-9e8f-0a1b2c3d4e5f';
/** A syntactically valid Solana signature: 64 bytes in base58 (88 characters). */
const SIGNATURE = '5'.repeat(87) + '1';
const TX_HASH = `0x${'ab'.repeat(32)}` as const;
const WALLET_SIG = `0x${'cd'.repeat(65)}` as const;

const solana: SolanaProof = { chain: 'solana', txSignature: SIGNATURE, nonce: NONCE };
const baseProof: BaseProof = {
  chain: 'base',
  txHash: TX_HASH,
  walletSig: WALLET_SIG,
  nonce: NONCE,
};

const lower = (headers: Record<string, string>) =>
  Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
const xPayment = (value: unknown) => ({
  'x-payment': Buffer.from(JSON.stringify(value)).toString('base64'),
});
const envelope = (network: string, payload: unknown) => ({
  x402Version: 1,
  scheme: 'exact',
  network,
  payload,
});

describe('readPaymentProof', () => {
  it('is none without proof headers', () => {
    expect(readPaymentProof({ authorization: 'Bearer x', 'content-type': 'json' })).toEqual({
      kind: 'none',
    });
  });

  it.each([
    ['solana', 'x-payment', solana],
    ['solana', 'legacy', solana],
    ['base', 'x-payment', baseProof],
    ['base', 'legacy', baseProof],
  ] as const)('round-trips a %s proof in the %s form', (_chain, form, proof) => {
    expect(readPaymentProof(lower(paymentHeaders(proof, form)))).toEqual({
      kind: 'proof',
      proof,
      form,
    });
  });

  it('defaults the legacy chain to solana (README, "Paying per request (x402)")', () => {
    expect(readPaymentProof({ 'x-402-signature': SIGNATURE, 'x-402-nonce': NONCE })).toMatchObject({
      kind: 'proof',
      proof: solana,
    });
  });

  it('lower-cases a Base transaction hash (claims are keyed on one spelling)', () => {
    const read = readPaymentProof(
      lower(paymentHeaders({ ...baseProof, txHash: `0x${'AB'.repeat(32)}` }, 'legacy')),
    );
    expect(read).toMatchObject({ kind: 'proof', proof: { txHash: TX_HASH } });
  });

  it('ignores extra envelope fields (forward compatibility)', () => {
    const read = readPaymentProof(
      xPayment({ ...envelope('solana', { txSignature: SIGNATURE, nonce: NONCE }), resource: 'x' }),
    );
    expect(read).toMatchObject({ kind: 'proof' });
  });

  it.each([
    ['not base64', { 'x-payment': '%%%not-base64%%%' }, /base64/],
    ['base64url', { 'x-payment': 'eyJ4NDAyVmVyc2lvbiI6MX0_-' }, /base64/],
    ['base64 of non-JSON', { 'x-payment': Buffer.from('hello').toString('base64') }, /JSON/],
    [
      'x402Version 2',
      xPayment({ ...envelope('solana', { txSignature: SIGNATURE, nonce: NONCE }), x402Version: 2 }),
      /x402Version: 1/,
    ],
    [
      'another scheme',
      xPayment({ ...envelope('solana', { txSignature: SIGNATURE, nonce: NONCE }), scheme: 'upto' }),
      /scheme/,
    ],
    [
      'another network',
      xPayment(envelope('base-sepolia', { txHash: TX_HASH, walletSig: WALLET_SIG, nonce: NONCE })),
      /network/,
    ],
    ['a JSON array', xPayment([1, 2]), /x402Version/],
    ['no payload', xPayment({ x402Version: 1, scheme: 'exact', network: 'solana' }), /payload/],
    [
      'a Solana signature of 63 bytes',
      xPayment(envelope('solana', { txSignature: '5'.repeat(86), nonce: NONCE })),
      /txSignature/,
    ],
    [
      'a Solana proof with a Base hash',
      xPayment(envelope('solana', { txHash: TX_HASH, nonce: NONCE })),
      /txSignature/,
    ],
    [
      'a nonce that is not a UUIDv4',
      xPayment(envelope('solana', { txSignature: SIGNATURE, nonce: 'linkguard:abc' })),
      /nonce/,
    ],
    [
      'an upper-case nonce',
      xPayment(envelope('solana', { txSignature: SIGNATURE, nonce: NONCE.toUpperCase() })),
      /nonce/,
    ],
    [
      'a Base proof without walletSig',
      xPayment(envelope('base', { txHash: TX_HASH, nonce: NONCE })),
      /walletSig/,
    ],
    [
      'a Base hash of 31 bytes',
      xPayment(
        envelope('base', { txHash: `0x${'ab'.repeat(31)}`, walletSig: WALLET_SIG, nonce: NONCE }),
      ),
      /txHash/,
    ],
    [
      'a wallet signature of 64 bytes',
      xPayment(
        envelope('base', { txHash: TX_HASH, walletSig: `0x${'cd'.repeat(64)}`, nonce: NONCE }),
      ),
      /walletSig/,
    ],
    ['legacy without nonce', { 'x-402-signature': SIGNATURE }, /X-402-Nonce/],
    ['legacy without signature', { 'x-402-nonce': NONCE }, /X-402-Signature/],
    [
      'legacy with an unknown chain',
      { 'x-402-chain': 'ethereum', 'x-402-signature': TX_HASH, 'x-402-nonce': NONCE },
      /X-402-Chain/,
    ],
    [
      'legacy Base without wallet signature',
      { 'x-402-chain': 'base', 'x-402-signature': TX_HASH, 'x-402-nonce': NONCE },
      /X-402-Wallet-Sig/,
    ],
    [
      'legacy Solana with a wallet signature',
      { 'x-402-signature': SIGNATURE, 'x-402-nonce': NONCE, 'x-402-wallet-sig': WALLET_SIG },
      /Base payments only/,
    ],
    [
      'both forms at once',
      { ...lower(paymentHeaders(solana)), 'x-402-signature': SIGNATURE },
      /not both/,
    ],
    // 64–88 characters with one outside the base58 alphabet: `isSignature()` of @solana/kit
    // throws on these (issue 14, finding 1).
    [
      'a 64-character signature of zeros (legacy)',
      { 'x-402-signature': '0'.repeat(64), 'x-402-nonce': NONCE },
      /X-402-Signature/,
    ],
    [
      'an 88-character signature with an "l"',
      xPayment(envelope('solana', { txSignature: `${'5'.repeat(87)}l`, nonce: NONCE })),
      /txSignature/,
    ],
    [
      'a signature with a non-ASCII character',
      { 'x-402-signature': `${'5'.repeat(70)}é`, 'x-402-nonce': NONCE },
      /X-402-Signature/,
    ],
    ['a repeated header', { 'x-payment': ['a', 'b'] }, /more than once/],
    ['an oversized header', { 'x-payment': 'A'.repeat(5000) }, /too long/],
  ])('is malformed for %s', (_label, headers, message) => {
    const read = readPaymentProof(headers);
    expect(read.kind).toBe('malformed');
    expect(read.kind === 'malformed' ? read.message : '').toMatch(message);
  });
});

describe('readPaymentProof never throws (seeded property)', () => {
  // Characters that break each field's grammar in a different way: base58 and hex digits, the
  // letters base58 leaves out, base64 and JSON punctuation, whitespace, non-ASCII.
  const ALPHABET = [
    ...Array.from('123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'),
    ...Array.from('0OIl+/=-_x{}[]":, \t'),
    'é',
    '\u0000',
    '😀',
  ];

  it('answers none, proof or malformed for 20,000 random proofs in every field', () => {
    const random = seededRandom(1414);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
    const text = (): string => {
      // Lengths around each field's bounds: nonces (36), hashes (66), signatures (64–88, 132).
      const length = pick([0, 1, 36, 63, 64, 65, 66, 87, 88, 89, 132, 200]);
      let value = '';
      for (let i = 0; i < length; i++) value += pick(ALPHABET);
      // Half the time, one wrong character in an otherwise valid value.
      if (random() < 0.5 && length > 0) {
        const valid = pick([SIGNATURE, TX_HASH, WALLET_SIG, NONCE]);
        const at = Math.floor(random() * valid.length);
        value = valid.slice(0, at) + pick(ALPHABET) + valid.slice(at + 1);
      }
      return value;
    };
    for (let i = 0; i < 20_000; i++) {
      const payload = { txSignature: text(), txHash: text(), walletSig: text(), nonce: text() };
      const headers =
        random() < 0.5
          ? xPayment(envelope(pick(['solana', 'base']), payload))
          : {
              'x-402-chain': pick(['solana', 'base', text()]),
              'x-402-signature': pick([payload.txSignature, payload.txHash]),
              'x-402-nonce': payload.nonce,
              ...(random() < 0.5 ? { 'x-402-wallet-sig': payload.walletSig } : {}),
            };
      let kind: string;
      try {
        kind = readPaymentProof(headers).kind;
      } catch (error) {
        kind = `threw ${String(error)} on ${JSON.stringify(headers)}`;
      }
      if (kind !== 'proof' && kind !== 'malformed') expect.fail(kind);
    }
  });
});

describe('isSolanaSignature', () => {
  it('accepts base58 of 64 bytes only, and never throws', () => {
    expect(isSolanaSignature(SIGNATURE)).toBe(true);
    expect(isSolanaSignature('1'.repeat(64))).toBe(true); // 64 zero bytes
    for (const value of [
      '0'.repeat(64),
      `${'5'.repeat(87)}I`,
      '5'.repeat(86),
      '',
      'x'.repeat(89),
    ]) {
      expect(isSolanaSignature(value)).toBe(false);
    }
  });
});

describe('X-PAYMENT-RESPONSE', () => {
  it('round-trips and rejects anything else', () => {
    const response = {
      success: true as const,
      transaction: SIGNATURE,
      network: 'solana' as const,
      payer: 'Payer',
    };
    expect(decodeSettlementResponse(encodeSettlementResponse(response))).toEqual(response);
    expect(decodeSettlementResponse('not base64 json')).toBeNull();
    expect(
      decodeSettlementResponse(Buffer.from(JSON.stringify({ success: false })).toString('base64')),
    ).toBeNull();
  });
});
