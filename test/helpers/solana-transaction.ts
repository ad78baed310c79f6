/**
 * Read a landed Solana transaction the way the server's verifier does (jsonParsed, v0 allowed,
 * `confirmed`) and keep what the client tests check: the error, the fee payer and the memos.
 */
import { createSolanaRpc, type Signature } from '@solana/kit';

export interface LandedSolanaTransaction {
  /** `meta.err`: null when the transaction succeeded. */
  err: unknown;
  /** The first account key (base58). */
  feePayer: string;
  /** The spl-memo instructions, in order: the program that ran each and its text. */
  memos: { programId: string; text: unknown }[];
}

interface ParsedInstruction {
  programId: string;
  program?: string;
  parsed?: unknown;
}

/** @throws Error when the node does not know the transaction. */
export async function solanaTransaction(
  rpcUrl: string,
  signature: Signature,
): Promise<LandedSolanaTransaction> {
  const tx = await createSolanaRpc(rpcUrl)
    .getTransaction(signature, {
      encoding: 'jsonParsed',
      commitment: 'confirmed',
      maxSupportedTransactionVersion: 0,
    })
    .send();
  if (tx === null) throw new Error(`transaction ${signature} not found`);
  const instructions = tx.transaction.message.instructions as unknown as ParsedInstruction[];
  return {
    err: tx.meta?.err ?? null,
    feePayer: tx.transaction.message.accountKeys[0]?.pubkey ?? '',
    memos: instructions
      .filter((ix) => ix.program === 'spl-memo')
      .map((ix) => ({ programId: ix.programId, text: ix.parsed })),
  };
}
