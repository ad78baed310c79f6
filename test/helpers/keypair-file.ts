/**
 * A solana-keygen keypair file (a JSON array of 64 numbers: secret key then public key) for a
 * fresh wallet funded on Surfpool, for `linkguard pay-check --keypair`. The wallet is made here
 * rather than by `newFundedWallet` because the file needs its secret bytes.
 */
import { generateKeyPairSync } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import {
  type Address,
  appendTransactionMessageInstructions,
  createKeyPairSignerFromBytes,
  createSolanaRpc,
  createTransactionMessage,
  getBase64EncodedWireTransaction,
  lamports,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
} from '@solana/kit';
import { getTransferSolInstruction } from '@solana-program/system';
import { expect } from 'vitest';

import type { LocalSolana } from '../../scripts/local-chains/index.js';

/** SOL for fees and the recipient's ATA rent. */
const WALLET_LAMPORTS = lamports(1_000_000_000n);

/**
 * Write `dir`/payer.json for a new wallet with 1 SOL and `usdc` atomic USDC on `solana`;
 * returns the file's path and the wallet's address.
 */
export async function keypairFile(
  solana: LocalSolana,
  dir: string,
  usdc: bigint,
): Promise<{ path: string; address: Address }> {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const secret = privateKey.export({ format: 'der', type: 'pkcs8' }).subarray(-32);
  const pub = publicKey.export({ format: 'der', type: 'spki' }).subarray(-32);
  const bytes = [...secret, ...pub];
  const signer = await createKeyPairSignerFromBytes(Uint8Array.from(bytes));
  // The SOL comes from a wallet the launcher funded.
  const funder = await solana.newFundedWallet(0n, 2_000_000_000n);
  const rpc = createSolanaRpc(solana.rpcUrl);
  const { value: blockhash } = await rpc.getLatestBlockhash({ commitment: 'confirmed' }).send();
  const transfer = getTransferSolInstruction({
    source: funder,
    destination: signer.address,
    amount: WALLET_LAMPORTS,
  });
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayerSigner(funder, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash(blockhash, m),
    (m) => appendTransactionMessageInstructions([transfer], m),
  );
  const signed = await signTransactionMessageWithSigners(message);
  await rpc
    .sendTransaction(getBase64EncodedWireTransaction(signed), {
      encoding: 'base64',
      preflightCommitment: 'confirmed',
    })
    .send();
  await expect
    .poll(() =>
      rpc
        .getBalance(signer.address, { commitment: 'confirmed' })
        .send()
        .then((r) => r.value),
    )
    .toBe(WALLET_LAMPORTS);
  await solana.fundToken(signer.address, solana.usdcMint, usdc);
  const path = join(dir, 'payer.json');
  writeFileSync(path, JSON.stringify(bytes));
  return { path, address: signer.address };
}
