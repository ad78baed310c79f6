/**
 * @module payments/exact/exact-payment
 * Reading a standard x402 `exact` payment from request headers, beside the spec's own proofs
 * (`payment-proof.ts`): protocol v1 sends it in `X-PAYMENT` (base64 JSON `{x402Version: 1,
 * scheme: "exact", network, payload}`, the `x402` package's `PaymentPayloadSchema`), v2 in
 * `PAYMENT-SIGNATURE` (`@x402/core/http`'s encoding of `{x402Version: 2, accepted, payload,
 * resource?}`). An `X-PAYMENT` whose payload is the spec's `{nonce, txHash | txSignature}` is
 * not a standard payment and is left to `readPaymentProof`.
 *
 * Form only, no I/O: the envelope is checked with `@x402/core`'s schemas, the EVM authorization
 * field by field, so a malformed payment is a 402 `malformed_proof` and never reaches a chain.
 */
import { createHash } from 'node:crypto';

import { decodePaymentSignatureHeader } from '@x402/core/http';
import { PaymentPayloadV1Schema, PaymentPayloadV2Schema } from '@x402/core/schemas';
import type { PaymentPayload } from '@x402/core/types';
import Type from 'typebox';
import { Compile } from 'typebox/compile';

import type { Chain } from '../payment-proof.js';
import {
  BASE_NETWORK_V1,
  BASE_NETWORK_V2,
  SOLANA_NETWORK_V1,
  SOLANA_NETWORK_V2,
} from './exact-facilitator.js';

/** A standard payment as read; `payload` is what the facilitator receives. */
export interface ExactPayment {
  version: 1 | 2;
  chain: Chain;
  /** The x402 network name as sent (`base`, `eip155:8453`, `solana`, `solana:5eyk…`). */
  network: string;
  /** v1 and v2 envelopes both pass as `@x402/core`'s `PaymentPayload` (it routes on version). */
  payload: PaymentPayload;
  /**
   * What one claim is keyed on (docs/decisions.md, decision 154): Base `eip3009:<from>:<nonce>`
   * (EIP-3009 nonces are unique per authorizer), Solana `svm:<sha256 of the transaction>`.
   */
  authorizationId: string;
  /** v2 only: `accepted.extra.nonce`, the challenge nonce the payer answers. */
  challengeNonce: string | null;
  /** Base only: the authorization's `validBefore` (Unix seconds). */
  validBefore: bigint | null;
  /** Values that must never reach a log line (signature, payer, nonce, transaction). */
  secrets: string[];
}

export type ReadExactResult =
  | { kind: 'none' }
  | { kind: 'exact'; payment: ExactPayment }
  | { kind: 'malformed'; message: string };

/** A v2 payment with its `accepted` and a Solana transaction stays far below this. */
const MAX_HEADER_LENGTH = 16_384;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const NONCE = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const Address = Type.String({ pattern: '^0x[0-9a-fA-F]{40}$' });
const Uint = Type.String({ pattern: '^[0-9]{1,78}$' });
/** EIP-3009 payload of the `exact` scheme on EVM (x402 specs, scheme_exact_evm.md). */
const Eip3009Payload = Compile(
  Type.Object({
    signature: Type.String({ pattern: '^0x([0-9a-fA-F]{2}){65,4096}$' }),
    authorization: Type.Object({
      from: Address,
      to: Address,
      value: Uint,
      validAfter: Uint,
      validBefore: Uint,
      nonce: Type.String({ pattern: '^0x[0-9a-fA-F]{64}$' }),
    }),
  }),
);
/** Solana payload of the `exact` scheme: the partially signed transaction, base64. */
const SvmPayload = Compile(
  Type.Object({ transaction: Type.String({ minLength: 1, maxLength: MAX_HEADER_LENGTH }) }),
);

type Headers = Readonly<Record<string, string | string[] | undefined>>;

/**
 * Read the standard payment of a request, if it carries one.
 *
 * @param headers request headers with lower-case names.
 * @returns `none` (no standard payment: no header, or an `X-PAYMENT` with a spec proof), the
 *   payment, or `malformed` naming what is wrong. Never throws.
 */
export function readExactPayment(headers: Headers): ReadExactResult {
  try {
    return readHeaders(headers);
  } catch {
    return malformed('The payment is not well-formed');
  }
}

