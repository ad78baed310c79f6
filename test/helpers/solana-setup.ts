/**
 * The usual Solana side of a paying-fetch test: a wallet funded with SOL and USDC on Surfpool, a
 * fresh recipient, the offers of a service that takes Solana (and Base, to a recipient nobody
 * watches), and a paying fetch for that wallet that records its events.
 */
import type { Address, KeyPairSigner } from '@solana/kit';

import type { LocalSolana } from '../../scripts/local-chains/index.js';
import {
  createPayingFetch,
  type PayingFetch,
  type PayingFetchEvent,
  type PayingFetchOptions,
} from '../../src/client/index.js';
import { BASE_MAINNET_USDC_CONTRACT } from '../../src/config/config.js';
import { freshEvmAddress, freshSolanaAddress } from './fresh-addresses.js';
import { ONE_USDC } from './payment-values.js';
import type { Offer } from './service-emulator.js';

export interface SolanaSetup {
  payer: KeyPairSigner;
  recipient: Address;
  /** Solana (USDC to `recipient`) first, then Base (USDC to a fresh address). */
  offers: Offer[];
}

/** A payer with `usdc` atomic USDC (default 1 USDC) and the offers of a service paid on Solana. */
export async function solanaSetup(solana: LocalSolana, usdc = ONE_USDC): Promise<SolanaSetup> {
  const payer = await solana.newFundedWallet(usdc);
  const recipient = await freshSolanaAddress();
  return {
    payer,
    recipient,
    offers: [
      { chain: 'solana', payTo: recipient, asset: solana.usdcMint },
      // The address anvil plants its test USDC at: the offer is the same with or without anvil.
      { chain: 'base', payTo: freshEvmAddress(), asset: BASE_MAINNET_USDC_CONTRACT },
    ],
  };
}

/** Options of a Solana paying fetch other than the wallet and the RPC. */
export type SolanaFetchOptions = Omit<
  Extract<PayingFetchOptions, { chain: 'solana' }>,
  'chain' | 'signer' | 'rpcUrl'
>;

/**
 * `createPayingFetch` paying on `solana` from `signer`, with `events` recording every event
 * before `options.onEvent` (if any) sees it.
 */
export function solanaPayingFetch(
  solana: LocalSolana,
  signer: KeyPairSigner,
  options: SolanaFetchOptions = {},
): { payingFetch: PayingFetch; events: PayingFetchEvent[] } {
  const events: PayingFetchEvent[] = [];
  const payingFetch = createPayingFetch({
    ...options,
    chain: 'solana',
    signer,
    rpcUrl: solana.rpcUrl,
    onEvent: (event) => {
      events.push(event);
      options.onEvent?.(event);
    },
  });
  return { payingFetch, events };
}
