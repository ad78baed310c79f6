/**
 * @module client/base-payment
 * Send a Base USDC payment the way linkguard's x402 flow expects it (spec §4.1, §5; payments guide
 * §3.2): a plain ERC-20 `transfer` from the paying account, plus an EIP-191 `personal_sign` of
 * `<prefix>:<nonce>` by the same account (Base has no memo, so the signature binds the nonce).
 *
 * The RPC's chain id is checked before anything is signed: a misconfigured RPC URL must not make
 * the client pay on another chain. Tests land deliberately wrong payments through the options
 * (another token or recipient, an underpayment, a reverted transfer with an explicit `gas`).
 */
import {
  type Address,
  createPublicClient,
  createWalletClient,
  erc20Abi,
  type Hash,
  type Hex,
  http,
  type LocalAccount,
  WaitForTransactionReceiptTimeoutError,
} from 'viem';
import { base } from 'viem/chains';

import { PaymentClientError } from './payment-client-error.js';

/** Base mainnet (EIP-155 chain id, spec §2.6). The only chain this client pays on. */
const BASE_CHAIN_ID = 8453;

/** What to send. Amounts are atomic units of the token (USDC: 1 USDC = 1 000 000). */
export interface BasePaymentOptions {
  /** JSON-RPC endpoint of a Base (chain id 8453) node. */
  rpcUrl: string;
  /** The paying account (e.g. `privateKeyToAccount(key)`); it signs locally. */
  account: LocalAccount;
  /** The ERC-20 token contract (Base USDC in production). */
  token: Address;
  /** The receiving address. */
  recipient: Address;
  /** Atomic amount to transfer (0.01 USDC = `10_000n`). */
  amountAtomic: bigint;
  /**
   * Gas limit. When set, viem skips `eth_estimateGas` (which would refuse a transfer that
   * reverts), so tests can land a reverted transaction. Default: estimated.
   */
  gas?: bigint;
  /** Blocks to wait for, counting the one that includes the transaction. Default 1. */
  confirmations?: number;
  /** Give up waiting for the receipt after this many milliseconds. Default 60 000. */
  timeoutMs?: number;
  /** How often to poll the node. Default viem's for Base (1 s); tests on anvil use ~50 ms. */
  pollingIntervalMs?: number;
}

/** A mined transaction: `failed` when its receipt says it reverted (gas paid, nothing moved). */
export interface BasePaymentResult {
  txHash: Hash;
  failed: boolean;
}

/**
 * Transfer `amountAtomic` of `token` to `recipient` and wait for `confirmations`.
 *
 * @throws {PaymentClientError} `wrong_chain` when the RPC's `eth_chainId` is not 8453 (nothing is
 *   signed or sent); `not_confirmed` with `transaction` set when the receipt does not arrive
 *   within `timeoutMs` or the node fails while waiting (the transaction may still be mined).
 * @throws viem's error when the node refuses the transaction before it is mined (gas estimation
 *   fails because the transfer would revert, insufficient ETH for gas, transport failure).
 */
export async function sendBaseUsdcPayment(options: BasePaymentOptions): Promise<BasePaymentResult> {
  const chain = { ...base, rpcUrls: { default: { http: [options.rpcUrl] } } };
  const transport = http(options.rpcUrl);
  const pollingInterval = options.pollingIntervalMs;
  const publicClient = createPublicClient({ chain, transport, pollingInterval });
  const chainId = await publicClient.getChainId();
  if (chainId !== BASE_CHAIN_ID) {
    throw new PaymentClientError(
      'wrong_chain',
      `Refusing to pay: the RPC at ${options.rpcUrl} serves chain id ${chainId}, not Base (${BASE_CHAIN_ID}).`,
    );
  }
  const wallet = createWalletClient({
    chain,
    transport,
    account: options.account,
    pollingInterval,
  });
  const txHash = await wallet.writeContract({
    address: options.token,
    abi: erc20Abi,
    functionName: 'transfer',
    args: [options.recipient, options.amountAtomic],
    ...(options.gas === undefined ? {} : { gas: options.gas }),
  });
  try {
    const receipt = await publicClient.waitForTransactionReceipt({
      hash: txHash,
      confirmations: options.confirmations ?? 1,
      timeout: options.timeoutMs ?? 60_000,
    });
    return { txHash, failed: receipt.status !== 'success' };
  } catch (error) {
    // The transaction was sent: whatever went wrong while waiting, the caller gets its hash.
    const why =
      error instanceof WaitForTransactionReceiptTimeoutError
        ? `was not confirmed within ${options.timeoutMs ?? 60_000} ms`
        : `could not be confirmed (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`;
    throw new PaymentClientError(
      'not_confirmed',
      `Base transaction ${txHash} ${why}; it may still be mined.`,
      { transaction: txHash, cause: error },
    );
  }
}

/**
 * Sign the nonce message of a Base payment: EIP-191 `personal_sign` of `message` (normally
 * `<prefix>:<nonce>` from the 402 body). The service recovers the signer and requires it to be
 * the account that sent the transfer (spec §4.1 `X-402-Wallet-Sig`).
 *
 * @returns the 65-byte signature as 0x-hex.
 */
export function signNonceMessage(account: LocalAccount, message: string): Promise<Hex> {
  return account.signMessage({ message });
}
