/**
 * @module payments/verification
 * What a chain verifier answers (docs/architecture.md, "A paid request"). A verifier is
 * read-only against the chain RPC, so asking twice is harmless. Expected outcomes are values:
 * `ok` with the payer and the amount received, or a payment reason (README, "Paying per request
 * (x402)"). Only an unreachable or misbehaving RPC throws {@link ChainUnavailableError} (→ 503
 * `chain_unavailable`, nothing consumed).
 */
import type { Chain } from './payment-proof.js';

/** Why a proof that is well-formed did not verify (the payment reasons decided on chain). */
export type VerificationFailure =
  /**
   * Visible to the chain but not yet final enough (commitment / confirmations): keep the
   * nonce, retry.
   */
  | 'payment_pending'
  /** The chain does not know the transaction (never sent, dropped, or reorganized away). */
  | 'tx_not_found'
  /** The transaction landed but failed; failed transactions keep their memo. */
  | 'tx_failed'
  /** Solana: no memo `<prefix>:<nonce>` in the transaction. */
  | 'memo_mismatch'
  /** The recipient received USDC, but less than the price (or nothing was transferred at all). */
  | 'amount_too_low'
  /** USDC moved, but to someone other than the recipient. */
  | 'wrong_recipient'
  /** A token moved, but not USDC (another mint / contract, e.g. a look-alike token). */
  | 'wrong_token'
  /** Base: the nonce signature does not recover to the sender of the transaction. */
  | 'signer_mismatch';

export type Verification =
  | {
      ok: true;
      /** Solana wallet that paid (base58) or Base sender (checksummed 0x address). */
      payer: string;
      /** USDC received by the recipient in this transaction, atomic units. */
      amountAtomic: bigint;
    }
  | {
      ok: false;
      reason: VerificationFailure;
      /** Human explanation for the 402 message. */
      detail: string;
      /** For `payment_pending`: seconds after which a retry can succeed. */
      retryAfterSeconds?: number;
    };

/** Readiness of a chain RPC: answering, not answering, or serving another chain than expected. */
export type ChainProbe = 'ok' | 'unavailable' | 'wrong_chain';

/**
 * The chain RPC could not answer (transport failure, timeout, 429/5xx, wrong chain). `rpc` is the
 * endpoint's origin only: the configured URL may carry an API key in its path or query. The
 * `cause` is the RPC client's raw error (it holds the full URL and request): the payment gate
 * redacts it before the error leaves the payments module (`payments/log-redaction.ts`).
 */
export class ChainUnavailableError extends Error {
  override readonly name = 'ChainUnavailableError';
  constructor(
    readonly chain: Chain,
    readonly rpc: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** JSON-RPC codes that mean the request itself was wrong: a linkguard bug, not an outage. */
const REQUEST_BUG_CODES = new Set([-32700, -32600, -32601, -32602]);

/**
 * True when an RPC error (or anything in its `cause` chain) carries a JSON-RPC code for a
 * malformed request (JSON-RPC 2.0 §5.1). Inputs are validated before any RPC call, so these
 * are bugs (500) rather than outages (503). Reads `code` (viem) and `context.__code` (kit).
 */
export function isRpcRequestBug(error: unknown): boolean {
  for (let current: unknown = error, depth = 0; current !== undefined && depth < 8; depth++) {
    if (typeof current !== 'object' || current === null) return false;
    const value = current as { code?: unknown; context?: { __code?: unknown }; cause?: unknown };
    const code = value.context?.__code ?? value.code;
    if (typeof code === 'number' && REQUEST_BUG_CODES.has(code)) return true;
    current = value.cause;
  }
  return false;
}
