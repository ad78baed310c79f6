/**
 * @module payments/exact/exact-facilitator
 * Who verifies and settles standard x402 `exact` payments (README, "Paying per request (x402)";
 * docs/decisions.md, decisions 151–152): either this process, with an `@x402/core`
 * `x402Facilitator` holding the `exact` schemes of `@x402/evm` (Base, settled by
 * BASE_SETTLEMENT_PRIVATE_KEY) and any other scheme pairs registered with it (the Solana ones,
 * with SOLANA_FEE_PAYER_KEYPAIR), or a remote facilitator at X402_FACILITATOR_URL through
 * `@x402/core`'s `HTTPFacilitatorClient` (the documented `/verify`, `/settle`, `/supported` API).
 * Either way the gate sees one {@link ExactFacilitator}: what it supports, and verify / settle
 * that throw {@link ChainUnavailableError} when the chain (or the facilitator) did not answer.
 */
import { x402Facilitator } from '@x402/core/facilitator';
import { HTTPFacilitatorClient } from '@x402/core/http';
import type {
  Network,
  PaymentPayload,
  PaymentRequirements,
  SchemeNetworkFacilitator,
  SettleResponse,
  SupportedKind,
  VerifyResponse,
} from '@x402/core/types';
import { ExactEvmScheme } from '@x402/evm/exact/facilitator';
import { ExactEvmSchemeV1 } from '@x402/evm/exact/v1/facilitator';

import { urlOrigin } from '../log-redaction.js';
import type { PaymentConfig } from '../payment-config.js';
import { ChainUnavailableError } from '../verification.js';
import { createEvmSettlementSigner } from './evm-settlement-signer.js';
import { watchOutages } from './rpc-outage.js';

/** x402 v1 network name of Base mainnet (the `x402` package's `NetworkSchema`). */
export const BASE_NETWORK_V1 = 'base';
/** CAIP-2 id of Base mainnet, the x402 v2 network name (chain id 8453). */
export const BASE_NETWORK_V2 = 'eip155:8453';
/** x402 v1 network name of Solana mainnet. */
export const SOLANA_NETWORK_V1 = 'solana';
/** CAIP-2 id of Solana mainnet (genesis hash prefix), the x402 v2 network name. */
export const SOLANA_NETWORK_V2 = 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp';

/**
 * The `exact` scheme of one chain for both protocol versions, ready to register with the local
 * facilitator. The Solana module (`svm-exact-facilitator.ts`) builds one from
 * SOLANA_FEE_PAYER_KEYPAIR; the Base one is built here.
 */
export interface ExactSchemePair {
  v1: SchemeNetworkFacilitator;
  v2: SchemeNetworkFacilitator;
  networkV1: string;
  networkV2: string;
  /** The account that pays fees / gas (fee payer on Solana, settlement account on Base). */
  feePayer: string;
}

/** A supported `(version, network)` of the `exact` scheme, with the facilitator's `extra`. */
export interface ExactKind {
  version: 1 | 2;
  network: string;
  /** From `/supported` (Solana: `{feePayer}`); empty for EVM. */
  extra: Record<string, unknown>;
}

/** What the payment gate needs of a facilitator. */
export interface ExactFacilitator {
  /** `local` (this process settles) or `remote` (X402_FACILITATOR_URL). */
  readonly mode: 'local' | 'remote';
  /**
   * The `exact` kinds offered now. Local: what is registered. Remote: its `/supported`, cached
   * for {@link SUPPORTED_CACHE_MS}; empty while it cannot be read (the standard scheme is then
   * not offered rather than offered blind).
   */
  kinds(): Promise<ExactKind[]>;
  /**
   * Verify a payload against our requirements (no state changes anywhere).
   * @throws {ChainUnavailableError} when the chain RPC or the facilitator did not answer.
   */
  verify(payload: PaymentPayload, requirements: PaymentRequirements): Promise<VerifyResponse>;
  /**
   * Settle: submit the payment on chain and wait for its receipt.
   * @throws {ChainUnavailableError} when the chain RPC or the facilitator did not answer.
   */
  settle(payload: PaymentPayload, requirements: PaymentRequirements): Promise<SettleResponse>;
}

