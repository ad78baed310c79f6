/**
 * @module payments/payment-invalid-reason
 * The `reason` sub-codes of a 402 `payment_invalid` (README, 'Paying per request (x402)'), in one list that drives the
 * type, the OpenAPI schema and the docs.
 */

export const PAYMENT_INVALID_REASONS = [
  /** The nonce was never issued here (or was purged long after it expired). */
  'nonce_unknown',
  /** The nonce is older than its lifetime (10 minutes). */
  'nonce_expired',
  /** The nonce was issued for another URL. */
  'request_mismatch',
  /** The transaction is not yet final enough; retry the same proof after `retry_after`. */
  'payment_pending',
  /** The chain does not know the transaction. */
  'tx_not_found',
  /** The transaction failed on chain. */
  'tx_failed',
  /** Solana: the memo is not `<prefix>:<nonce>`. */
  'memo_mismatch',
  /** Less than the price reached the recipient. */
  'amount_too_low',
  /** USDC went to another address. */
  'wrong_recipient',
  /** Another token than USDC was sent. */
  'wrong_token',
  /** Base: the nonce signature does not recover to the sender. */
  'signer_mismatch',
  /** The transaction already paid for a request (claims are permanent). */
  'tx_already_claimed',
  /** The proof headers are not well-formed (checked before any chain request). */
  'malformed_proof',
  /** Standard `exact`: the signed amount is not the price (the scheme pays the exact amount). */
  'amount_mismatch',
  /** Standard `exact`: the authorization is expired, or valid for longer than a nonce lives. */
  'authorization_expired',
  /** Standard `exact`: the payer's balance cannot cover the authorization. */
  'insufficient_funds',
  /** Standard `exact`: bad signature, not yet valid, or refused by the chain's simulation. */
  'authorization_invalid',
  /** Standard `exact`: the settlement transaction was refused or failed; nothing was charged. */
  'settlement_failed',
] as const;

export type PaymentInvalidReason = (typeof PAYMENT_INVALID_REASONS)[number];
