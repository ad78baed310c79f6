/**
 * @module store/ports/payment-store
 * x402 nonces and settled payment claims, each claimed exactly once. Part of the persistence
 * ports: services depend on these interfaces only; `store/sqlite/` implements them. Every
 * operation that must happen exactly once is a single atomic statement in the adapter, never a
 * read-then-write in application code; all methods are async for that reason. Times are epoch
 * milliseconds (UTC), months `YYYY-MM` (UTC).
 */

/** A payment nonce as issued in a 402 challenge (docs/architecture.md, "A paid request"). */
export interface IssuedNonce {
  /** UUIDv4. */
  nonce: string;
  /**
   * HMAC-SHA256 (hex) of the normalized URL's SHA-256 under the server's nonce key
   * (`PaymentGate`): binds the nonce to its URL without letting anyone who reads the table test
   * guesses of the URL. The URL itself is not kept. Empty on rows consumed before the key existed.
   */
  urlHash: string;
  issuedAt: number;
  expiresAt: number;
}

/** A settled x402 payment (docs/architecture.md, "A paid request"): no URL, nothing about the request but the nonce. */
export interface PaymentClaim {
  chain: 'solana' | 'base';
  /** Solana transaction signature (base58) or Base transaction hash (lower-case 0x hex). */
  txId: string;
  nonce: string;
  /** Solana fee payer / Base sender that paid (base58 or checksummed 0x address). */
  payer: string;
  /** USDC received by the recipient, atomic units (6 decimals). */
  amountAtomic: bigint;
  claimedAt: number;
}

/**
 * Outcome of {@link PaymentStore.claimPayment}: `claimed`, or why nothing was written.
 * `nonce_already_used` wins over `tx_already_claimed` when both hold (a retry with a
 * claimed nonce is 409).
 */
export type ClaimOutcome =
  | 'claimed'
  | 'nonce_unknown'
  | 'nonce_expired'
  | 'request_mismatch'
  | 'nonce_already_used'
  | 'tx_already_claimed';

export interface PaymentStore {
  /** Store a freshly issued nonce. @throws on a duplicate nonce. */
  issueNonce(nonce: IssuedNonce): Promise<void>;
  /** Look a nonce up; null when unknown. */
  findNonce(nonce: string): Promise<(IssuedNonce & { consumedAt: number | null }) | null>;
  /**
   * Delete unconsumed nonces that expired before `before`; returns how many. Consumed nonces
   * stay with their claims.
   */
  purgeExpiredNonces(before: number): Promise<number>;
  /**
   * The single linearization point of a paid request (docs/architecture.md, "A paid request"): in one atomic
   * step, consume the nonce (it must exist, be unconsumed, unexpired at `claim.claimedAt`, and
   * bound to `urlHash`) and insert the permanent claim of the transaction id. Either both happen
   * and the result is `claimed`, or neither and the result says why. The claim is durable when
   * the promise resolves (the SQLite adapter syncs this commit to disk).
   */
  claimPayment(claim: PaymentClaim, urlHash: string): Promise<ClaimOutcome>;
  /** The claim of a transaction id, or null when it never paid for a request. */
  findClaim(chain: PaymentClaim['chain'], txId: string): Promise<PaymentClaim | null>;
  /**
   * The server secret named `name`, shared by every process on this store: the stored one, or
   * `candidate` after storing it when there was none (first writer wins, atomically, so
   * instances starting together agree).
   *
   * @param candidate a fresh random secret (hex) to store when none exists.
   * @returns the secret every process uses (hex).
   */
  serverSecret(name: string, candidate: string, now: number): Promise<string>;
}
