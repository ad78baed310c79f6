/**
 * @module client/payment-client-error
 * The one error type of the paying client. It is thrown only when the client refuses to pay or
 * cannot finish a payment; a response the service gives after a payment is returned, not thrown.
 */

/** Why the paying client stopped. */
export type PaymentClientErrorCode =
  /** The request body is a stream, which cannot be sent a second time with the proof. No payment. */
  | 'unsupported_body'
  /** The 402 body is not a linkguard/x402 v1 challenge (no `accepts`, missing nonce, bad address, …). No payment. */
  | 'malformed_challenge'
  /** The 402 offers no `accepts` entry for the chosen chain; the message names the offered ones. No payment. */
  | 'chain_not_offered'
  /** The 402 asks more than the caller's spending cap (`maxPriceAtomic`). No payment. */
  | 'price_too_high'
  /** The 402 asks for a token other than the one the caller agreed to pay in (`asset`, default USDC). No payment. */
  | 'asset_not_accepted'
  /** The Base RPC answers a chain id other than 8453 (Base mainnet). No payment. */
  | 'wrong_chain'
  /** The transaction was sent but did not reach the wanted commitment/confirmations in time. `transaction` is set: it may still land. */
  | 'not_confirmed'
  /** The transaction landed but failed on chain (fees were spent, no token moved). `transaction` is set. */
  | 'payment_failed';

/** A refusal or failure of the paying client, with a stable code (never branch on the message). */
export class PaymentClientError extends Error {
  override readonly name = 'PaymentClientError';
  readonly code: PaymentClientErrorCode;
  /** The Solana signature or Base transaction hash, when a transaction was sent. */
  readonly transaction: string | undefined;

  constructor(
    code: PaymentClientErrorCode,
    message: string,
    options: { transaction?: string; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.transaction = options.transaction;
  }
}
