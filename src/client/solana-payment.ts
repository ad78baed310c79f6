/**
 * @module client/solana-payment
 * Send a Solana USDC payment the way linkguard's x402 flow expects it (spec §4.1, payments guide
 * §3.1): one v0 transaction with the fee payer = the paying wallet, `createAssociatedTokenIdempotent`
 * for the recipient's associated token account (it often does not exist before the first payment),
 * `transferChecked` from the payer's ATA, and a memo `<prefix>:<nonce>`.
 *
 * Every part is an option so tests can also land deliberately wrong payments: another memo text or
 * program, an underpayment, another recipient or mint, no memo at all, or a failing transaction
 * landed with `skipPreflight`.
 */
import {
  type Address,
  appendTransactionMessageInstructions,
  type Commitment,
  createSolanaRpc,
  createTransactionMessage,
  getBase64EncodedWireTransaction,
  getSignatureFromTransaction,
  type Instruction,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  type Signature,
  signTransactionMessageWithSigners,
  type TransactionSigner,
} from '@solana/kit';
import { getAddMemoInstruction, LEGACY_MEMO_PROGRAM_ADDRESS_V3 } from '@solana-program/memo';
import {
  findAssociatedTokenPda,
  getCreateAssociatedTokenIdempotentInstruction,
  getTransferCheckedInstruction,
  TOKEN_PROGRAM_ADDRESS,
} from '@solana-program/token';

import { PaymentClientError } from './payment-client-error.js';

/** What to send. Amounts are atomic units of the mint (USDC: 1 USDC = 1 000 000). */
export interface SolanaPaymentOptions {
  /** JSON-RPC endpoint (http/https). */
  rpcUrl: string;
  /** The paying wallet: fee payer, owner of the source ATA and transfer authority. */
  signer: TransactionSigner;
  /** The recipient **wallet** (owner), never its token account: its ATA is derived and created. */
  recipient: Address;
  /** The token mint (classic SPL Token program). */
  mint: Address;
  /** Atomic amount to transfer (0.01 USDC = `10_000n`). */
  amountAtomic: bigint;
  /** Decimals of the mint, checked on chain by `transferChecked`. Default 6 (USDC). */
  decimals?: number;
  /** Memo text, normally `<prefix>:<nonce>` from the 402 body; `null` sends no memo instruction. */
  memo: string | null;
  /**
   * Memo program. Default `LEGACY_MEMO_PROGRAM_ADDRESS_V3` (`MemoSq4g…`, what wallets and x402
   * use): `@solana-program/memo` 0.15's own default is the v4 program `Memo4c2p…`, which local
   * chains (Surfpool, LiteSVM) do not have (payments guide §6.1.4).
   */
  memoProgram?: Address;
  /** Skip the RPC's simulation, so a transaction that will fail still lands (tests). Default false. */
  skipPreflight?: boolean;
  /** Commitment to wait for before returning. Default `confirmed` (what the verifier requires). */
  commitment?: Commitment;
  /** Give up waiting after this many milliseconds. Default 30 000. */
  timeoutMs?: number;
}

/** A landed transaction: `failed` when it is on chain with an error (fees paid, nothing moved). */
export interface SolanaPaymentResult {
  signature: Signature;
  failed: boolean;
}

const COMMITMENT_RANK: Readonly<Record<Commitment, number>> = {
  processed: 0,
  confirmed: 1,
  finalized: 2,
};
const FIRST_POLL_MS = 100;
const MAX_POLL_MS = 1000;

/**
 * Build, sign, send and confirm a USDC transfer with a memo.
 *
 * @returns the signature and whether the landed transaction failed on chain, once its status has
 *   reached `commitment` (a failed transaction is waited for like a successful one, so a verifier
 *   asked right after sees it).
 * @throws the RPC's error when the transaction is rejected before landing (simulation failure
 *   without `skipPreflight`, bad blockhash, transport failure): nothing was paid.
 * @throws {PaymentClientError} `not_confirmed` with `transaction` set when `timeoutMs` passes
 *   first (RPC failures while polling are retried until then); the transaction may still land
 *   until its blockhash expires (~60–90 s on mainnet).
 */
export async function sendSolanaUsdcPayment(
  options: SolanaPaymentOptions,
): Promise<SolanaPaymentResult> {
  const {
    signer,
    recipient,
    mint,
    commitment = 'confirmed',
    timeoutMs = 30_000,
    memoProgram = LEGACY_MEMO_PROGRAM_ADDRESS_V3,
  } = options;
  const rpc = createSolanaRpc(options.rpcUrl);
  const [[sourceAta], [destinationAta]] = await Promise.all([
    findAssociatedTokenPda({ owner: signer.address, mint, tokenProgram: TOKEN_PROGRAM_ADDRESS }),
    findAssociatedTokenPda({ owner: recipient, mint, tokenProgram: TOKEN_PROGRAM_ADDRESS }),
  ]);
  const instructions: Instruction[] = [
    getCreateAssociatedTokenIdempotentInstruction({
      payer: signer,
      ata: destinationAta,
      owner: recipient,
      mint,
    }),
    getTransferCheckedInstruction({
      source: sourceAta,
      mint,
      destination: destinationAta,
      authority: signer,
      amount: options.amountAtomic,
      decimals: options.decimals ?? 6,
    }),
  ];
  if (options.memo !== null) {
    instructions.push(
      getAddMemoInstruction({ memo: options.memo }, { programAddress: memoProgram }),
    );
  }

  // The blockhash and the simulation use `confirmed` state: funds that arrived a moment ago are
  // visible there, unlike at the RPC's default `finalized`.
  const { value: blockhash } = await rpc.getLatestBlockhash({ commitment: 'confirmed' }).send();
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayerSigner(signer, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash(blockhash, m),
    (m) => appendTransactionMessageInstructions(instructions, m),
  );
  const signed = await signTransactionMessageWithSigners(message);
  const signature = getSignatureFromTransaction(signed);
  await rpc
    .sendTransaction(getBase64EncodedWireTransaction(signed), {
      encoding: 'base64',
      skipPreflight: options.skipPreflight ?? false,
      preflightCommitment: 'confirmed',
    })
    .send();

  // From here on the transaction may be on chain: every way out names its signature.
  const deadline = Date.now() + timeoutMs;
  let wait = FIRST_POLL_MS;
  let lastError: unknown;
  for (;;) {
    try {
      const { value } = await rpc.getSignatureStatuses([signature]).send();
      const status = value[0];
      if (
        status?.confirmationStatus != null &&
        COMMITMENT_RANK[status.confirmationStatus] >= COMMITMENT_RANK[commitment]
      ) {
        return { signature, failed: status.err !== null };
      }
    } catch (error) {
      lastError = error; // a transient RPC failure: keep polling until the deadline
    }
    const left = deadline - Date.now();
    if (left <= 0) {
      throw new PaymentClientError(
        'not_confirmed',
        `Solana transaction ${signature} did not reach "${commitment}" within ${timeoutMs} ms; it may still land.`,
        { transaction: signature, cause: lastError },
      );
    }
    await sleep(Math.min(wait, left));
    wait = Math.min(wait * 2, MAX_POLL_MS);
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
