/**
 * @module payments/payment-gate
 * The x402 lifecycle of one request without a key (docs/architecture.md, "A paid request"):
 *
 * 1. no proof → 402 `payment_required` with a new nonce bound to the URL;
 * 2. a proof → form checks (no RPC) → nonce checks in the store (unknown, claimed → 409,
 *    expired, issued for another URL) → transaction not claimed before → chain verification;
 * 3. the caller judges the URL, then {@link PaymentGate.claim} consumes the nonce and claims the
 *    transaction in one atomic, durable step; only then is the verdict served.
 *
 * Nothing is consumed by a failed verification, a chain outage (503) or a server error before
 * the claim, so the same proof works on retry. A pending payment keeps its nonce (the 402 re-
 * issues the same one with `Retry-After`); every other failure issues a fresh nonce as well.
 */
import { createHmac, randomBytes } from 'node:crypto';

import type { Clock } from '../clock.js';
import { AppError, isAppError } from '../errors.js';
import type { PaymentObserver } from '../observability/observer.js';
import type {
  ClaimOutcome,
  IssuedNonce,
  PaymentClaim,
  PaymentStore,
} from '../store/ports/payment-store.js';
import { type BaseVerifier, createBaseVerifier } from './base-verifier.js';
import {
  createExactFacilitator,
  type ExactFacilitator,
  type ExactSchemePair,
} from './exact/exact-facilitator.js';
import { ExactGate, type ExactSettlement, type VerifiedExact } from './exact/exact-gate.js';
import {
  type ExactOffers,
  exactOffers,
  NO_EXACT_OFFERS,
  paymentRequiredHeader,
} from './exact/exact-offers.js';
import type { ExactPayment } from './exact/exact-payment.js';
import { redactError, type RedactionSecrets } from './log-redaction.js';
import {
  issueChallenge,
  offeredChains,
  type PaymentChallengeBody,
  renderChallenge,
} from './payment-challenge.js';
import type { PaymentConfig } from './payment-config.js';
import type { PaymentInvalidReason } from './payment-invalid-reason.js';
import type { Chain, PaymentProof, SettlementResponse } from './payment-proof.js';
import { createSolanaVerifier, type SolanaVerifier } from './solana-verifier.js';
import { timedVerifier } from './timed-verifier.js';
import { type ChainProbe, ChainUnavailableError, type Verification } from './verification.js';

/** Seconds a caller should wait after a chain outage before retrying the same proof. */
export const CHAIN_RETRY_AFTER_SECONDS = 5;

/**
 * Longest a readiness probe of a chain RPC waits (ms): load balancers time their checks out after
 * a few seconds (HAProxy's default `timeout check` is the connect timeout), so the answer must
 * come sooner, whatever CHAIN_RPC_TIMEOUT_MS allows a verification.
 */
export const PROBE_TIMEOUT_MS = 2000;
/** Name of the stored server secret, and the HMAC's domain label. */
const NONCE_URL_KEY = 'payment-nonce-url';

/** How long one probe's result answers every readiness check (ms). */
export const PROBE_CACHE_MS = 5000;

/** A proof that verified on chain and waits for its claim. */
export interface VerifiedPayment {
  proof: PaymentProof;
  payer: string;
  amountAtomic: bigint;
}

/** A refused proof: the 402 body to send (it carries the reason and payment instructions). */
export interface PaymentRefusal {
  reason: PaymentInvalidReason;
  challenge: PaymentChallengeBody;
  /** Seconds for `Retry-After` (pending payments). */
  retryAfter?: number;
}

export type GateResult<T> = { ok: true; value: T } | { ok: false; refusal: PaymentRefusal };

interface Verifiers {
  solana: SolanaVerifier | null;
  base: BaseVerifier | null;
}

