/**
 * @module payments/exact/svm-exact-facilitator
 * The Solana half of the standard x402 `exact` scheme, settled by the service itself: the payer's
 * client (`@x402/svm`'s exact client for protocol v2, `x402`'s or `@x402/svm`'s exact/v1 client for
 * v1) partially signs a USDC `TransferChecked` transaction whose fee payer is ours; these schemes,
 * registered in an `x402Facilitator` from `@x402/core/facilitator`, check it with `@x402/svm`'s own
 * facilitator schemes (layout, amount, recipient's associated token account, mint, signatures,
 * `extra.memo`, a simulation), then sign it as fee payer, send it and wait for its commitment.
 *
 * What this module adds to `@x402/svm` (docs/decisions.md, decisions 157–162):
 * - the RPC: kit's default HTTP transport to the configured endpoint, as `solana-verifier.ts`
 *   uses it, with a time bound per request, and errors redacted where they are made (the
 *   library writes the errors it catches with `console.error`);
 * - outages as errors: `@x402/svm` turns every failed RPC call into an invalid payment
 *   (`…_simulation_failed`, `…_transaction_failed`); here a call whose RPC did not answer
 *   throws {@link ChainUnavailableError} instead (→ 503, nothing consumed);
 * - the fee payer's exposure: the payer chooses compute units, their price and the number of
 *   signers, and the fee payer pays for them; all three are capped, for v1 too (the v1 scheme
 *   has no such option);
 * - confirmation at the configured commitment, bounded in time, and a send the node refuses
 *   looked up by its signature (a retried settlement of a transaction that landed).
 */
import {
  type Address,
  createDefaultRpcTransport,
  createKeyPairSignerFromBytes,
  createSolanaRpcFromTransport,
  decompileTransactionMessage,
  getBase58Decoder,
  getBase64Encoder,
  getCompiledTransactionMessageDecoder,
  getTransactionDecoder,
  type KeyPairSigner,
  type Rpc,
  type RpcTransport,
  type Signature,
  type SolanaRpcApi,
  type Transaction,
} from '@solana/kit';
import { InMemoryPendingSettlementStore } from '@x402/core/facilitator';
import type {
  FacilitatorContext,
  Network,
  PaymentPayload,
  PaymentRequirements,
  SchemeNetworkFacilitator,
  SettleResponse,
  VerifyResponse,
} from '@x402/core/types';
import {
  COMPUTE_BUDGET_PROGRAM_ADDRESS,
  type FacilitatorRpcClient,
  type FacilitatorSvmSigner,
  SettlementCache,
  SOLANA_DEVNET_CAIP2,
  SOLANA_MAINNET_CAIP2,
  toFacilitatorSvmSigner,
  TransactionOnchainFailureError,
} from '@x402/svm';
import { ExactSvmScheme } from '@x402/svm/exact/facilitator';
import { ExactSvmSchemeV1 } from '@x402/svm/exact/v1/facilitator';

import { redactError, redactText, urlOrigin } from '../log-redaction.js';
import { ChainUnavailableError } from '../verification.js';

/**
 * The Solana clusters the schemes can name. A local Surfpool is named `mainnet`: it carries the
 * mainnet USDC mint at its mainnet address, and the official clients know only mainnet, devnet
 * and testnet names (docs/decisions.md, decision 157).
 */
export type SvmCluster = 'mainnet' | 'devnet';

/**
 * x402 network names per cluster: v1 names and CAIP-2 ids (`solana:<genesis hash prefix>`), as
 * `@x402/svm` 2.27.0 maps them (`V1_TO_V2_NETWORK_MAP`).
 */
const NETWORKS: Readonly<Record<SvmCluster, { v1: Network; v2: `solana:${string}` }>> = {
  // v1 names have no colon; @x402/core's `Network` type (CAIP-2) is what `registerV1()` takes, and
  // @x402/svm casts its own v1 names the same way.
  mainnet: { v1: 'solana' as Network, v2: SOLANA_MAINNET_CAIP2 },
  devnet: { v1: 'solana-devnet' as Network, v2: SOLANA_DEVNET_CAIP2 },
};

