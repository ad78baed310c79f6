/**
 * @module payments/base-verifier
 * Verify a Base USDC payment by its transaction hash (docs/architecture.md, "A paid request"),
 * read-only over JSON-RPC with viem. A payment is good when the receipt succeeded with enough
 * confirmations on chain id 8453, the USDC contract logged `Transfer`s to the recipient worth at
 * least the price, and the EIP-191 signature of `<prefix>:<nonce>` recovers to the sender of the
 * transaction (Base has no memo: the signature binds the payment to the nonce; README, "Paying
 * per request (x402)").
 *
 * Chain id, head, receipt and transaction are fetched in one JSON-RPC batch: verification costs
 * one HTTP round trip.
 */
import {
  type Address,
  BaseError,
  createPublicClient,
  erc20Abi,
  getAddress,
  http,
  isAddressEqual,
  parseEventLogs,
  recoverMessageAddress,
  TransactionNotFoundError,
  TransactionReceiptNotFoundError,
} from 'viem';
import { base } from 'viem/chains';

import { urlOrigin } from './log-redaction.js';
import type { BaseProof } from './payment-proof.js';
import {
  type ChainProbe,
  ChainUnavailableError,
  isRpcRequestBug,
  type Verification,
} from './verification.js';

/** Base mainnet (EIP-155 chain id; docs.base.org network information). */
export const BASE_CHAIN_ID = 8453;

/** Base produces a block every 2 s (docs.base.org); a pending payment waits that per block. */
const BLOCK_TIME_SECONDS = 2;

export interface BaseVerifierConfig {
  rpcUrl: string;
  recipient: string;
  /** USDC contract address. */
  usdc: string;
  minAmountAtomic: bigint;
  /** Blocks including the transaction's own (head − block + 1). */
  minConfirmations: number;
  /** Budget for the batched RPC request, ms. */
  timeoutMs: number;
  /** Budget of a readiness probe, ms (default `timeoutMs`). */
  probeTimeoutMs?: number;
}

/** Verifies Base proofs against one RPC endpoint and recipient. */
export interface BaseVerifier {
  /** Verify one proof; `message` is the exact text the wallet signed (`<prefix>:<nonce>`). */
  verify(proof: BaseProof, message: string): Promise<Verification>;
  /** Readiness: does the RPC answer, and is it Base mainnet? */
  probe(): Promise<ChainProbe>;
}

/**
 * Build a verifier bound to one RPC endpoint and recipient.
 *
 * `verify` throws {@link ChainUnavailableError} when the RPC fails, times out, answers 429/5xx,
 * or is not Base mainnet (a misconfiguration must not accept testnet money).
 */