export class PaymentGate {
  private readonly verifiers: Verifiers;
  private readonly offered: ReadonlySet<string>;
  private readonly rpcUrls: readonly string[];
  /** Told every payment outcome (metrics); null: nothing is recorded. */
  private readonly observer: PaymentObserver | null;
  /** The last chain probe (a promise, so callers during a probe share it). */
  /** The server secret keying nonce URL bindings, loaded once (null: not yet, or failed). */
  private secret: Promise<string> | null = null;
  private probe: { at: number; result: Promise<Partial<Record<Chain, ChainProbe>>> } | null = null;
  /** Verifies and settles standard x402 `exact` payments; null when they are not offered. */
  private readonly facilitator: ExactFacilitator | null;
  private readonly exact: ExactGate<PaymentRefusal> | null;

  /**
   * @param deps payment configuration, the store, the clock, `resource`: the public URL of the
   *   detect endpoint (the x402 `resource` field), `observer`: told every outcome and chain RPC
   *   call (metrics, only with METRICS_TOKEN; docs/decisions.md, decision 166), and
   *   `exactSchemes`: `exact` scheme pairs to register with the local facilitator beside Base's
   *   (the Solana pair built from SOLANA_FEE_PAYER_KEYPAIR; docs/decisions.md, decision 152).
   */
  constructor(
    private readonly deps: {
      config: PaymentConfig;
      store: PaymentStore;
      clock: Clock;
      resource: string;
      observer?: PaymentObserver | null;
      exactSchemes?: readonly ExactSchemePair[];
    },
  ) {
    const { config } = deps;
    this.offered = new Set(offeredChains(config));
    this.rpcUrls = [
      config.solanaRpcUrl,
      config.baseRpcUrl,
      ...(config.facilitatorUrl === null ? [] : [config.facilitatorUrl]),
    ];
    this.observer = deps.observer ?? null;
    this.facilitator = createExactFacilitator(config, deps.exactSchemes ?? []);
    this.exact =
      this.facilitator === null
        ? null
        : new ExactGate<PaymentRefusal>({
            config,
            store: deps.store,
            clock: deps.clock,
            resource: deps.resource,
            facilitator: this.facilitator,
            rpcUrls: this.rpcUrls,
            hooks: {
              checkNonce: async (nonce, urlKey) =>
                this.checkNonce(await this.deps.store.findNonce(nonce), urlKey),
              refuse: (urlKey, reason, detail) => this.refuse(urlKey, reason, detail),
              offers: () => this.exactOffers(),
            },
          });
    const verifiers: Verifiers = {
      solana:
        config.solanaRecipient === null
          ? null
          : createSolanaVerifier({
              rpcUrl: config.solanaRpcUrl,
              recipient: config.solanaRecipient,
              mint: config.solanaUsdcMint,
              minAmountAtomic: config.priceAtomic,
              commitment: config.solanaCommitment,
              timeoutMs: config.chainRpcTimeoutMs,
              probeTimeoutMs: Math.min(PROBE_TIMEOUT_MS, config.chainRpcTimeoutMs),
            }),
      base:
        config.baseRecipient === null
          ? null
          : createBaseVerifier({
              rpcUrl: config.baseRpcUrl,
              recipient: config.baseRecipient,
              usdc: config.baseUsdcContract,
              minAmountAtomic: config.priceAtomic,
              minConfirmations: config.baseMinConfirmations,
              timeoutMs: config.chainRpcTimeoutMs,
              probeTimeoutMs: Math.min(PROBE_TIMEOUT_MS, config.chainRpcTimeoutMs),
            }),
    };
    const observer = this.observer;
    this.verifiers =
      observer === null
        ? verifiers
        : {
            solana: verifiers.solana && timedVerifier(verifiers.solana, 'solana', observer),
            base: verifiers.base && timedVerifier(verifiers.base, 'base', observer),
          };
  }