/** How long a remote facilitator's `/supported` answer is reused (ms). */
export const SUPPORTED_CACHE_MS = 10 * 60 * 1000;
/** After `/supported` failed, how long 402s go without standard offers before asking again (ms). */
export const SUPPORTED_RETRY_MS = 30 * 1000;

/**
 * Longest wait for a settlement's receipt, as a multiple of CHAIN_RPC_TIMEOUT_MS: a Base block
 * takes 2 s, so the default (4 × 5 s) leaves room for a few blocks of inclusion delay.
 */
const CONFIRMATION_TIMEOUT_FACTOR = 4;

/**
 * Build the facilitator this configuration asks for, or null when the standard scheme is not
 * offered (no X402_FACILITATOR_URL, no local settlement account for an offered chain, and no
 * registered scheme pair).
 *
 * @param config payment configuration (recipients, keys, RPC, budgets).
 * @param extraSchemes scheme pairs to register with the local facilitator (the Solana pair).
 *   Ignored with X402_FACILITATOR_URL: the remote facilitator settles every chain.
 */
export function createExactFacilitator(
  config: PaymentConfig,
  extraSchemes: readonly ExactSchemePair[] = [],
): ExactFacilitator | null {
  if (config.facilitatorUrl !== null) return remoteFacilitator(config.facilitatorUrl, config);
  const facilitator = new x402Facilitator();
  const kinds: ExactKind[] = [];
  const rpcOf = new Map<string, { chain: 'base' | 'solana'; rpc: string }>();
  const register = (pair: ExactSchemePair, chain: 'base' | 'solana', rpcUrl: string): void => {
    facilitator.register(pair.networkV2 as Network, pair.v2);
    facilitator.registerV1(pair.networkV1 as Network, pair.v1);
    for (const [version, network] of [
      [1, pair.networkV1],
      [2, pair.networkV2],
    ] as const) {
      const extra = chain === 'solana' ? { feePayer: pair.feePayer } : {};
      kinds.push({ version, network, extra });
      rpcOf.set(network, { chain, rpc: urlOrigin(rpcUrl) });
    }
  };
  if (config.baseRecipient !== null && config.baseSettlementPrivateKey !== null) {
    const { signer, address } = createEvmSettlementSigner({
      privateKey: config.baseSettlementPrivateKey,
      rpcUrl: config.baseRpcUrl,
      timeoutMs: config.chainRpcTimeoutMs,
      confirmationTimeoutMs: CONFIRMATION_TIMEOUT_FACTOR * config.chainRpcTimeoutMs,
    });
    register(
      {
        v1: new ExactEvmSchemeV1(signer),
        v2: new ExactEvmScheme(signer),
        networkV1: BASE_NETWORK_V1,
        networkV2: BASE_NETWORK_V2,
        feePayer: address,
      },
      'base',
      config.baseRpcUrl,
    );
  }
  if (config.solanaRecipient !== null) {
    for (const pair of extraSchemes) register(pair, 'solana', config.solanaRpcUrl);
  }
  if (kinds.length === 0) return null;

  // A refusal (or an error) while the RPC failed is an outage, not a verdict on the payment;
  // an acceptance stands (a settlement that went through despite a failed read happened).
  const guarded = async <T extends VerifyResponse | SettleResponse>(
    network: string,
    work: () => Promise<T>,
  ): Promise<T> => {
    const outcome = await watchOutages(work);
    if (outcome.failure !== undefined && (!outcome.ok || !accepted(outcome.value))) {
      const where = rpcOf.get(network) ?? { chain: 'base' as const, rpc: 'unknown' };
      const label = where.chain === 'base' ? 'Base' : 'Solana';
      throw new ChainUnavailableError(
        where.chain,
        where.rpc,
        `The ${label} RPC at ${where.rpc} did not answer`,
        { cause: outcome.failure },
      );
    }
    if (!outcome.ok) throw outcome.error;
    return outcome.value;
  };
  return {
    mode: 'local',
    kinds: () => Promise.resolve(kinds),
    verify: (payload, requirements) =>
      guarded(requirements.network, () => facilitator.verify(payload, requirements)),
    settle: (payload, requirements) =>
      guarded(requirements.network, () => facilitator.settle(payload, requirements)),
  };
}

