/**
 * A viem client for a local anvil that answers as Base mainnet, for reading receipts, nonces and
 * block numbers in tests (no retries: a local node either answers or the test should fail).
 */
import { type Chain, createPublicClient, http } from 'viem';
import { base } from 'viem/chains';

/** Base mainnet (chain id 8453) as served by the node at `rpcUrl`. */
export function localBaseChain(rpcUrl: string): Chain {
  return { ...base, rpcUrls: { default: { http: [rpcUrl] } } };
}

export function basePublicClient(rpcUrl: string) {
  return createPublicClient({
    chain: localBaseChain(rpcUrl),
    transport: http(rpcUrl, { retryCount: 0 }),
  });
}