/** Limits of what the fee payer pays for one payment (docs/decisions.md, decision 160). */
export interface SvmFeeLimits {
  /** Highest compute-unit limit accepted (`SetComputeUnitLimit`); default 200,000. */
  maxComputeUnits: number;
  /** Highest compute-unit price accepted, µlamports per unit; default 10,000. */
  maxPriorityFeeMicroLamports: number;
  /** Most signatures a transaction may require, the fee payer's included; default 2. */
  maxRequiredSignatures: number;
}

/**
 * Defaults: the official clients ask for 20,000 units (`@x402/svm`) or a simulated estimate
 * (`x402` 1.2.0) at 1 µlamport per unit, with two signers (fee payer, payer). At these limits a
 * payment costs the fee payer at most 2 × 5,000 lamports of signature fees plus 2,000 lamports of
 * priority fee (docs.solana.com, "Transaction fees": 5,000 lamports per signature).
 */
export const DEFAULT_SVM_FEE_LIMITS: Readonly<SvmFeeLimits> = Object.freeze({
  maxComputeUnits: 200_000,
  maxPriorityFeeMicroLamports: 10_000,
  maxRequiredSignatures: 2,
});

export interface SvmExactFacilitatorOptions {
  /**
   * The fee payer's key pair: 64 bytes, the 32-byte Ed25519 secret key then the public key, as
   * `solana-keygen` writes it (config: `SOLANA_FEE_PAYER_KEYPAIR`). A secret: never logged.
   */
  feePayerKeypair: Uint8Array;
  /** Solana JSON-RPC endpoint (`SOLANA_RPC_URL`); may carry an API key, never logged. */
  rpcUrl: string;
  /** Cluster whose x402 network names the schemes answer to; default `mainnet`. */
  cluster?: SvmCluster;
  /** Time bound of each RPC request, ms (`CHAIN_RPC_TIMEOUT_MS`). */
  rpcTimeoutMs: number;
  /**
   * How long `settle` waits for the sent transaction to reach `commitment`, ms; default 30,000
   * (what `@x402/svm`'s own signer waits). Past it `settle` answers `settlement_pending`.
   */
  confirmTimeoutMs?: number;
  /** Commitment a settled transaction must reach (`SOLANA_COMMITMENT`); default `confirmed`. */
  commitment?: 'confirmed' | 'finalized';
  /** Fee limits; default {@link DEFAULT_SVM_FEE_LIMITS}. */
  feeLimits?: Partial<SvmFeeLimits>;
}

/** The schemes to register in an `x402Facilitator`, and what a 402 offer must name. */
export interface SvmExactFacilitatorSchemes {
  /** Protocol v1 scheme: `facilitator.registerV1(networkV1, v1)`. */
  v1: SchemeNetworkFacilitator;
  /** Protocol v2 scheme: `facilitator.register(networkV2, v2)`. */
  v2: SchemeNetworkFacilitator;
  /** v1 network name: `solana` (mainnet) or `solana-devnet`. */
  networkV1: Network;
  /** v2 network, CAIP-2: `solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp` (mainnet) or devnet's. */
  networkV2: `solana:${string}`;
  /** The fee payer's address (base58): the offers' `extra.feePayer`. */
  feePayer: Address;
}

/**
 * JSON-RPC error codes that mean the submitted transaction is at fault, not the node: invalid
 * params (undecodable transaction), preflight failure, signature verification failure, signature
 * count mismatch, unsupported version (agave `rpc-client-api` custom error codes), and the
 * JSON-RPC 2.0 request errors. Any other JSON-RPC error (node unhealthy -32005, internal error
 * -32603, rate limits…) is an outage.
 */
