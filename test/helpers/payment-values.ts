/**
 * The amounts and nonce binding the paying-client tests use: the service's price, a funding
 * amount, and the `linkguard:<nonce>` text a payment binds (Solana memo, Base EIP-191 message;
 * spec §4.1).
 */
import { randomUUID } from 'node:crypto';

/** The service's price in atomic USDC units (0.01 USDC). */
export const PRICE = 10_000n;

/** 1 USDC in atomic units, what a test wallet is usually funded with. */
export const ONE_USDC = 1_000_000n;

/** The prefix of the text that binds a payment to its nonce. */
export const NONCE_PREFIX = 'linkguard';

/** `linkguard:<nonce>`, the text bound to `nonce`. */
export function boundText(nonce: string): string {
  return `${NONCE_PREFIX}:${nonce}`;
}

/** The bound text of a fresh random nonce, for a payment no challenge asked for. */
export function freshMemo(): string {
  return boundText(randomUUID());
}
