/**
 * @module payments/payment-config
 * The settings of x402 payments the payment challenge and gate need; `config/config.ts` reads
 * them from the environment.
 */

/** Settings of the x402 challenge. A chain without a recipient is not offered. */
export interface PaymentConfig {
  /** Memo / message prefix: `<prefix>:<nonce>` (X402_PREFIX, default `linkguard`). */
  prefix: string;
  /** Price as a decimal USDC string (PRICE_USDC, default `0.01`). */
  priceUsdc: string;
  /** The same price in atomic units (6 decimals): `0.01` → 10000. */
  priceAtomic: bigint;
  /** Nonce lifetime in seconds (NONCE_TTL_SECONDS, default 600 = spec's 10 minutes). */
  nonceTtlSeconds: number;
  /** Solana recipient wallet (owner, base58) or null when Solana is not offered. */
  solanaRecipient: string | null;
  /** SPL mint of USDC on Solana (SOLANA_USDC_MINT, default mainnet USDC). */
  solanaUsdcMint: string;
  /** Base recipient (0x address) or null when Base is not offered. */
  baseRecipient: string | null;
  /** USDC ERC-20 contract on Base (BASE_USDC_CONTRACT, default Base mainnet USDC). */
  baseUsdcContract: string;
  /** Solana JSON-RPC endpoint used to verify payments (SOLANA_RPC_URL). */
  solanaRpcUrl: string;
  /** Commitment a Solana payment must reach (SOLANA_COMMITMENT, default `confirmed`). */
  solanaCommitment: 'confirmed' | 'finalized';
  /** Base JSON-RPC endpoint used to verify payments (BASE_RPC_URL). */
  baseRpcUrl: string;
  /** Blocks a Base payment needs, its own included (BASE_MIN_CONFIRMATIONS, default 2). */
  baseMinConfirmations: number;
  /** Budget for the RPC calls of one verification, ms (CHAIN_RPC_TIMEOUT_MS, default 5000). */
  chainRpcTimeoutMs: number;
  /**
   * Secret keying the URL binding of payment nonces (LINKGUARD_SECRET); null: a secret generated
   * once and kept in the store, shared by every instance on it.
   */
  serverSecret: string | null;
  /**
   * Fee payer of the standard x402 `exact` scheme on Solana (SOLANA_FEE_PAYER_KEYPAIR); null:
   * Solana `exact` is not settled by the service.
   */
  solanaFeePayerKeypair: SolanaFeePayerKeypair | null;
  /**
   * Private key (0x + 64 hex) of the Base account that settles standard x402 `exact` payments
   * itself, submitting the payer's EIP-3009 authorization and paying its gas
   * (BASE_SETTLEMENT_PRIVATE_KEY); null: no local Base settlement. Never logged.
   */
  baseSettlementPrivateKey: `0x${string}` | null;
  /**
   * Remote x402 facilitator (`/verify`, `/settle`, `/supported`) that verifies and settles
   * standard `exact` payments instead of the local settlement accounts (X402_FACILITATOR_URL);
   * null: none.
   */
  facilitatorUrl: string | null;
}

/**
 * A Solana key pair read from SOLANA_FEE_PAYER_KEYPAIR (docs/decisions.md, decision 158). The
 * bytes sit behind a function so that serializing or inspecting the configuration shows the
 * address only.
 */
export interface SolanaFeePayerKeypair {
  /** The fee payer's address (base58): the `exact` offers' `extra.feePayer`. */
  readonly address: string;
  /** A copy of the 64 key-pair bytes (secret key, then public key). A secret: never log it. */
  keypairBytes(): Uint8Array;
}