const TRANSACTION_FAULT_CODES: ReadonlySet<number> = new Set([
  -32700, -32600, -32601, -32602, -32002, -32003, -32013, -32015,
]);

const DEFAULT_CONFIRM_TIMEOUT_MS = 30_000;
/** First poll of `getSignatureStatuses` after sending, then doubling up to 1 s. */
const FIRST_POLL_MS = 250;
const MAX_POLL_MS = 1000;

/** `invalidReason` when a transaction's fee exceeds {@link SvmFeeLimits}. */
export const FEE_ABOVE_LIMIT_REASON = 'invalid_exact_svm_fee_above_limit';

/**
 * Build the Solana `exact` schemes (protocol v1 and v2) that verify and settle as the fee payer.
 *
 * Wiring: `new x402Facilitator().register(s.networkV2, s.v2).registerV1(s.networkV1, s.v1)`.
 *
 * `verify` and `settle` answer like `@x402/svm`'s schemes (`isValid`/`success` with an x402
 * reason) except that they throw {@link ChainUnavailableError} when the RPC did not answer (a
 * transport failure, a timeout, an HTTP error, a JSON-RPC error other than the transaction's
 * fault) and the payment did not settle: nothing was paid or the payer can retry with the same
 * payload, which then settles once (the transaction's signature is the same).
 *
 * @throws Error (from `@solana/kit`) when the key pair is not 64 bytes or its public half does
 *   not match its secret half; `config.ts` has checked both before.
 */
export async function createSvmExactFacilitatorSchemes(
  options: SvmExactFacilitatorOptions,
): Promise<SvmExactFacilitatorSchemes> {
  const keypair = await createKeyPairSignerFromBytes(options.feePayerKeypair);
  const { v1: networkV1, v2: networkV2 } = NETWORKS[options.cluster ?? 'mainnet'];
  const limits = { ...DEFAULT_SVM_FEE_LIMITS, ...options.feeLimits };
  const origin = urlOrigin(options.rpcUrl);
  // kit's own HTTP transport, the one createSolanaRpc() builds in solana-verifier.ts: RPC URLs are
  // operator configuration, not subject to the SSRF policy (docs/decisions.md, decision 31).
  const baseTransport = createDefaultRpcTransport({ url: options.rpcUrl });
  // Shared like registerExactSvmScheme() shares them, so v1 and v2 see each other's settlements.
  const settlementCache = new SettlementCache();
  const pendingSettlementStore = new InMemoryPendingSettlementStore();
  const context: CallContextOptions = {
    keypair,
    rpcUrl: options.rpcUrl,
    origin,
    baseTransport,
    rpcTimeoutMs: options.rpcTimeoutMs,
    confirmTimeoutMs: options.confirmTimeoutMs ?? DEFAULT_CONFIRM_TIMEOUT_MS,
    commitment: options.commitment ?? 'confirmed',
  };

  const v2 = guardedScheme(networkV2, keypair.address, context, limits, (signer) => {
    return new ExactSvmScheme(signer, settlementCache, {
      pendingSettlementStore,
      maxComputeUnits: limits.maxComputeUnits,
      maxPriorityFeeMicroLamports: limits.maxPriorityFeeMicroLamports,
      maxRequiredSignatures: limits.maxRequiredSignatures,
    });
  });
  const v1 = guardedScheme(
    networkV1,
    keypair.address,
    context,
    limits,
    (signer) => new ExactSvmSchemeV1(signer, settlementCache),
  );
  return { v1, v2, networkV1, networkV2, feePayer: keypair.address };
}

type FacilitatorSimulateOptions = Parameters<FacilitatorSvmSigner['simulateTransaction']>[2];

interface CallContextOptions {
  keypair: KeyPairSigner;
  rpcUrl: string;
  origin: string;
  baseTransport: RpcTransport;
  rpcTimeoutMs: number;
  confirmTimeoutMs: number;
  commitment: 'confirmed' | 'finalized';
}