  /**
   * Readiness of the RPC of each offered chain (README, `GET /v1/ready`), probed in parallel, each
   * within {@link PROBE_TIMEOUT_MS} (or the RPC budget when shorter). One probe serves every
   * caller for {@link PROBE_CACHE_MS}, and callers during a probe share it, so a storm of
   * readiness checks costs each RPC at most one request every few seconds.
   *
   * @returns chain → `ok`, `unavailable` or `wrong_chain`; no entry for a chain not offered.
   */
  probeChains(): Promise<Partial<Record<'solana' | 'base', ChainProbe>>> {
    const now = this.deps.clock.now();
    if (this.probe !== null && now - this.probe.at < PROBE_CACHE_MS) return this.probe.result;
    const result = Promise.all(
      (['solana', 'base'] as const)
        .filter((chain) => this.verifiers[chain] !== null)
        .map(async (chain) => [chain, await this.verifier(chain).probe()] as const),
    ).then((entries) => Object.fromEntries(entries));
    this.probe = { at: now, result };
    return result;
  }

  /**
   * The standard `exact` offers of a 402 now: none without a facilitator; the remote
   * facilitator's are read from its `/supported` (cached).
   */
  private async exactOffers(): Promise<ExactOffers> {
    if (this.facilitator === null) return NO_EXACT_OFFERS;
    return exactOffers(this.deps.config, await this.facilitator.kinds());
  }

  /**
   * The x402 v2 `PAYMENT-REQUIRED` header for a 402 body (its nonce and message), or null when
   * no v2 offer is made (README, "Paying per request (x402)").
   */
  async paymentRequiredHeader(body: PaymentChallengeBody): Promise<string | null> {
    const nonce = body.accepts[0]?.extra.nonce;
    if (nonce === undefined || this.facilitator === null) return null;
    return paymentRequiredHeader(
      this.deps.config,
      await this.exactOffers(),
      this.deps.resource,
      nonce,
      body.message,
    );
  }

  /**
   * Verify a standard x402 `exact` payment (read-only; `exact/exact-gate.ts`).
   *
   * @returns the verified payment or the refusal (402 body); a payment when the standard
   *   scheme is not offered is refused as `malformed_proof`.
   * @throws {AppError} `nonce_already_used` (409) on a replay; `chain_unavailable` (503).
   */
  async verifyExact(payment: ExactPayment, urlHash: string): Promise<GateResult<VerifiedExact>> {
    const urlKey = await this.urlKey(urlHash);
    if (this.exact === null) {
      return this.refused(
        await this.refuse(
          urlKey,
          'malformed_proof',
          'Standard x402 payments are not accepted here',
        ),
      );
    }
    return this.observed(payment.chain, false, () => this.exact?.verify(payment, urlKey));
  }

  /**
   * Settle a verified standard payment and claim it durably; call after the verdict is ready.
   *
   * @returns the settlement header to send, or the refusal when settlement failed.
   * @throws {AppError} `nonce_already_used` (409); `chain_unavailable` (503).
   */
  async settleExact(
    verified: VerifiedExact,
    urlHash: string,
  ): Promise<GateResult<ExactSettlement>> {
    if (this.exact === null) throw new Error('settleExact without a facilitator');
    const urlKey = await this.urlKey(urlHash);
    return this.observed(verified.payment.chain, true, () => this.exact?.settle(verified, urlKey));
  }

  /**
   * Run one step of the standard path and report its outcome like the spec's own path's: a
   * refusal by its reason, a settled claim as `paid` (when `settles`), a thrown 409, 503 or
   * error as such (docs/decisions.md, decision 166).
   */
  private async observed<T>(
    chain: Chain,
    settles: boolean,
    step: () => Promise<GateResult<T>> | undefined,
  ): Promise<GateResult<T>> {
    const running = step();
    if (running === undefined) throw new Error('standard payment step without a facilitator');
    try {
      const result = await running;
      if (!result.ok) this.observer?.paymentOutcome(chain, 'refused', result.refusal.reason);
      else if (settles) this.observer?.paymentOutcome(chain, 'paid', 'none');
      return result;
    } catch (error) {
      if (isAppError(error)) this.observeThrown(chain, error);
      else this.observer?.paymentOutcome(chain, 'error', 'none');
      throw error;
    }
  }