export function createBaseVerifier(config: BaseVerifierConfig): BaseVerifier {
  const client = createPublicClient({
    chain: base,
    // One HTTP request per verification; no silent retries that would stretch the time budget.
    transport: http(config.rpcUrl, {
      batch: { batchSize: 8, wait: 0 },
      retryCount: 0,
      timeout: config.timeoutMs,
    }),
  });
  // Probes have their own, shorter budget (a load balancer waits for them).
  const probeClient = createPublicClient({
    chain: base,
    transport: http(config.rpcUrl, {
      retryCount: 0,
      timeout: config.probeTimeoutMs ?? config.timeoutMs,
    }),
  });
  const rpc = urlOrigin(config.rpcUrl);
  const recipient = getAddress(config.recipient);
  const usdc = getAddress(config.usdc);

  const probe = async (): Promise<ChainProbe> => {
    try {
      return (await probeClient.getChainId()) === BASE_CHAIN_ID ? 'ok' : 'wrong_chain';
    } catch {
      return 'unavailable';
    }
  };
  const verify = async (proof: BaseProof, message: string): Promise<Verification> => {
    const hash = proof.txHash;
    let chainId: number;
    let head: bigint;
    let receipt: Awaited<ReturnType<typeof client.getTransactionReceipt>> | null;
    let transaction: Awaited<ReturnType<typeof client.getTransaction>> | null;
    try {
      [chainId, head, receipt, transaction] = await Promise.all([
        client.getChainId(),
        client.getBlockNumber({ cacheTime: 0 }),
        client.getTransactionReceipt({ hash }).catch(orNull(TransactionReceiptNotFoundError)),
        client.getTransaction({ hash }).catch(orNull(TransactionNotFoundError)),
      ]);
    } catch (error) {
      if (isRpcRequestBug(error)) throw error;
      const detail = error instanceof BaseError ? error.shortMessage : 'no answer';
      throw new ChainUnavailableError(
        'base',
        rpc,
        `The Base RPC at ${rpc} did not answer: ${detail}`,
        {
          cause: error,
        },
      );
    }
    if (chainId !== BASE_CHAIN_ID) {
      throw new ChainUnavailableError(
        'base',
        rpc,
        `BASE_RPC_URL (${rpc}) serves chain id ${chainId}, not Base mainnet (${BASE_CHAIN_ID})`,
      );
    }

    if (receipt === null) {
      // In the mempool: it will land; unknown: never sent, dropped, or reorganized away.
      return transaction === null
        ? fail('tx_not_found', 'The Base RPC does not know this transaction')
        : pending('The transaction is not yet in a block', config.minConfirmations);
    }
    if (receipt.status !== 'success') {
      return fail('tx_failed', 'The transaction reverted; it paid nothing');
    }
    const confirmations = Number(head - receipt.blockNumber + 1n);
    if (confirmations < config.minConfirmations) {
      return pending(
        `The transaction has ${confirmations} of ${config.minConfirmations} confirmations`,
        config.minConfirmations - confirmations,
      );
    }

    const transfers = parseEventLogs({
      abi: erc20Abi,
      eventName: 'Transfer',
      logs: receipt.logs,
      strict: true,
    });
    // Logs of Base USDC carry the proxy's address; anyone can emit `Transfer` from a token of
    // their own, so the emitting contract is what makes it USDC (any ERC-20 may emit such a `Transfer`).
    const usdcTransfers = transfers.filter((log) => isAddressEqual(log.address, usdc));
    const received = usdcTransfers
      .filter((log) => isAddressEqual(log.args.to, recipient))
      .reduce((sum, log) => sum + log.args.value, 0n);
    if (received < config.minAmountAtomic) {
      if (received > 0n) {
        return fail(
          'amount_too_low',
          `The recipient received ${received} atomic USDC; the price is ${config.minAmountAtomic}`,
        );
      }
      if (usdcTransfers.some((log) => log.args.value > 0n)) {
        return fail('wrong_recipient', 'USDC went to another address than the recipient');
      }
      if (transfers.length > 0) {
        return fail('wrong_token', 'A token other than USDC was transferred');
      }
      return fail('amount_too_low', 'The transaction transferred no USDC to the recipient');
    }

    const signer = await recoverSigner(message, proof.walletSig);
    // `transaction` is non-null here in practice (the receipt exists); treat a lagging node's
    // null as "cannot tell who sent it", which must not pass.
    if (signer === null || transaction === null || !isAddressEqual(transaction.from, signer)) {
      return fail(
        'signer_mismatch',
        `The signature of "${message}" does not recover to the sender of the transaction`,
      );
    }
    return { ok: true, payer: getAddress(signer), amountAtomic: received };
  };
  return { verify, probe };
}

async function recoverSigner(message: string, signature: `0x${string}`): Promise<Address | null> {
  try {
    return await recoverMessageAddress({ message, signature });
  } catch {
    return null;
  }
}

/** `catch` handler turning one viem "not found" error class into null. */
function orNull(errorClass: new (...args: never[]) => Error) {
  return (error: unknown): null => {
    if (error instanceof errorClass) return null;
    throw error;
  };
}

function fail(reason: Exclude<Verification, { ok: true }>['reason'], detail: string): Verification {
  return { ok: false, reason, detail };
}

function pending(detail: string, blocksMissing: number): Verification {
  return {
    ok: false,
    reason: 'payment_pending',
    detail,
    retryAfterSeconds: Math.max(1, blocksMissing * BLOCK_TIME_SECONDS),
  };
}