/** One verify or settle call: its signer, and the first outage its RPC calls met. */
interface CallContext {
  signer: FacilitatorSvmSigner;
  outage(): ChainUnavailableError | undefined;
}

/**
 * A scheme whose every call gets its own signer, so an outage is attributed to the call that met
 * it (the library's schemes catch RPC errors and answer with an invalid payment).
 */
function guardedScheme(
  network: Network,
  feePayer: Address,
  options: CallContextOptions,
  limits: SvmFeeLimits,
  build: (signer: FacilitatorSvmSigner) => SchemeNetworkFacilitator,
): SchemeNetworkFacilitator {
  const secrets = { rpcUrls: [options.rpcUrl] };
  return {
    scheme: 'exact',
    caipFamily: 'solana:*',
    getExtra: () => ({ feePayer }),
    getSigners: () => [feePayer],
    async verify(
      payload: PaymentPayload,
      requirements: PaymentRequirements,
      facilitatorContext?: FacilitatorContext,
    ): Promise<VerifyResponse> {
      const refusal = precheck(payload, requirements, network, limits);
      if (refusal !== null) return { isValid: false, invalidReason: refusal, payer: '' };
      const call = callContext(options);
      const result = await build(call.signer).verify(payload, requirements, facilitatorContext);
      const outage = call.outage();
      if (!result.isValid && outage !== undefined) throw outage;
      return result.invalidMessage === undefined
        ? result
        : { ...result, invalidMessage: redactText(result.invalidMessage, secrets) };
    },
    async settle(
      payload: PaymentPayload,
      requirements: PaymentRequirements,
      facilitatorContext?: FacilitatorContext,
    ): Promise<SettleResponse> {
      const refusal = precheck(payload, requirements, network, limits);
      if (refusal !== null) {
        return {
          success: false,
          errorReason: refusal,
          transaction: '',
          network,
          payer: '',
        };
      }
      const call = callContext(options);
      const result = await build(call.signer).settle(payload, requirements, facilitatorContext);
      const outage = call.outage();
      if (!result.success && outage !== undefined) throw outage;
      return result.errorMessage === undefined
        ? result
        : { ...result, errorMessage: redactText(result.errorMessage, secrets) };
    },
  };
}

/**
 * What the library does not check: the requirements' network (the facilitator routes by it; a
 * gate bug must not reach another cluster's names) and the fee limits (the v1 scheme has none;
 * v2 is checked here too, for one reason code). Returns the refusal reason, or null to go on.
 * Anything undecodable is left to the library's verdict.
 */
function precheck(
  payload: PaymentPayload,
  requirements: PaymentRequirements,
  network: string,
  limits: SvmFeeLimits,
): string | null {
  if (requirements.network !== network) return 'invalid_exact_svm_network_mismatch';
  const transaction = (payload.payload as { transaction?: unknown }).transaction;
  if (typeof transaction !== 'string') return null;
  const decoded = decodeMessage(transaction);
  if (decoded === null) return null;
  const { compiled, instructions } = decoded;
  if (compiled.header.numSignerAccounts > limits.maxRequiredSignatures) {
    return FEE_ABOVE_LIMIT_REASON;
  }
  for (const instruction of instructions) {
    if (instruction.programAddress !== COMPUTE_BUDGET_PROGRAM_ADDRESS) continue;
    const data = instruction.data;
    if (data === undefined) continue;
    const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
    // Compute Budget program instructions (agave `compute-budget-interface`): tag 2
    // SetComputeUnitLimit(u32), tag 3 SetComputeUnitPrice(u64, µlamports), little-endian.
    if (data[0] === 2 && data.length >= 5 && view.getUint32(1, true) > limits.maxComputeUnits) {
      return FEE_ABOVE_LIMIT_REASON;
    }
    if (
      data[0] === 3 &&
      data.length >= 9 &&
      view.getBigUint64(1, true) > BigInt(limits.maxPriorityFeeMicroLamports)
    ) {
      return FEE_ABOVE_LIMIT_REASON;
    }
  }
  return null;
}