  /** 402 `payment_required` with a new nonce bound to `urlHash` (SHA-256 hex of the URL). */
  async challenge(urlHash: string, message: string): Promise<PaymentChallengeBody> {
    const body = await this.issue({
      urlHash: await this.urlKey(urlHash),
      error: 'payment_required',
      message,
    });
    this.observer?.paymentOutcome('none', 'challenged', 'none');
    return body;
  }

  /** 402 `payment_invalid` for a proof that is not well-formed (no RPC was made). */
  async malformed(urlHash: string, detail: string): Promise<PaymentRefusal> {
    const refusal = await this.refuse(await this.urlKey(urlHash), 'malformed_proof', detail);
    this.observer?.paymentOutcome('none', 'refused', refusal.reason);
    return refusal;
  }

  /**
   * What a nonce row stores to bind it to a URL: HMAC-SHA256 of the URL's SHA-256 under the
   * server secret (LINKGUARD_SECRET, else the one kept in the store), so the table cannot be used
   * to test guesses of the URLs people paid for (issue 14; docs/decisions.md).
   */
  private async urlKey(urlHash: string): Promise<string> {
    this.secret ??= this.loadSecret().catch((error: unknown) => {
      this.secret = null; // a store outage must not stick: the next request asks again
      throw error;
    });
    return createHmac('sha256', await this.secret)
      .update(`${NONCE_URL_KEY}:${urlHash}`)
      .digest('hex');
  }

  private async loadSecret(): Promise<string> {
    const configured = this.deps.config.serverSecret;
    if (configured !== null) return configured;
    return this.deps.store.serverSecret(
      NONCE_URL_KEY,
      randomBytes(32).toString('hex'),
      this.deps.clock.now(),
    );
  }

  /**
   * Check a well-formed proof against the store and the chain. Read-only: nothing is consumed.
   *
   * @returns the verified payment, or the refusal (402 body) to send.
   * @throws {AppError} `nonce_already_used` (409) when the nonce was claimed;
   *   `chain_unavailable` (503, `retryAfter`) when the chain RPC fails or times out.
   */
  async verify(proof: PaymentProof, urlHash: string): Promise<GateResult<VerifiedPayment>> {
    try {
      const result = await this.verifyProof(proof, await this.urlKey(urlHash));
      if (!result.ok) this.observer?.paymentOutcome(proof.chain, 'refused', result.refusal.reason);
      return result;
    } catch (error) {
      const thrown = this.redactThrown(error, proof);
      this.observeThrown(proof.chain, thrown);
      throw thrown;
    }
  }

  /** Report a thrown outcome: 409 replay, 503 outage, anything else an error. */
  private observeThrown(chain: Chain, error: AppError): void {
    if (this.observer === null) return;
    if (error.code === 'nonce_already_used') {
      this.observer.paymentOutcome(chain, 'refused', 'nonce_already_used');
    } else if (error.code === 'chain_unavailable') {
      this.observer.paymentOutcome(chain, 'chain_unavailable', 'none');
    } else {
      this.observer.paymentOutcome(chain, 'error', 'none');
    }
  }

