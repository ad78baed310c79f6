/**
 * @module payments/exact/exact-offers
 * What the 402 offers standard x402 `exact` clients (docs/decisions.md, decision 151).
 *
 * - Protocol v1 (`x402-fetch`, `x402-axios`): the body's `accepts` entries already say
 *   `scheme: "exact"` with network, asset, payTo, amount and `maxTimeoutSeconds`; when the
 *   standard scheme is settled for that chain, the entry's `extra` also carries what the
 *   official clients need to sign: Base, the EIP-712 domain `{name, version}` of USDC; Solana,
 *   the facilitator's `feePayer`. The spec's own fields (`nonce`, memo, message) stay, so one
 *   entry serves both kinds of client.
 * - Protocol v2 (`@x402/fetch`, `@x402/axios`): the `PAYMENT-REQUIRED` header, `@x402/core/http`'s
 *   encoding of `{x402Version: 2, resource, accepts}`, each requirement with CAIP-2 network,
 *   `amount`, and the challenge nonce in `extra.nonce`, which v2 clients echo in `accepted`.
 */
import { encodePaymentRequiredHeader } from '@x402/core/http';
import type { PaymentRequired, PaymentRequirements } from '@x402/core/types';
import type { PaymentRequirementsV1 } from '@x402/core/types/v1';

import type { PaymentConfig } from '../payment-config.js';
import type { Chain } from '../payment-proof.js';
import {
  BASE_NETWORK_V1,
  BASE_NETWORK_V2,
  type ExactKind,
  SOLANA_NETWORK_V1,
  SOLANA_NETWORK_V2,
} from './exact-facilitator.js';

/**
 * The EIP-712 domain of Base USDC (FiatTokenV2_2 `name()` and `version()` at
 * 0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913; the same values as `@x402/evm`'s default asset
 * table for eip155:8453). EIP-3009 signatures are made over it.
 */
export const USDC_EIP712_DOMAIN = { name: 'USD Coin', version: '2' } as const;

/** The standard offers a 402 makes, per chain and protocol version. */
export interface ExactOffers {
  v1: Partial<Record<Chain, Record<string, unknown>>>;
  v2: Partial<Record<Chain, Record<string, unknown>>>;
}

/** No standard offer (the facilitator is absent or could not say what it supports). */
export const NO_EXACT_OFFERS: ExactOffers = { v1: {}, v2: {} };

/**
 * The standard `extra` per chain and version from the facilitator's kinds, for the chains this
 * configuration offers. Base adds the USDC domain; Solana the facilitator's `feePayer` (without
 * one a Solana kind is not offered: clients cannot build the transaction).
 */
export function exactOffers(config: PaymentConfig, kinds: readonly ExactKind[]): ExactOffers {
  const offers: ExactOffers = { v1: {}, v2: {} };
  for (const kind of kinds) {
    const target = kind.version === 1 ? offers.v1 : offers.v2;
    if (kind.network === (kind.version === 1 ? BASE_NETWORK_V1 : BASE_NETWORK_V2)) {
      if (config.baseRecipient !== null) target.base = { ...USDC_EIP712_DOMAIN };
    } else if (kind.network === (kind.version === 1 ? SOLANA_NETWORK_V1 : SOLANA_NETWORK_V2)) {
      const feePayer = kind.extra.feePayer;
      if (config.solanaRecipient !== null && typeof feePayer === 'string') {
        target.solana = { feePayer };
      }
    }
  }
  return offers;
}

const DESCRIPTION = (config: PaymentConfig): string =>
  `linkguard URL verdict, ${config.priceUsdc} USDC per request`;

function payTo(config: PaymentConfig, chain: Chain): string {
  return (chain === 'base' ? config.baseRecipient : config.solanaRecipient) ?? '';
}

function asset(config: PaymentConfig, chain: Chain): string {
  return chain === 'base' ? config.baseUsdcContract : config.solanaUsdcMint;
}

/** The v2 requirement of `chain` for the challenge `nonce` (null when not offered). */
export function requirementV2(
  config: PaymentConfig,
  offers: ExactOffers,
  chain: Chain,
  nonce: string,
): PaymentRequirements | null {
  const extra = offers.v2[chain];
  if (extra === undefined) return null;
  return {
    scheme: 'exact',
    network: chain === 'base' ? BASE_NETWORK_V2 : SOLANA_NETWORK_V2,
    asset: asset(config, chain),
    amount: config.priceAtomic.toString(),
    payTo: payTo(config, chain),
    maxTimeoutSeconds: config.nonceTtlSeconds,
    // On Solana the v2 client writes `extra.memo` into the transaction's memo instruction, and
    // the facilitator refuses any other memo: the nonce is bound on chain, as in the spec's own
    // flow (docs/decisions.md, decision 159).
    extra:
      chain === 'solana'
        ? { ...extra, nonce, memo: `${config.prefix}:${nonce}` }
        : { ...extra, nonce },
  };
}

/**
 * The v1 requirement of `chain` as the facilitator checks it: the `accepts` entry the 402
 * offered, standard fields only (null when not offered).
 */
export function requirementV1(
  config: PaymentConfig,
  offers: ExactOffers,
  chain: Chain,
  resource: string,
): PaymentRequirementsV1 | null {
  const extra = offers.v1[chain];
  if (extra === undefined) return null;
  return {
    scheme: 'exact',
    network: (chain === 'base'
      ? BASE_NETWORK_V1
      : SOLANA_NETWORK_V1) as PaymentRequirementsV1['network'],
    maxAmountRequired: config.priceAtomic.toString(),
    resource,
    description: DESCRIPTION(config),
    mimeType: 'application/json',
    outputSchema: {},
    payTo: payTo(config, chain),
    maxTimeoutSeconds: config.nonceTtlSeconds,
    asset: asset(config, chain),
    extra,
  };
}

/**
 * The `PAYMENT-REQUIRED` header value for a 402 with challenge `nonce`, or null when no v2
 * offer is made.
 *
 * @param error the 402's message (x402 v2 `error`).
 */
export function paymentRequiredHeader(
  config: PaymentConfig,
  offers: ExactOffers,
  resource: string,
  nonce: string,
  error: string,
): string | null {
  const accepts = (['base', 'solana'] as const)
    .map((chain) => requirementV2(config, offers, chain, nonce))
    .filter((entry) => entry !== null);
  if (accepts.length === 0) return null;
  const required: PaymentRequired = {
    x402Version: 2,
    error,
    resource: { url: resource, description: DESCRIPTION(config), mimeType: 'application/json' },
    accepts,
  };
  return encodePaymentRequiredHeader(required);
}