/** A signer for one call: the fee payer's key, the call's RPC, a bounded confirmation. */
function callContext(options: CallContextOptions): CallContext {
  let outage: ChainUnavailableError | undefined;
  const record = (error: ChainUnavailableError): void => {
    outage ??= error;
  };
  const transport = timedTransport(options, record);
  const rpc: Rpc<SolanaRpcApi> = createSolanaRpcFromTransport(transport);
  // The map form: `toFacilitatorSvmSigner(signer, rpc)` detects an RPC with `'getSlot' in rpc`,
  // which is false for kit's RPC proxy (kit 5 and 8 alike), and would then use the RPC as a
  // per-network map and fail every call.
  // kit's cluster brand (`RpcMainnet`…) is a type-level tag only; the endpoint decides the cluster.
  const base = toFacilitatorSvmSigner(options.keypair, { '*': rpc as FacilitatorRpcClient });
  const redact = redactingErrors({ rpcUrls: [options.rpcUrl] });
  const signer: FacilitatorSvmSigner = {
    ...base,
    signTransaction: redact((transaction: string, feePayer: Address, network: string) =>
      base.signTransaction(transaction, feePayer, network),
    ),
    simulateTransaction: redact(
      (transaction: string, network: string, simulateOptions?: FacilitatorSimulateOptions) =>
        base.simulateTransaction(transaction, network, simulateOptions),
    ),
    sendTransaction: redact((transaction: string, network: string) =>
      sendOnce(base, rpc, transaction, network, options.keypair.address),
    ),
    confirmTransaction: redact((signature: string) =>
      confirm(rpc, signature as Signature, options),
    ),
  };
  return { signer, outage: () => outage };
}

/**
 * Wrap a signer method so that what it throws is redacted: the library writes the errors it
 * catches with `console.error`, and a provider's JSON-RPC error text may quote the request, its
 * URL or an API key. Keeps `TransactionOnchainFailureError` (the library tests its class) and
 * {@link ChainUnavailableError} (redacted where it is made) as they are.
 */
function redactingErrors(secrets: { rpcUrls: readonly string[] }) {
  return <A extends unknown[], R>(method: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      try {
        return await method(...args);
      } catch (error) {
        if (error instanceof TransactionOnchainFailureError) throw error;
        if (error instanceof ChainUnavailableError) throw error;
        throw redactError(error, secrets);
      }
    };
}

/**
 * kit's transport with a time bound per request; a request that fails, or a JSON-RPC error that
 * is not the transaction's fault, is recorded as an outage of the call. The error thrown is
 * already redacted: the library writes what it catches to the console.
 */
function timedTransport(
  options: CallContextOptions,
  record: (error: ChainUnavailableError) => void,
): RpcTransport {
  const secrets = { rpcUrls: [options.rpcUrl] };
  const about = { rpc: options.origin, chain: 'solana' };
  const transport = async <T>(request: Parameters<RpcTransport>[0]): Promise<T> => {
    const timeout = AbortSignal.timeout(options.rpcTimeoutMs);
    const signal =
      request.signal === undefined ? timeout : AbortSignal.any([request.signal, timeout]);
    let response: T;
    try {
      response = await options.baseTransport<T>({ ...request, signal });
    } catch (error) {
      const outage = new ChainUnavailableError(
        'solana',
        options.origin,
        `The Solana RPC at ${options.origin} did not answer`,
        { cause: redactError(error, secrets, about) },
      );
      record(outage);
      throw outage;
    }
    const code = jsonRpcErrorCode(response);
    if (code !== undefined && !TRANSACTION_FAULT_CODES.has(code)) {
      record(
        new ChainUnavailableError(
          'solana',
          options.origin,
          `The Solana RPC at ${options.origin} answered JSON-RPC error ${code}`,
        ),
      );
    }
    return response;
  };
  return transport;
}