  private async verifyProof(
    proof: PaymentProof,
    urlHash: string,
  ): Promise<GateResult<VerifiedPayment>> {
    if (!this.offered.has(proof.chain)) {
      return this.refused(
        await this.refuse(
          urlHash,
          'malformed_proof',
          `${proof.chain} payments are not accepted here`,
        ),
      );
    }
    const nonce = await this.deps.store.findNonce(proof.nonce);
    const early = await this.checkNonce(nonce, urlHash);
    if (early !== null) return this.refused(early);
    const claimed = await this.deps.store.findClaim(proof.chain, txId(proof));
    if (claimed !== null) {
      // A claim committed between the two reads (another request, maybe on another instance,
      // won with this very proof) names this nonce: a replay, answered 409 like one that saw the
      // nonce consumed, not 402 with a fresh nonce as if the payer should pay again.
      if (claimed.nonce === proof.nonce) {
        return this.refused(await this.claimRefusal('nonce_already_used', urlHash));
      }
      return this.refused(await this.alreadyClaimed(urlHash));
    }

    const memo = `${this.deps.config.prefix}:${proof.nonce}`;
    let verification: Verification;
    try {
      verification =
        proof.chain === 'solana'
          ? await this.verifier('solana').verify(proof, memo)
          : await this.verifier('base').verify(proof, memo);
    } catch (error) {
      if (error instanceof ChainUnavailableError) {
        throw new AppError(
          'chain_unavailable',
          `The ${proof.chain === 'solana' ? 'Solana' : 'Base'} RPC is unavailable; nothing was consumed. Retry the same proof later.`,
          {
            cause: redactError(error, this.secrets(proof), { rpc: error.rpc, chain: error.chain }),
            retryAfter: CHAIN_RETRY_AFTER_SECONDS,
          },
        );
      }
      throw error;
    }
    if (verification.ok) {
      return {
        ok: true,
        value: { proof, payer: verification.payer, amountAtomic: verification.amountAtomic },
      };
    }
    if (verification.reason === 'payment_pending' && nonce !== null) {
      const retryAfter = verification.retryAfterSeconds ?? 1;
      const offers = await this.exactOffers();
      return this.refused({
        reason: 'payment_pending',
        retryAfter,
        challenge: renderChallenge(
          this.deps,
          {
            urlHash,
            error: 'payment_invalid',
            reason: 'payment_pending',
            retryAfter,
            message: `${verification.detail}. Retry the same proof in ${retryAfter} s; the nonce stays valid.`,
          },
          nonce,
          offers,
        ),
      });
    }
    return this.refused(await this.refuse(urlHash, verification.reason, verification.detail));
  }

  /**
   * Consume the nonce and claim the transaction, atomically and durably. Call after the verdict
   * is ready and before it is sent.
   *
   * @returns the `X-PAYMENT-RESPONSE` content, or the refusal when another request won the race
   *   for the transaction or the nonce expired meanwhile.
   * @throws {AppError} `nonce_already_used` (409) when another request claimed the nonce first.
   */
  async claim(payment: VerifiedPayment, urlHash: string): Promise<GateResult<SettlementResponse>> {
    const { chain } = payment.proof;
    try {
      const result = await this.claimPayment(payment, await this.urlKey(urlHash));
      if (result.ok) this.observer?.paymentOutcome(chain, 'paid', 'none');
      else this.observer?.paymentOutcome(chain, 'refused', result.refusal.reason);
      return result;
    } catch (error) {
      const thrown = this.redactThrown(error, payment.proof, payment.payer);
      this.observeThrown(chain, thrown);
      throw thrown;
    }
  }

  /**
   * What leaves the gate when something threw: an {@link AppError} whose cause went through the
   * payments module's redaction (`log-redaction.ts`), so whoever logs it (the HTTP error handler)
   * sees no RPC URL beyond its origin and no proof. A gate-made AppError without a cause (409)
   * passes as it is; any other error becomes 500 `internal_error`.
   */
  private redactThrown(error: unknown, proof: PaymentProof, payer?: string): AppError {
    if (isAppError(error)) {
      if (error.cause === undefined || error.code === 'chain_unavailable') return error;
      return new AppError(error.code, error.message, {
        cause: redactError(error.cause, this.secrets(proof, payer)),
        ...(error.retryAfter === undefined ? {} : { retryAfter: error.retryAfter }),
        ...(error.reason === undefined ? {} : { reason: error.reason }),
      });
    }
    return new AppError(
      'internal_error',
      'Internal error; nothing was charged or consumed. Retry later.',
      {
        cause: redactError(error, this.secrets(proof, payer)),
      },
    );
  }

  /** The configured RPC URLs and the values of the proof at hand: never logged. */
  private secrets(proof: PaymentProof, payer?: string): RedactionSecrets {
    const values =
      proof.chain === 'solana'
        ? [proof.txSignature, proof.nonce]
        : [proof.txHash, proof.walletSig, proof.nonce];
    if (payer !== undefined) values.push(payer);
    return { rpcUrls: this.rpcUrls, values };
  }

