/**
 * x402 over real HTTP against running instances, with real payments on the local chains: ask an
 * instance for a nonce, pay it on Surfpool or anvil with the project's client, and build the
 * proof headers, as a paying client on the network would.
 */
import type { Address, KeyPairSigner } from '@solana/kit';
import type { Agent } from 'undici';
import type { Hex, PrivateKeyAccount } from 'viem';

import type { LocalBase, LocalSolana } from '../../scripts/local-chains/index.js';
import { sendBaseUsdcPayment, signNonceMessage } from '../../src/client/base-payment.js';
import { sendSolanaUsdcPayment } from '../../src/client/solana-payment.js';
import {
  type BaseProof,
  paymentHeaders,
  type ProofForm,
  type SolanaProof,
} from '../../src/payments/payment-proof.js';
import { boundText, PRICE } from './payment-values.js';
import { postDetect } from './server-instances.js';

/** `POST /v1/detect` without proof at `base`; @returns the nonce of the 402. */
export async function challengeNonce(agent: Agent, base: string, url: string): Promise<string> {
  const answer = await postDetect(agent, base, url);
  const nonce = (answer.body as { payment?: { nonce?: unknown } | null }).payment?.nonce;
  if (answer.status !== 402 || typeof nonce !== 'string') {
    throw new Error(`expected a 402 with a nonce, got ${String(answer.status)}`);
  }
  return nonce;
}

/** Pay 0.01 USDC to `recipient` on Surfpool with the memo of `nonce`; @returns the proof. */
export async function paySolana(
  chain: LocalSolana,
  payer: KeyPairSigner,
  recipient: Address,
  nonce: string,
): Promise<SolanaProof> {
  const { signature, failed } = await sendSolanaUsdcPayment({
    rpcUrl: chain.rpcUrl,
    signer: payer,
    recipient,
    mint: chain.usdcMint,
    amountAtomic: PRICE,
    memo: boundText(nonce),
  });
  if (failed) throw new Error(`Solana payment ${signature} failed on chain`);
  return { chain: 'solana', txSignature: signature, nonce };
}

/**
 * Transfer 0.01 USDC to `recipient` on anvil and mine one more block (two confirmations, the
 * default minimum); @returns the transaction hash.
 */
export async function transferBase(
  chain: LocalBase,
  payer: PrivateKeyAccount,
  recipient: Address | Hex,
): Promise<Hex> {
  const { txHash, failed } = await sendBaseUsdcPayment({
    rpcUrl: chain.rpcUrl,
    account: payer,
    token: chain.usdc,
    recipient: recipient as Hex,
    amountAtomic: PRICE,
    pollingIntervalMs: 20,
  });
  if (failed) throw new Error(`Base transfer ${txHash} reverted`);
  await chain.mine(1);
  return txHash;
}

/** The Base proof of `txHash` for `nonce`: the payer signs `linkguard:<nonce>`. */
export async function baseProof(
  payer: PrivateKeyAccount,
  txHash: Hex,
  nonce: string,
): Promise<BaseProof> {
  return {
    chain: 'base',
    txHash,
    walletSig: await signNonceMessage(payer, boundText(nonce)),
    nonce,
  };
}

/** Proof headers, alternating the header form by `i` (both forms reach the same gate). */
export function proofHeaders(
  proof: SolanaProof | BaseProof,
  i = 0,
  form?: ProofForm,
): Record<string, string> {
  return paymentHeaders(proof, form ?? (i % 2 === 0 ? 'x-payment' : 'legacy'));
}
