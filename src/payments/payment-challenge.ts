/**
 * @module payments/payment-challenge
 * The x402 402 challenge (README, 'Paying per request (x402)'). One body carries both shapes so
 * both kinds of client work: the spec's `payment` object (primary option plus `alternatives`) and
 * the x402 v1 envelope `{x402Version: 1, accepts: […]}`. A challenge issues a new single-use
 * UUIDv4 nonce, stored with its issue time and the SHA-256 of the normalized URL it was issued
 * for, valid for the configured TTL (10 minutes by default) — except the answer to a pending
 * payment, which renders the nonce being paid again.
 */
import { randomUUID } from 'node:crypto';

import type { Clock } from '../clock.js';
import type { IssuedNonce, PaymentStore } from '../store/ports/payment-store.js';
import { BASE_CHAIN_ID } from './base-verifier.js';
import { type ExactOffers, NO_EXACT_OFFERS } from './exact/exact-offers.js';
import type { PaymentConfig } from './payment-config.js';
import type { PaymentInvalidReason } from './payment-invalid-reason.js';
import type { Chain } from './payment-proof.js';

/** The 402 body. `payment` is null when no chain is configured. */
export interface PaymentChallengeBody {
  status: 402;
  error: 'payment_required' | 'payment_invalid';
  message: string;
  reason?: PaymentInvalidReason;
  /** Seconds; only with reason `payment_pending` (also sent as `Retry-After`). */
  retry_after?: number;
  payment: (PaymentOption & { alternatives: PaymentOption[] }) | null;
  x402Version: 1;
  accepts: AcceptsEntry[];
}

type PaymentOption = SolanaOption | BaseOption;

interface SolanaOption {
  amount: string;
  token: 'USDC';
  token_mint: string;
  chain: 'solana';
  recipient: string;
  nonce: string;
  memo_format: string;
  expires_at: string;
}

interface BaseOption {
  amount: string;
  token: 'USDC';
  chain: 'base';
  chain_id: typeof BASE_CHAIN_ID;
  token_contract: string;
  recipient: string;
  nonce: string;
  nonce_binding: 'eip191';
  sign_message: string;
  expires_at: string;
}

interface AcceptsEntry {
  scheme: 'exact';
  network: Chain;
  maxAmountRequired: string;
  resource: string;
  description: string;
  mimeType: string;
  payTo: string;
  maxTimeoutSeconds: number;
  asset: string;
  extra: {
    nonce: string;
    memo_template?: string;
    memo?: string;
    sign_message_template?: string;
    message?: string;
    /** Base: blocks the payment needs before the proof is accepted (BASE_MIN_CONFIRMATIONS). */
    min_confirmations?: number;
    /** Standard `exact` on Base: the EIP-712 domain of USDC (x402 v1 clients sign over it). */
    name?: string;
    version?: string;
    /** Standard `exact` on Solana: the account that pays the transaction fee. */
    feePayer?: string;
  };
}

/** Chains this configuration offers: a chain without a recipient is not offered. */
export function offeredChains(config: PaymentConfig): Chain[] {
  const chains: Chain[] = [];
  if (config.solanaRecipient !== null) chains.push('solana');
  if (config.baseRecipient !== null) chains.push('base');
  return chains;
}

/** What a challenge is for. */
export interface ChallengeRequest {
  /** SHA-256 (hex) of the normalized URL; the nonce is bound to it. */
  urlHash: string;
  /** `payment_required`, or `payment_invalid` with a `PaymentInvalidReason`. */
  error: 'payment_required' | 'payment_invalid';
  reason?: PaymentInvalidReason;
  message: string;
  /** Seconds until a retry can succeed (`payment_pending`). */
  retryAfter?: number;
}

/**
 * Issue a nonce (when a chain is offered) and build the 402 body around it.
 *
 * @param deps store, clock, payment configuration and the public URL of the detect endpoint.
 * @param request what the challenge answers.
 */
export async function issueChallenge(
  deps: { nonces: PaymentStore; clock: Clock; config: PaymentConfig; resource: string },
  request: ChallengeRequest,
  offers: ExactOffers = NO_EXACT_OFFERS,
): Promise<PaymentChallengeBody> {
  const { config } = deps;
  if (offeredChains(config).length === 0) return renderChallenge(deps, request, null);
  const issuedAt = deps.clock.now();
  const nonce: IssuedNonce = {
    nonce: randomUUID(),
    urlHash: request.urlHash,
    issuedAt,
    expiresAt: issuedAt + config.nonceTtlSeconds * 1000,
  };
  await deps.nonces.issueNonce(nonce);
  return renderChallenge(deps, request, nonce, offers);
}

/**
 * Build the 402 body for a nonce that already exists (a pending payment keeps its nonce,
 * README), or for none when no chain is offered. `offers`: the standard `exact` fields
 * each chain's `accepts` entry adds to its `extra` (`payments/exact/exact-offers.ts`).
 */
export function renderChallenge(
  deps: { config: PaymentConfig; resource: string },
  request: ChallengeRequest,
  issued: IssuedNonce | null,
  offers: ExactOffers = NO_EXACT_OFFERS,
): PaymentChallengeBody {
  const { config } = deps;
  const chains = offeredChains(config);
  const base = {
    status: 402 as const,
    error: request.error,
    ...(request.reason === undefined ? {} : { reason: request.reason }),
    ...(request.retryAfter === undefined ? {} : { retry_after: request.retryAfter }),
    x402Version: 1 as const,
  };
  if (chains.length === 0 || issued === null) {
    return {
      ...base,
      message: `${request.message} Pay-per-request is not enabled on this instance; use an enterprise key (Authorization: Bearer sk_live_…).`,
      payment: null,
      accepts: [],
    };
  }

  const { nonce, expiresAt } = issued;
  const bound = `${config.prefix}:${nonce}`;
  const template = `${config.prefix}:<nonce>`;
  const expires = new Date(expiresAt).toISOString();
  const options: PaymentOption[] = chains.map((chain): PaymentOption => {
    if (chain === 'solana') {
      return {
        amount: config.priceUsdc,
        token: 'USDC',
        token_mint: config.solanaUsdcMint,
        chain,
        recipient: config.solanaRecipient ?? '',
        nonce,
        memo_format: bound,
        expires_at: expires,
      };
    }
    return {
      amount: config.priceUsdc,
      token: 'USDC',
      chain,
      chain_id: BASE_CHAIN_ID,
      token_contract: config.baseUsdcContract,
      recipient: config.baseRecipient ?? '',
      nonce,
      nonce_binding: 'eip191',
      sign_message: bound,
      expires_at: expires,
    };
  });
  const accepts = options.map((option): AcceptsEntry => ({
    scheme: 'exact',
    network: option.chain,
    maxAmountRequired: config.priceAtomic.toString(),
    resource: deps.resource,
    description: `linkguard URL verdict, ${config.priceUsdc} USDC per request`,
    mimeType: 'application/json',
    payTo: option.recipient,
    maxTimeoutSeconds: config.nonceTtlSeconds,
    asset: option.chain === 'solana' ? option.token_mint : option.token_contract,
    extra:
      option.chain === 'solana'
        ? { nonce, memo_template: template, memo: bound, ...offers.v1.solana }
        : {
            nonce,
            sign_message_template: template,
            message: bound,
            // A client that waits for these before presenting its proof needs no pending retry.
            min_confirmations: config.baseMinConfirmations,
            ...offers.v1.base,
          },
  }));
  const [primary, ...alternatives] = options;
  return {
    ...base,
    message: request.message,
    payment: primary === undefined ? null : { ...primary, alternatives },
    accepts,
  };
}
