/**
 * @module payments/exact/exact-gate
 * The standard x402 `exact` path of a paid request (README, "Paying per request (x402)";
 * docs/decisions.md, decisions 151–156), beside the spec's proofs in `payment-gate.ts`:
 *
 * 1. {@link ExactGate.verify}: form (done by `exact-payment.ts`), then the binding to our
 *    challenge and store (v2: the echoed nonce must be ours, unconsumed, unexpired and issued
 *    for this URL; both: the authorization never claimed, valid no longer than a nonce lives),
 *    then the facilitator's verification (signature, recipient, amount, asset, balance,
 *    simulation). Read-only: nothing is consumed.
 * 2. The caller judges the URL.
 * 3. {@link ExactGate.settle}: the facilitator settles on chain (the payer's authorization is
 *    submitted and its receipt awaited), then the claim is stored durably in one atomic step
 *    (nonce consumed + authorization claimed). Only then is the verdict served.
 *
 * A chain (or facilitator) outage before settlement is 503 `chain_unavailable` with nothing
 * consumed, and the same payment works on retry. A replay is 409.
 */
import { randomUUID } from 'node:crypto';

import type { PaymentRequirements, SettleResponse } from '@x402/core/types';

import type { Clock } from '../../clock.js';
import { AppError } from '../../errors.js';
import type { PaymentClaim, PaymentStore } from '../../store/ports/payment-store.js';
import { redactError } from '../log-redaction.js';
import type { PaymentConfig } from '../payment-config.js';
import type { PaymentInvalidReason } from '../payment-invalid-reason.js';
import type { SettlementResponse } from '../payment-proof.js';
import { ChainUnavailableError } from '../verification.js';
import type { ExactFacilitator } from './exact-facilitator.js';
import { type ExactOffers, requirementV1, requirementV2 } from './exact-offers.js';
import type { ExactPayment } from './exact-payment.js';

/**
 * Clock skew allowed between a payer and this service when checking that an authorization is
 * valid no longer than a nonce lives (s): official clients set `validBefore` to their own
 * clock + `maxTimeoutSeconds` (docs/decisions.md, decision 155).
 */
export const VALID_BEFORE_SKEW_SECONDS = 60;

/** Seconds a caller should wait after an outage before retrying (as the spec's path). */
const RETRY_AFTER_SECONDS = 5;

/** A verified standard payment, waiting for the verdict and its settlement. */
export interface VerifiedExact {
  payment: ExactPayment;
  requirements: PaymentRequirements;
  payer: string;
  /** When the nonce was checked (ms): the claim is dated then (decision 156). */
  verifiedAt: number;
}

/** The headers of a settled standard payment. */
export interface ExactSettlement {
  /** `x-payment-response` (v1) or `payment-response` (v2). */
  header: 'x-payment-response' | 'payment-response';
  /** base64 JSON of the x402 settle response. */
  value: string;
}

interface Refusal<R> {
  ok: false;
  refusal: R;
}
type Result<T, R> = { ok: true; value: T } | Refusal<R>;

/** What the payment gate lends this path: its nonce checks and refusals. */
export interface ExactGateHooks<R> {
  /** The spec's nonce checks (unknown, consumed → 409, other URL, expired); null when fine. */
  checkNonce(nonce: string, urlKey: string): Promise<R | null>;
  /** A 402 `payment_invalid` with a fresh nonce. */
  refuse(urlKey: string, reason: PaymentInvalidReason, detail: string): Promise<R>;
  /** The standard offers now (they drive the requirements checked). */
  offers(): Promise<ExactOffers>;
}

export class ExactGate<R> {
  constructor(
    private readonly deps: {
      config: PaymentConfig;
      store: PaymentStore;
      clock: Clock;
      resource: string;
      facilitator: ExactFacilitator;
      hooks: ExactGateHooks<R>;
      /** RPC / facilitator URLs to redact from errors. */
      rpcUrls: readonly string[];
    },
  ) {}

  /**
   * Check a standard payment against our challenge, store and the facilitator. Read-only.
   *
   * @param urlKey the URL binding as the nonce rows store it.
   * @throws {AppError} `nonce_already_used` (409) on a replay; `chain_unavailable` (503) when
   *   the chain RPC or the facilitator did not answer.
   */
  async verify(payment: ExactPayment, urlKey: string): Promise<Result<VerifiedExact, R>> {
    try {
      return await this.verifyPayment(payment, urlKey);
    } catch (error) {
      throw this.redacted(error, payment);
    }
  }

