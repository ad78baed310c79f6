/**
 * @module payments/solana-verifier
 * Verify a Solana USDC payment by its signature (docs/architecture.md, "A paid request"), read-only
 * over JSON-RPC with `@solana/kit`. A payment is good when the transaction succeeded, reached the
 * configured commitment, carries the memo `<prefix>:<nonce>` (under any memo program id, top
 * level or inner instruction), and raised the USDC balance of token accounts owned by the
 * recipient (classic Token program) by at least the price.
 *
 * The two RPC calls (`getTransaction`, `getSignatureStatuses`) run in parallel: verification
 * costs one round trip. The status cross-check matters because some RPCs (Surfpool among them)
 * return a transaction from `getTransaction` before it reaches the requested commitment.
 */
import { createSolanaRpc, getBase58Encoder, type Signature } from '@solana/kit';
import { SUPPORTED_MEMO_PROGRAM_ADDRESSES } from '@solana-program/memo';

import { urlOrigin } from './log-redaction.js';
import type { SolanaProof } from './payment-proof.js';
import {
  type ChainProbe,
  ChainUnavailableError,
  isRpcRequestBug,
  type Verification,
} from './verification.js';

/**
 * Classic SPL Token program: mainnet USDC lives there (not Token-2022, whose program id
 * differs).
 */
export const TOKEN_PROGRAM_ADDRESS = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';

const MEMO_PROGRAMS: ReadonlySet<string> = new Set(SUPPORTED_MEMO_PROGRAM_ADDRESSES);

/** How long a client should wait before retrying a pending Solana payment. */
const PENDING_RETRY_SECONDS = 1;

export interface SolanaVerifierConfig {
  rpcUrl: string;
  /** Recipient wallet (owner of the token accounts, not an ATA), base58. */
  recipient: string;
  /** USDC mint, base58. */
  mint: string;
  /** Minimum received, atomic units. */
  minAmountAtomic: bigint;
  commitment: 'confirmed' | 'finalized';
  /** Budget for both RPC calls together, ms. */
  timeoutMs: number;
  /** Budget of a readiness probe, ms (default `timeoutMs`). */
  probeTimeoutMs?: number;
}

/** The subset of a `jsonParsed` instruction we read (parsed or partially decoded). */
interface ParsedInstruction {
  programId: string;
  parsed?: unknown;
  data?: string;
}

interface TokenBalance {
  accountIndex: number | bigint;
  mint: string;
  owner?: string;
  programId?: string;
  uiTokenAmount: { amount: string };
}

/** The subset of `getTransaction(…, {encoding: 'jsonParsed'})` the verifier reads. */
export interface ParsedTransaction {
  meta: {
    err: unknown;
    preTokenBalances?: readonly TokenBalance[] | null;
    postTokenBalances?: readonly TokenBalance[] | null;
    innerInstructions?: readonly { instructions: readonly ParsedInstruction[] }[] | null;
  } | null;
  transaction: {
    message: {
      accountKeys: readonly { pubkey: string }[];
      instructions: readonly ParsedInstruction[];
    };
  };
}

interface SignatureStatus {
  err: unknown;
  confirmationStatus: 'processed' | 'confirmed' | 'finalized' | null;
}

const RANK = { processed: 0, confirmed: 1, finalized: 2 } as const;

/** Verifies Solana proofs against one RPC endpoint and recipient. */
export interface SolanaVerifier {
  /** Verify one proof; `memo` is the exact text expected (`<prefix>:<nonce>`). */
  verify(proof: SolanaProof, memo: string): Promise<Verification>;
  /** Readiness: does the RPC answer (`getSlot`) within the time budget? */
  probe(): Promise<ChainProbe>;
}

/**
 * Build a verifier bound to one RPC endpoint and recipient.
 *
 * `verify` throws {@link ChainUnavailableError} when the RPC fails, times out or answers
 * 429/5xx; any other RPC error (a malformed request: a bug) is rethrown as is.
 */
export function createSolanaVerifier(config: SolanaVerifierConfig): SolanaVerifier {
  const rpc = createSolanaRpc(config.rpcUrl);
  const origin = urlOrigin(config.rpcUrl);
  const probe = async (): Promise<ChainProbe> => {
    try {
      await rpc
        .getSlot()
        .send({ abortSignal: AbortSignal.timeout(config.probeTimeoutMs ?? config.timeoutMs) });
      return 'ok';
    } catch {
      return 'unavailable';
    }
  };
  const verify = async (proof: SolanaProof, memo: string): Promise<Verification> => {
    const signature = proof.txSignature as Signature;
    const abortSignal = AbortSignal.timeout(config.timeoutMs);
    let transaction: ParsedTransaction | null;
    let status: SignatureStatus | null;
    try {
      const [tx, statuses] = await Promise.all([
        rpc
          .getTransaction(signature, {
            encoding: 'jsonParsed',
            commitment: config.commitment,
            // Without it real RPCs refuse v0 transactions, which wallets send (Solana RPC
            // `getTransaction`, `maxSupportedTransactionVersion`).
            maxSupportedTransactionVersion: 0,
          })
          .send({ abortSignal }),
        rpc.getSignatureStatuses([signature], { searchTransactionHistory: true }).send({
          abortSignal,
        }),
      ]);
      transaction = tx;
      status = statuses.value[0] ?? null;
    } catch (error) {
      if (isRpcRequestBug(error)) throw error;
      throw new ChainUnavailableError(
        'solana',
        origin,
        `The Solana RPC at ${origin} did not answer`,
        {
          cause: error,
        },
      );
    }
    return judgeSolanaTransaction(transaction, status, memo, config);
  };
  return { verify, probe };
}

