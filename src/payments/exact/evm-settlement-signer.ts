/**
 * @module payments/exact/evm-settlement-signer
 * The Base account that settles standard x402 `exact` payments (BASE_SETTLEMENT_PRIVATE_KEY): a
 * viem wallet client over BASE_RPC_URL shaped as `@x402/evm`'s `FacilitatorEvmSigner`. It signs
 * and pays the gas of `transferWithAuthorization` calls; the USDC moves from the payer to the
 * recipient, never through this account. The transport is built as `base-verifier.ts` builds
 * its own (viem `http`, no silent retries, the RPC budget as timeout), and every transport
 * failure is reported to the payment's outage scope (`rpc-outage.ts`).
 */
import { type FacilitatorEvmSigner, toFacilitatorEvmSigner } from '@x402/evm';
import { createWalletClient, http, publicActions } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { base } from 'viem/chains';

import { softGetCode, watched } from './rpc-outage.js';

/**
 * How often a settlement polls for its receipt (ms). Base makes a block every 2 s
 * (docs.base.org), so a receipt is usually there at the first or second poll.
 */
const RECEIPT_POLLING_MS = 500;

export interface EvmSettlementSignerOptions {
  /** BASE_SETTLEMENT_PRIVATE_KEY (0x + 64 hex). */
  privateKey: `0x${string}`;
  /** BASE_RPC_URL (must serve chain id 8453). */
  rpcUrl: string;
  /** Budget of one RPC request, ms (CHAIN_RPC_TIMEOUT_MS). */
  timeoutMs: number;
  /** Longest wait for the settlement's receipt, ms. */
  confirmationTimeoutMs: number;
}

/**
 * Build the settlement signer.
 *
 * @returns the signer, and its address (checksummed 0x; the account the operator funds with
 *   ETH for gas).
 */
export function createEvmSettlementSigner(options: EvmSettlementSignerOptions): {
  signer: FacilitatorEvmSigner;
  address: `0x${string}`;
} {
  const account = privateKeyToAccount(options.privateKey);
  const client = createWalletClient({
    account,
    chain: base,
    pollingInterval: RECEIPT_POLLING_MS,
    transport: http(options.rpcUrl, { retryCount: 0, timeout: options.timeoutMs }),
  }).extend(publicActions);
  // The `@x402/evm` signer shape takes loosely typed ABIs and arguments; viem checks them at
  // run time against the ABI it is given.
  type Loose = never;
  const signer = toFacilitatorEvmSigner(
    {
      address: account.address,
      readContract: watched((args) => client.readContract(args as Loose)),
      verifyTypedData: watched((args) => client.verifyTypedData(args as Loose)),
      writeContract: watched((args) => client.writeContract(args as Loose)),
      sendTransaction: watched((args) => client.sendTransaction(args)),
      waitForTransactionReceipt: watched((args) => client.waitForTransactionReceipt(args)),
      getCode: softGetCode((args) => client.getCode(args)),
    },
    { confirmationTimeoutMs: options.confirmationTimeoutMs },
  );
  return { signer, address: account.address };
}