  private async verifyPayment(
    payment: ExactPayment,
    urlKey: string,
  ): Promise<Result<VerifiedExact, R>> {
    const { config, hooks, clock } = this.deps;
    const offers = await hooks.offers();
    const requirements =
      payment.version === 1
        ? requirementV1(config, offers, payment.chain, this.deps.resource)
        : requirementV2(config, offers, payment.chain, payment.challengeNonce ?? '');
    if (requirements === null) {
      return this.refused(
        urlKey,
        'malformed_proof',
        `Standard x402 v${payment.version} payments on ${payment.chain} are not accepted here`,
      );
    }
    if (await this.claimed(payment)) throw replay();
    const verifiedAt = clock.now();
    if (payment.challengeNonce !== null) {
      const refusal = await hooks.checkNonce(payment.challengeNonce, urlKey);
      if (refusal !== null) return { ok: false, refusal };
    }
    if (payment.validBefore !== null) {
      const limit = BigInt(
        Math.floor(verifiedAt / 1000) + config.nonceTtlSeconds + VALID_BEFORE_SKEW_SECONDS,
      );
      if (payment.validBefore > limit) {
        return this.refused(
          urlKey,
          'authorization_expired',
          `The authorization stays valid longer than a nonce lives (${config.nonceTtlSeconds} s); sign one with validBefore at most ${config.nonceTtlSeconds} s ahead`,
        );
      }
    }
    const verification = await this.outageAware(() =>
      this.deps.facilitator.verify(payment.payload, requirements as PaymentRequirements),
    );
    if (!verification.isValid) {
      const reason = verification.invalidReason ?? 'invalid_payment';
      if (isReplayReason(reason)) throw replay();
      return this.refused(urlKey, invalidReason(reason, 'authorization_invalid'), describe(reason));
    }
    return {
      ok: true,
      value: {
        payment,
        requirements: requirements as PaymentRequirements,
        payer: verification.payer ?? '',
        verifiedAt,
      },
    };
  }

  /**
   * Settle a verified payment on chain, then claim it durably. Call after the verdict is ready
   * and before it is sent.
   *
   * @returns the settlement header to send, or the refusal when settlement failed (nothing was
   *   charged then).
   * @throws {AppError} `nonce_already_used` (409) when the authorization or nonce was used
   *   meanwhile; `chain_unavailable` (503) when the chain or the facilitator did not answer.
   */
  async settle(verified: VerifiedExact, urlKey: string): Promise<Result<ExactSettlement, R>> {
    try {
      return await this.settlePayment(verified, urlKey);
    } catch (error) {
      throw this.redacted(error, verified.payment, verified.payer);
    }
  }

  private async settlePayment(
    verified: VerifiedExact,
    urlKey: string,
  ): Promise<Result<ExactSettlement, R>> {
    const { payment, requirements } = verified;
    const settled = await this.outageAware(() =>
      this.deps.facilitator.settle(payment.payload, requirements),
    );
    if (!settled.success) {
      const reason = settled.errorReason ?? 'settlement_failed';
      if (isReplayReason(reason)) throw replay();
      return this.refused(urlKey, invalidReason(reason, 'settlement_failed'), describe(reason));
    }
    const payer = settled.payer ?? verified.payer;
    const nonce = payment.challengeNonce ?? (await this.bindingNonce(urlKey, verified.verifiedAt));
    const claim: PaymentClaim = {
      chain: payment.chain,
      txId: payment.authorizationId,
      nonce,
      payer,
      amountAtomic: this.deps.config.priceAtomic,
      claimedAt: verified.verifiedAt,
    };
    const outcome = await this.deps.store.claimPayment(claim, urlKey);
    if (outcome !== 'claimed') {
      // Settled on chain, but another request claimed this nonce or authorization first: the
      // payment is spent and this request is the replay (decision 156).
      throw replay();
    }
    return { ok: true, value: this.settlementHeader(payment, settled, payer) };
  }

  /**
   * x402 v1 carries no challenge nonce: its claim gets a nonce of its own, issued for this URL
   * at verification time, so the store's one atomic claim step binds it like any other
   * (decision 154).
   */
  private async bindingNonce(urlKey: string, at: number): Promise<string> {
    const nonce = randomUUID();
    await this.deps.store.issueNonce({
      nonce,
      urlHash: urlKey,
      issuedAt: at,
      expiresAt: at + this.deps.config.nonceTtlSeconds * 1000,
    });
    return nonce;
  }