  private async claimPayment(
    payment: VerifiedPayment,
    urlHash: string,
  ): Promise<GateResult<SettlementResponse>> {
    const { proof } = payment;
    const claim: PaymentClaim = {
      chain: proof.chain,
      txId: txId(proof),
      nonce: proof.nonce,
      payer: payment.payer,
      amountAtomic: payment.amountAtomic,
      claimedAt: this.deps.clock.now(),
    };
    const outcome = await this.deps.store.claimPayment(claim, urlHash);
    if (outcome === 'claimed') {
      return {
        ok: true,
        value: {
          success: true,
          transaction: claim.txId,
          network: proof.chain,
          payer: payment.payer,
        },
      };
    }
    return this.refused(await this.claimRefusal(outcome, urlHash));
  }

  private async checkNonce(
    nonce: (IssuedNonce & { consumedAt: number | null }) | null,
    urlHash: string,
  ): Promise<PaymentRefusal | null> {
    if (nonce === null) return this.claimRefusal('nonce_unknown', urlHash);
    if (nonce.consumedAt !== null) return this.claimRefusal('nonce_already_used', urlHash);
    if (nonce.urlHash !== urlHash) return this.claimRefusal('request_mismatch', urlHash);
    if (nonce.expiresAt <= this.deps.clock.now()) {
      return this.claimRefusal('nonce_expired', urlHash);
    }
    return null;
  }

  private async claimRefusal(
    outcome: Exclude<ClaimOutcome, 'claimed'>,
    urlHash: string,
  ): Promise<PaymentRefusal> {
    switch (outcome) {
      case 'nonce_already_used':
        throw new AppError(
          'nonce_already_used',
          'This nonce already paid for a request. Request a fresh nonce (send the request without proof) and pay again.',
        );
      case 'nonce_unknown':
        return this.refuse(urlHash, 'nonce_unknown', 'This service did not issue that nonce');
      case 'nonce_expired':
        return this.refuse(
          urlHash,
          'nonce_expired',
          `The nonce expired (nonces live ${this.deps.config.nonceTtlSeconds} s)`,
        );
      case 'request_mismatch':
        return this.refuse(
          urlHash,
          'request_mismatch',
          'The nonce was issued for another URL; a payment buys the verdict of the URL it was issued for',
        );
      case 'tx_already_claimed':
        return this.alreadyClaimed(urlHash);
    }
  }

  private alreadyClaimed(urlHash: string): Promise<PaymentRefusal> {
    return this.refuse(
      urlHash,
      'tx_already_claimed',
      'This transaction already paid for a request; each transaction pays once',
    );
  }

  /** A refusal with a fresh nonce (every reason but `payment_pending`, which keeps its nonce). */
  private async refuse(
    urlHash: string,
    reason: PaymentInvalidReason,
    detail: string,
  ): Promise<PaymentRefusal> {
    const challenge = await this.issue({
      urlHash,
      error: 'payment_invalid',
      reason,
      message: `Payment not accepted (${reason}): ${detail}. Pay again with the fresh nonce below.`,
    });
    return { reason, challenge };
  }

  private async issue(
    request: Parameters<typeof issueChallenge>[1],
  ): Promise<PaymentChallengeBody> {
    const offers = await this.exactOffers();
    return issueChallenge({ ...this.deps, nonces: this.deps.store }, request, offers);
  }

  private refused<T>(refusal: PaymentRefusal): GateResult<T> {
    return { ok: false, refusal };
  }

  private verifier<C extends keyof Verifiers>(chain: C): NonNullable<Verifiers[C]> {
    const verifier = this.verifiers[chain];
    // `offered` and `verifiers` are built from the same recipients, so this cannot happen.
    if (verifier === null) throw new Error(`no ${chain} verifier although ${chain} is offered`);
    return verifier;
  }
}

/** The id a claim is keyed on: Solana signature or Base transaction hash (lower case). */
function txId(proof: PaymentProof): string {
  return proof.chain === 'solana' ? proof.txSignature : proof.txHash;
}