/**
 * The `error.code` of a JSON-RPC response (or of any response in a batch). kit's Solana transport
 * parses integers as bigint, so the code may be either.
 */
function jsonRpcErrorCode(response: unknown): number | undefined {
  const responses: unknown[] = Array.isArray(response) ? response : [response];
  for (const item of responses) {
    const code = (item as { error?: { code?: unknown } } | null)?.error?.code;
    if (typeof code === 'number' || typeof code === 'bigint') return Number(code);
  }
  return undefined;
}

/**
 * Send, and when the node refuses, look the transaction up before giving up: a send whose answer
 * was lost (an outage after the node took it) or a transaction that landed before (a settlement
 * retried after an outage, or the same payload on another instance) is refused as "already
 * processed", yet it paid. Its signature is known before sending (the fee payer's, first in the
 * transaction), so a transaction the chain knows is carried on to confirmation like a new one.
 */
async function sendOnce(
  base: FacilitatorSvmSigner,
  rpc: Rpc<SolanaRpcApi>,
  transaction: string,
  network: string,
  feePayer: Address,
): Promise<string> {
  try {
    return await base.sendTransaction(transaction, network);
  } catch (error) {
    const bytes = decodeWireTransaction(transaction).signatures[feePayer];
    if (bytes == null) throw error;
    const signature = getBase58Decoder().decode(bytes) as Signature;
    const { value } = await rpc
      .getSignatureStatuses([signature], { searchTransactionHistory: true })
      .send();
    if (value[0] == null) throw error;
    return signature;
  }
}

/**
 * The compiled message of a base64 wire transaction and its instructions, or null when it does
 * not decode or uses address lookup tables (which the library resolves or refuses itself).
 */
function decodeMessage(transaction: string) {
  try {
    const compiled = getCompiledTransactionMessageDecoder().decode(
      decodeWireTransaction(transaction).messageBytes,
    );
    return { compiled, instructions: decompileTransactionMessage(compiled).instructions };
  } catch {
    return null;
  }
}

/**
 * A base64 wire transaction, decoded with kit (not `@x402/svm`'s `decodeTransactionFromPayload`,
 * which writes a refused payload's decoding error to the console).
 *
 * @throws SolanaError when `transaction` is not base64 of a transaction.
 */
function decodeWireTransaction(transaction: string): Transaction {
  return getTransactionDecoder().decode(getBase64Encoder().encode(transaction));
}

const RANK = { processed: 0, confirmed: 1, finalized: 2 } as const;

/**
 * Poll `getSignatureStatuses` until the transaction reaches the commitment. A transaction that
 * reached it with an error throws `TransactionOnchainFailureError` (the library then answers
 * `invalid_exact_svm_transaction_failed`); past the time bound a plain Error (the library keeps
 * the signature and answers `settlement_pending`; a retry with the same payload waits again).
 */
async function confirm(
  rpc: Rpc<SolanaRpcApi>,
  signature: Signature,
  options: CallContextOptions,
): Promise<void> {
  const deadline = performance.now() + options.confirmTimeoutMs;
  for (let delay = FIRST_POLL_MS; ; delay = Math.min(delay * 2, MAX_POLL_MS)) {
    const { value } = await rpc.getSignatureStatuses([signature]).send();
    const status = value[0] ?? null;
    const level = status?.confirmationStatus ?? null;
    if (status !== null && level !== null && RANK[level] >= RANK[options.commitment]) {
      if (status.err !== null) {
        throw new TransactionOnchainFailureError(
          `Transaction failed onchain: ${JSON.stringify(status.err, (_key, v: unknown) =>
            typeof v === 'bigint' ? v.toString() : v,
          )}`,
        );
      }
      return;
    }
    if (performance.now() + delay > deadline) {
      throw new Error(
        `The transaction did not reach ${options.commitment} within ${options.confirmTimeoutMs} ms`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, delay));
  }
}