  private settlementHeader(
    payment: ExactPayment,
    settled: SettleResponse,
    payer: string,
  ): ExactSettlement {
    if (payment.version === 1) {
      // x402 v1 SettleResponse (the `x402` package's settleResponseHeader): v1 network name.
      const body: SettlementResponse = {
        success: true,
        transaction: settled.transaction,
        network: payment.chain,
        payer,
      };
      return { header: 'x-payment-response', value: base64Json(body) };
    }
    const body: SettleResponse = {
      success: true,
      transaction: settled.transaction,
      network: settled.network,
      payer,
    };
    return { header: 'payment-response', value: base64Json(body) };
  }

  private async claimed(payment: ExactPayment): Promise<boolean> {
    return (await this.deps.store.findClaim(payment.chain, payment.authorizationId)) !== null;
  }

  private async outageAware<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof ChainUnavailableError) {
        throw new AppError(
          'chain_unavailable',
          `${error.message}; nothing was consumed. Retry the same payment later.`,
          {
            cause: redactError(
              error,
              { rpcUrls: this.deps.rpcUrls },
              {
                rpc: error.rpc,
                chain: error.chain,
              },
            ),
            retryAfter: RETRY_AFTER_SECONDS,
          },
        );
      }
      throw error;
    }
  }

  private async refused<T>(
    urlKey: string,
    reason: PaymentInvalidReason,
    detail: string,
  ): Promise<Result<T, R>> {
    return { ok: false, refusal: await this.deps.hooks.refuse(urlKey, reason, detail) };
  }

  /** Errors leave redacted (no payload, payer or RPC URL beyond its origin), as AppErrors. */
  private redacted(error: unknown, payment: ExactPayment, payer?: string): AppError {
    const secrets = {
      rpcUrls: this.deps.rpcUrls,
      values: payer === undefined ? payment.secrets : [...payment.secrets, payer],
    };
    if (error instanceof AppError) {
      if (error.cause === undefined || error.code === 'chain_unavailable') return error;
      return new AppError(error.code, error.message, { cause: redactError(error.cause, secrets) });
    }
    return new AppError('internal_error', 'Internal error; nothing was consumed. Retry later.', {
      cause: redactError(error, secrets),
    });
  }
}

/** A reason code of the x402 packages (`invalid_exact_evm_signature`, …). */
const REASON_CODE = /^[a-z0-9_]{1,80}$/;

function replay(): AppError {
  return new AppError(
    'nonce_already_used',
    'This payment already paid for a request. Request a fresh 402 (send the request without payment) and pay again.',
  );
}

function base64Json(value: unknown): string {
  return Buffer.from(JSON.stringify(value), 'utf8').toString('base64');
}

/** The facilitator's reason for an authorization that was already used (EVM, SVM). */
function isReplayReason(reason: string): boolean {
  return /nonce_already_used|already_used|already_processed|duplicate|used or canceled/i.test(
    reason,
  );
}

/**
 * Our `reason` for a facilitator's (`@x402/evm` / `@x402/svm` error codes, matched by their
 * documented names so both families map): recipient, amount, expiry, balance, token; the rest
 * is `fallback`.
 */
function invalidReason(reason: string, fallback: PaymentInvalidReason): PaymentInvalidReason {
  if (!REASON_CODE.test(reason)) return fallback; // an error message, not a code
  if (/recipient|destination/i.test(reason)) return 'wrong_recipient';
  if (/authorization_value|amount/i.test(reason)) return 'amount_mismatch';
  if (/valid_before|expired|deadline/i.test(reason)) return 'authorization_expired';
  if (/insufficient/i.test(reason)) return 'insufficient_funds';
  if (/network_mismatch|token|asset|mint|eip712_domain|eip3009_not_supported/i.test(reason)) {
    return 'wrong_token';
  }
  return fallback;
}

/**
 * The facilitator's reason for the 402 message: only a reason code (`snake_case`, as the x402
 * packages define them) is quoted. `@x402/evm` puts a thrown error's message in `errorReason`,
 * and a viem message carries the RPC URL (an API key may sit in it) and the request body.
 */
function describe(reason: string): string {
  const code = REASON_CODE.test(reason) ? reason : 'see the reason';
  return `the facilitator refused it (${code})`;
}
