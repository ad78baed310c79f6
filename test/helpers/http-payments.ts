/**
 * x402 over real HTTP against running instances, with real payments on the local chains: ask an
 * instance for a nonce, pay it on Surfpool or anvil with the project's client, and build the
 * proof headers, as a paying client on the network would.
 */
import {
  type Address,
  appendTransactionMessageInstructions,
  createSolanaRpc,
  createTransactionMessage,
  getBase64EncodedWireTransaction,
  getSignatureFromTransaction,
  type KeyPairSigner,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
} from '@solana/kit';
import { getAddMemoInstruction, LEGACY_MEMO_PROGRAM_ADDRESS_V3 } from '@solana-program/memo';
import {
  findAssociatedTokenPda,
  getCreateAssociatedTokenIdempotentInstruction,
  getTransferCheckedInstruction,
  TOKEN_PROGRAM_ADDRESS,
} from '@solana-program/token';
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
 * One Solana transaction that pays 0.01 USDC once and carries the memo of every nonce in
 * `nonces` (one memo instruction each, what a payer trying to buy several verdicts with one
 * payment would send; the verifier accepts any memo of the transaction). Waits until it is
 * `confirmed`. @returns its signature.
 */
export async function paySolanaWithMemos(
  chain: LocalSolana,
  payer: KeyPairSigner,
  recipient: Address,
  nonces: readonly string[],
): Promise<string> {
  const rpc = createSolanaRpc(chain.rpcUrl);
  const mint = chain.usdcMint;
  const [[source], [destination]] = await Promise.all([
    findAssociatedTokenPda({ owner: payer.address, mint, tokenProgram: TOKEN_PROGRAM_ADDRESS }),
    findAssociatedTokenPda({ owner: recipient, mint, tokenProgram: TOKEN_PROGRAM_ADDRESS }),
  ]);
  const { value: blockhash } = await rpc.getLatestBlockhash({ commitment: 'confirmed' }).send();
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayerSigner(payer, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash(blockhash, m),
    (m) =>
      appendTransactionMessageInstructions(
        [
          getCreateAssociatedTokenIdempotentInstruction({
            payer,
            ata: destination,
            owner: recipient,
            mint,
          }),
          getTransferCheckedInstruction({
            source,
            mint,
            destination,
            authority: payer,
            amount: PRICE,
            decimals: 6,
          }),
          ...nonces.map((nonce) =>
            getAddMemoInstruction(
              { memo: boundText(nonce) },
              { programAddress: LEGACY_MEMO_PROGRAM_ADDRESS_V3 },
            ),
          ),
        ],
        m,
      ),
  );
  const signed = await signTransactionMessageWithSigners(message);
  const signature = getSignatureFromTransaction(signed);
  await rpc
    .sendTransaction(getBase64EncodedWireTransaction(signed), {
      encoding: 'base64',
      preflightCommitment: 'confirmed',
    })
    .send();
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const { value } = await rpc.getSignatureStatuses([signature]).send();
    const status = value[0];
    if (status?.confirmationStatus === 'confirmed' || status?.confirmationStatus === 'finalized') {
      if (status.err !== null) throw new Error(`Solana payment ${signature} failed on chain`);
      return signature;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`Solana payment ${signature} was not confirmed within 30 s`);
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