/** A remote facilitator over `@x402/core`'s HTTP client, bounded by CHAIN_RPC_TIMEOUT_MS. */
function remoteFacilitator(url: string, config: PaymentConfig): ExactFacilitator {
  const settleBudget = CONFIRMATION_TIMEOUT_FACTOR * config.chainRpcTimeoutMs;
  const verifier = new HTTPFacilitatorClient({ url, timeoutMs: config.chainRpcTimeoutMs });
  const settler = new HTTPFacilitatorClient({ url, timeoutMs: settleBudget });
  const origin = urlOrigin(url);
  let cached: { at: number; kinds: Promise<ExactKind[]> } | null = null;

  const unavailable = (network: string, error: unknown): ChainUnavailableError =>
    new ChainUnavailableError(
      network.startsWith('solana') ? 'solana' : 'base',
      origin,
      `The x402 facilitator at ${origin} did not answer`,
      { cause: error },
    );
  /**
   * `HTTPFacilitatorClient` throws VerifyError / SettleError for a 4xx with a proper body: the
   * facilitator answered, so that is a refusal. Returns its reason code, else null.
   */
  const answered = (error: unknown): string | null => {
    if (typeof error !== 'object' || error === null) return null;
    const value = error as {
      name?: unknown;
      statusCode?: unknown;
      invalidReason?: unknown;
      errorReason?: unknown;
    };
    if (
      (value.name === 'VerifyError' || value.name === 'SettleError') &&
      typeof value.statusCode === 'number' &&
      value.statusCode < 500
    ) {
      const reason = value.invalidReason ?? value.errorReason;
      return typeof reason === 'string' ? reason : 'invalid_payment';
    }
    return null;
  };

  return {
    mode: 'remote',
    kinds: () => {
      const now = Date.now();
      if (cached !== null && now - cached.at < SUPPORTED_CACHE_MS) return cached.kinds;
      const kinds = verifier.getSupported().then(
        (supported) => supported.kinds.filter(isExact).map(toKind),
        () => {
          // Not answering: offer nothing standard, and ask again only after a pause, so a down
          // facilitator does not hold up every 402 by its timeout.
          cached = { at: Date.now() - SUPPORTED_CACHE_MS + SUPPORTED_RETRY_MS, kinds };
          return [];
        },
      );
      cached = { at: now, kinds };
      return kinds;
    },
    verify: async (payload, requirements) => {
      try {
        return await verifier.verify(payload, requirements);
      } catch (error) {
        const reason = answered(error);
        if (reason !== null) return { isValid: false, invalidReason: reason };
        throw unavailable(requirements.network, error);
      }
    },
    settle: async (payload, requirements) => {
      try {
        return await settler.settle(payload, requirements);
      } catch (error) {
        const reason = answered(error);
        if (reason !== null) {
          return {
            success: false,
            errorReason: reason,
            transaction: '',
            network: requirements.network,
          };
        }
        throw unavailable(requirements.network, error);
      }
    },
  };
}

function accepted(result: VerifyResponse | SettleResponse): boolean {
  return 'isValid' in result ? result.isValid : result.success;
}

function isExact(kind: SupportedKind): boolean {
  return kind.scheme === 'exact' && (kind.x402Version === 1 || kind.x402Version === 2);
}

function toKind(kind: SupportedKind): ExactKind {
  return {
    version: kind.x402Version === 1 ? 1 : 2,
    network: kind.network,
    extra: kind.extra ?? {},
  };
}
