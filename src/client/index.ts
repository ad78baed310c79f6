/**
 * @module client
 * The paying linkguard client: a fetch wrapper that answers the x402 402 challenge by paying
 * 0.01 USDC on Solana or Base and retrying with the proof, and the low-level payment senders it is
 * built on (which tests also use to land deliberately wrong payments).
 */
export {
  type BasePaymentOptions,
  type BasePaymentResult,
  sendBaseUsdcPayment,
  signNonceMessage,
} from './base-payment.js';
export {
  type BasePayer,
  createPayingFetch,
  type PayingFetch,
  type PayingFetchEvent,
  type PayingFetchOptions,
  readSettlement,
  type SolanaPayer,
} from './paying-fetch.js';
export { PaymentClientError, type PaymentClientErrorCode } from './payment-client-error.js';
export {
  sendSolanaUsdcPayment,
  type SolanaPaymentOptions,
  type SolanaPaymentResult,
} from './solana-payment.js';