function readHeaders(headers: Headers): ReadExactResult {
  const signature = headers['payment-signature'];
  const xPayment = headers['x-payment'];
  if (signature !== undefined) {
    if (typeof signature !== 'string')
      return malformed('PAYMENT-SIGNATURE was sent more than once');
    if (xPayment !== undefined) {
      return malformed('Send either PAYMENT-SIGNATURE (x402 v2) or X-PAYMENT, not both');
    }
    if (signature.length > MAX_HEADER_LENGTH) return malformed('PAYMENT-SIGNATURE is too long');
    return readV2(signature.trim());
  }
  if (typeof xPayment !== 'string' || xPayment.length > MAX_HEADER_LENGTH) return { kind: 'none' };
  const value = xPayment.trim();
  if (!BASE64.test(value)) return { kind: 'none' };
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(value, 'base64').toString('utf8'));
  } catch {
    return { kind: 'none' };
  }
  // The spec's own proofs carry `nonce` and a transaction id; those are not standard payments.
  const inner = (json as { payload?: unknown } | null)?.payload;
  if (typeof inner !== 'object' || inner === null) return { kind: 'none' };
  if (!('authorization' in inner) && !('transaction' in inner)) return { kind: 'none' };
  const parsed = PaymentPayloadV1Schema.safeParse(json);
  if (!parsed.success || parsed.data.scheme !== 'exact') {
    return malformed('X-PAYMENT is not an x402 v1 `exact` payment payload');
  }
  const chain = chainOf(parsed.data.network, 1);
  if (chain === null) {
    return malformed(`x402 v1 network "${parsed.data.network}" is not accepted here`);
  }
  // Both envelopes pass through `@x402/core`'s facilitator, which routes on `x402Version`.
  return withPayload(1, chain, parsed.data.network, parsed.data as unknown as PaymentPayload, null);
}

function readV2(header: string): ReadExactResult {
  if (!BASE64.test(header)) return malformed('PAYMENT-SIGNATURE is not standard base64');
  const parsed = PaymentPayloadV2Schema.safeParse(decodePaymentSignatureHeader(header));
  if (!parsed.success || parsed.data.accepted.scheme !== 'exact') {
    return malformed('PAYMENT-SIGNATURE is not an x402 v2 `exact` payment payload');
  }
  const { accepted } = parsed.data;
  const chain = chainOf(accepted.network, 2);
  if (chain === null)
    return malformed(`x402 v2 network "${accepted.network}" is not accepted here`);
  const nonce = accepted.extra?.nonce;
  if (typeof nonce !== 'string' || !NONCE.test(nonce)) {
    return malformed('accepted.extra.nonce must be the nonce of the 402 being answered');
  }
  return withPayload(2, chain, accepted.network, parsed.data as PaymentPayload, nonce);
}

function withPayload(
  version: 1 | 2,
  chain: Chain,
  network: string,
  payload: PaymentPayload,
  challengeNonce: string | null,
): ReadExactResult {
  if (chain === 'base') {
    const inner: unknown = payload.payload;
    if (!Eip3009Payload.Check(inner)) {
      return malformed('The payload must be an EIP-3009 authorization and its signature');
    }
    const { authorization } = inner;
    const from = authorization.from.toLowerCase();
    const nonce = authorization.nonce.toLowerCase();
    return {
      kind: 'exact',
      payment: {
        version,
        chain,
        network,
        payload,
        authorizationId: `eip3009:${from}:${nonce}`,
        challengeNonce,
        validBefore: BigInt(authorization.validBefore),
        secrets: [inner.signature, authorization.from, authorization.nonce],
      },
    };
  }
  const inner: unknown = payload.payload;
  if (!SvmPayload.Check(inner)) return malformed('The payload must be a base64 Solana transaction');
  return {
    kind: 'exact',
    payment: {
      version,
      chain,
      network,
      payload,
      authorizationId: `svm:${createHash('sha256').update(inner.transaction).digest('hex')}`,
      challengeNonce,
      validBefore: null,
      secrets: [inner.transaction],
    },
  };
}

function chainOf(network: string, version: 1 | 2): Chain | null {
  if (network === (version === 1 ? BASE_NETWORK_V1 : BASE_NETWORK_V2)) return 'base';
  if (network === (version === 1 ? SOLANA_NETWORK_V1 : SOLANA_NETWORK_V2)) return 'solana';
  return null;
}

function malformed(message: string): ReadExactResult {
  return { kind: 'malformed', message };
}
