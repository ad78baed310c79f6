/**
 * @module api/error-schemas
 * Error bodies (README, "API"): `{status, error, message}` plus `retry_after` on 429/503 and a
 * `reason` sub-code where one exists; the 402 bodies carry both challenge shapes (README, "Paying per request").
 */
import Type from 'typebox';

import { PAYMENT_INVALID_REASONS } from '../payments/payment-invalid-reason.js';

export const ErrorBodySchema = Type.Object(
  {
    status: Type.Integer(),
    error: Type.String({ description: 'Stable error code' }),
    message: Type.String(),
    reason: Type.Optional(Type.String({ description: 'Finer reason, e.g. why a URL is invalid' })),
    retry_after: Type.Optional(
      Type.Integer({ minimum: 0, description: 'Seconds; on 429 and 503' }),
    ),
  },
  { $id: 'ErrorBody' },
);

const SolanaOptionSchema = Type.Object({
  amount: Type.String({ description: 'Decimal USDC, e.g. "0.01"' }),
  token: Type.Literal('USDC'),
  token_mint: Type.String(),
  chain: Type.Literal('solana'),
  recipient: Type.String(),
  nonce: Type.String({ format: 'uuid' }),
  memo_format: Type.String({ description: 'Exact memo to attach: "<prefix>:<nonce>"' }),
  expires_at: Type.String({ format: 'date-time' }),
});

const BaseOptionSchema = Type.Object({
  amount: Type.String(),
  token: Type.Literal('USDC'),
  chain: Type.Literal('base'),
  chain_id: Type.Literal(8453),
  token_contract: Type.String(),
  recipient: Type.String(),
  nonce: Type.String({ format: 'uuid' }),
  nonce_binding: Type.Literal('eip191'),
  sign_message: Type.String({ description: 'Exact message to personal_sign: "<prefix>:<nonce>"' }),
  expires_at: Type.String({ format: 'date-time' }),
});

const PaymentOptionSchema = Type.Union([SolanaOptionSchema, BaseOptionSchema]);

const AcceptsEntrySchema = Type.Object({
  scheme: Type.Literal('exact'),
  network: Type.Union([Type.Literal('solana'), Type.Literal('base')]),
  maxAmountRequired: Type.String({ description: 'Atomic units (6 decimals): "10000" = 0.01 USDC' }),
  resource: Type.String(),
  description: Type.String(),
  mimeType: Type.String(),
  payTo: Type.String(),
  maxTimeoutSeconds: Type.Integer(),
  asset: Type.String(),
  extra: Type.Object({
    nonce: Type.String({ format: 'uuid' }),
    memo_template: Type.Optional(Type.String()),
    memo: Type.Optional(Type.String()),
    sign_message_template: Type.Optional(Type.String()),
    min_confirmations: Type.Optional(
      Type.Integer({
        minimum: 1,
        description: "Base: blocks (the payment's own included) before the proof is accepted",
      }),
    ),
    message: Type.Optional(Type.String()),
    name: Type.Optional(
      Type.String({ description: 'Standard exact on Base: EIP-712 domain name of USDC' }),
    ),
    version: Type.Optional(
      Type.String({ description: 'Standard exact on Base: EIP-712 domain version of USDC' }),
    ),
    feePayer: Type.Optional(
      Type.String({ description: 'Standard exact on Solana: the fee payer of the transaction' }),
    ),
  }),
});

export const PaymentChallengeSchema = Type.Object(
  {
    status: Type.Literal(402),
    error: Type.Union([Type.Literal('payment_required'), Type.Literal('payment_invalid')]),
    message: Type.String(),
    reason: Type.Optional(
      Type.Enum(PAYMENT_INVALID_REASONS, { description: 'payment_invalid sub-code' }),
    ),
    retry_after: Type.Optional(
      Type.Integer({
        minimum: 1,
        description: 'Seconds before retrying the same proof (reason payment_pending only)',
      }),
    ),
    payment: Type.Union([
      Type.Intersect([
        PaymentOptionSchema,
        Type.Object({ alternatives: Type.Array(PaymentOptionSchema) }),
      ]),
      Type.Null(),
    ]),
    x402Version: Type.Literal(1),
    accepts: Type.Array(AcceptsEntrySchema),
  },
  { $id: 'PaymentChallenge' },
);
