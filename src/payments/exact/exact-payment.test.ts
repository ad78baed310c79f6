/**
 * Reading standard x402 `exact` payments (`exact-payment.ts`): what is a standard payment, what
 * is left to the spec's proof reader, and what is malformed — all without I/O.
 */
import { encodePaymentSignatureHeader } from '@x402/core/http';
import type { PaymentPayload } from '@x402/core/types';
import { describe, expect, it } from 'vitest';

import { readExactPayment } from './exact-payment.js';

const FROM = '0x1111111111111111111111111111111111111111';
const AUTH_NONCE = `0x${'ab'.repeat(32)}`;
const CHALLENGE_NONCE = '0b6f1d6e-7a39-4c84-9e6b-3c1d2e4f5a6b';
const EVM_PAYLOAD = {
  signature: `0x${'12'.repeat(65)}`,
  authorization: {
    from: FROM,
    to: '0x2222222222222222222222222222222222222222',
    value: '10000',
    validAfter: '0',
    validBefore: '1800000000',
    nonce: AUTH_NONCE,
  },
};

function xPayment(value: unknown): Record<string, string> {
  return { 'x-payment': Buffer.from(JSON.stringify(value)).toString('base64') };
}

function v2(accepted: Record<string, unknown>, payload: Record<string, unknown> = EVM_PAYLOAD) {
  return {
    'payment-signature': encodePaymentSignatureHeader({
      x402Version: 2,
      accepted,
      payload,
    } as PaymentPayload),
  };
}

const ACCEPTED = {
  scheme: 'exact',
  network: 'eip155:8453',
  asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
  amount: '10000',
  payTo: '0x2222222222222222222222222222222222222222',
  maxTimeoutSeconds: 600,
  extra: { name: 'USD Coin', version: '2', nonce: CHALLENGE_NONCE },
};

describe('readExactPayment', () => {
  it('reads an x402 v1 EIP-3009 payment, keyed on its authorization', () => {
    const read = readExactPayment(
      xPayment({ x402Version: 1, scheme: 'exact', network: 'base', payload: EVM_PAYLOAD }),
    );
    expect(read).toMatchObject({
      kind: 'exact',
      payment: {
        version: 1,
        chain: 'base',
        network: 'base',
        authorizationId: `eip3009:${FROM}:${AUTH_NONCE}`,
        challengeNonce: null,
        validBefore: 1_800_000_000n,
      },
    });
  });

  it('reads an x402 v2 payment with the challenge nonce it echoes', () => {
    expect(readExactPayment(v2(ACCEPTED))).toMatchObject({
      kind: 'exact',
      payment: { version: 2, chain: 'base', challengeNonce: CHALLENGE_NONCE },
    });
  });

  it("leaves the spec's own X-PAYMENT proofs and requests without payment alone", () => {
    const proof = {
      x402Version: 1,
      scheme: 'exact',
      network: 'base',
      payload: { txHash: `0x${'1'.repeat(64)}`, walletSig: `0x${'2'.repeat(130)}`, nonce: 'n' },
    };
    expect(readExactPayment(xPayment(proof))).toEqual({ kind: 'none' });
    expect(readExactPayment({})).toEqual({ kind: 'none' });
    expect(readExactPayment({ 'x-payment': 'not base64!' })).toEqual({ kind: 'none' });
  });

  it.each([
    [
      'an authorization field of the wrong form',
      xPayment({
        x402Version: 1,
        scheme: 'exact',
        network: 'base',
        payload: { ...EVM_PAYLOAD, authorization: { ...EVM_PAYLOAD.authorization, value: '-1' } },
      }),
    ],
    [
      'a v1 network not offered',
      xPayment({ x402Version: 1, scheme: 'exact', network: 'polygon', payload: EVM_PAYLOAD }),
    ],
    ['a v2 payment without our nonce', v2({ ...ACCEPTED, extra: { name: 'USD Coin' } })],
    ['a v2 network not offered', v2({ ...ACCEPTED, network: 'eip155:1' })],
    ['a v2 payment that is not base64', { 'payment-signature': '%%%' }],
    ['both headers at once', { ...v2(ACCEPTED), 'x-payment': 'abcd' }],
    [
      'a Solana payload without its transaction',
      v2({ ...ACCEPTED, network: 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp' }, {}),
    ],
  ])('refuses %s as malformed', (_name, headers) => {
    expect(readExactPayment(headers).kind).toBe('malformed');
  });
});