/**
 * The decision on fetched chain data, separate from the RPC calls so it can be tested on
 * recorded responses too.
 */
export function judgeSolanaTransaction(
  transaction: ParsedTransaction | null,
  status: SignatureStatus | null,
  memo: string,
  config: Pick<SolanaVerifierConfig, 'recipient' | 'mint' | 'minAmountAtomic' | 'commitment'>,
): Verification {
  if (status?.err != null || transaction?.meta?.err != null) {
    return fail('tx_failed', 'The transaction failed on chain; it paid nothing');
  }
  if (transaction === null) {
    return status === null
      ? fail('tx_not_found', 'The Solana RPC does not know this transaction')
      : pending(`The transaction is not yet ${config.commitment}`);
  }
  const level = status?.confirmationStatus ?? null;
  if (transaction.meta === null || level === null || RANK[level] < RANK[config.commitment]) {
    return pending(`The transaction is not yet ${config.commitment}`);
  }
  if (!memosOf(transaction).includes(memo)) {
    return fail('memo_mismatch', `The transaction carries no memo "${memo}"`);
  }
  return judgeTransfer(transaction.meta, config, feePayer(transaction));
}

function judgeTransfer(
  meta: NonNullable<ParsedTransaction['meta']>,
  config: Pick<SolanaVerifierConfig, 'recipient' | 'mint' | 'minAmountAtomic'>,
  payerFallback: string,
): Verification {
  const deltas = balanceDeltas(meta);
  const classic = deltas.filter((d) => d.programId === TOKEN_PROGRAM_ADDRESS);
  const usdc = classic.filter((d) => d.mint === config.mint);
  const received = usdc
    .filter((d) => d.owner === config.recipient)
    .reduce((sum, d) => sum + d.delta, 0n);
  // The payer is the owner whose USDC went down the most; the fee payer when none did.
  const sender = usdc
    .filter((d) => d.delta < 0n)
    .sort((a, b) => (a.delta < b.delta ? -1 : a.delta > b.delta ? 1 : 0))[0]?.owner;

  if (received >= config.minAmountAtomic) {
    return { ok: true, payer: sender ?? payerFallback, amountAtomic: received };
  }
  if (received > 0n) {
    return fail(
      'amount_too_low',
      `The recipient received ${received} atomic USDC; the price is ${config.minAmountAtomic}`,
    );
  }
  if (usdc.some((d) => d.delta > 0n && d.owner !== config.recipient)) {
    return fail('wrong_recipient', 'USDC went to another wallet than the recipient');
  }
  if (deltas.some((d) => d.delta > 0n)) {
    return fail('wrong_token', 'A token other than USDC was transferred');
  }
  return fail('amount_too_low', 'The transaction transferred no USDC to the recipient');
}

interface BalanceDelta {
  owner: string | undefined;
  mint: string;
  programId: string | undefined;
  delta: bigint;
}

/**
 * Net change per token account. A token account created in the transaction (the recipient's
 * first ATA) is absent from `preTokenBalances`: it counts from 0. Amounts are
 * atomic strings read as bigint, never the float `uiAmount` (it loses precision).
 */
function balanceDeltas(meta: NonNullable<ParsedTransaction['meta']>): BalanceDelta[] {
  const byAccount = new Map<string, BalanceDelta>();
  const key = (b: TokenBalance) => `${Number(b.accountIndex)}:${b.mint}`;
  for (const b of meta.postTokenBalances ?? []) {
    byAccount.set(key(b), {
      owner: b.owner,
      mint: b.mint,
      programId: b.programId,
      delta: BigInt(b.uiTokenAmount.amount),
    });
  }
  for (const b of meta.preTokenBalances ?? []) {
    const before = BigInt(b.uiTokenAmount.amount);
    const entry = byAccount.get(key(b));
    if (entry === undefined) {
      // Closed in the transaction: everything it held left it.
      byAccount.set(key(b), {
        owner: b.owner,
        mint: b.mint,
        programId: b.programId,
        delta: -before,
      });
    } else {
      entry.delta -= before;
    }
  }
  return [...byAccount.values()];
}

const base58 = getBase58Encoder();
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Memo texts of every memo instruction, top level and inner. RPCs render known memo programs as
 * `{parsed: "<text>"}`; one that does not know a newer memo program id returns base58 `data`,
 * decoded here.
 */
export function memosOf(transaction: ParsedTransaction): string[] {
  const instructions = [
    ...transaction.transaction.message.instructions,
    ...(transaction.meta?.innerInstructions ?? []).flatMap((inner) => inner.instructions),
  ];
  const memos: string[] = [];
  for (const ix of instructions) {
    if (!MEMO_PROGRAMS.has(ix.programId)) continue;
    if (typeof ix.parsed === 'string') {
      memos.push(ix.parsed);
    } else if (typeof ix.data === 'string') {
      try {
        memos.push(utf8.decode(new Uint8Array(base58.encode(ix.data))));
      } catch {
        // Not base58 or not UTF-8: not a memo we could match.
      }
    }
  }
  return memos;
}

function feePayer(transaction: ParsedTransaction): string {
  return transaction.transaction.message.accountKeys[0]?.pubkey ?? '';
}

function fail(reason: Exclude<Verification, { ok: true }>['reason'], detail: string): Verification {
  return { ok: false, reason, detail };
}

function pending(detail: string): Verification {
  return { ok: false, reason: 'payment_pending', detail, retryAfterSeconds: PENDING_RETRY_SECONDS };
}
