/**
 * Scale-out, payments: three real `linkguard serve` processes over one PostgreSQL database, with
 * real payments on the local chains (Surfpool, anvil). A paid request is served once whichever
 * instance a proof reaches: the claim is decided by the database (a conditional UPDATE of the
 * nonce and the primary key of `payment_claims`), never by one process's memory.
 */
import { type Address, generateKeyPairSigner } from '@solana/kit';
import type { Agent } from 'undici';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  baseProof,
  challengeNonce,
  paySolana,
  paySolanaWithMemos,
  proofHeaders,
  transferBase,
} from '../helpers/http-payments.js';
import { useLocalBase, useLocalSolana } from '../helpers/local-chain-hooks.js';
import { ONE_USDC } from '../helpers/payment-values.js';
import { queryDatabase, usePostgresDatabase } from '../helpers/postgres.js';
import {
  httpAgent,
  type HttpAnswer,
  postDetect,
  roundRobin,
  type ServerInstance,
  startInstances,
  statusCounts,
  useServerInstances,
} from '../helpers/server-instances.js';

const REPLAYS = 1000;
const NONCES_FOR_ONE_TX = 200;
const INSTANCES = 3;
const MEMOS_IN_ONE_TX = 12;
const PRESENTATIONS_PER_NONCE = 20;

const solana = useLocalSolana();
const base = useLocalBase();
const databaseUrl = usePostgresDatabase();
const servers = useServerInstances();

let instances: ServerInstance[];
let agent: Agent;
let solanaRecipient: Address;
let baseRecipient: `0x${string}`;

beforeAll(async () => {
  solanaRecipient = (await generateKeyPairSigner()).address;
  baseRecipient = privateKeyToAccount(generatePrivateKey()).address;
  instances = servers.track(
    await startInstances(INSTANCES, {
      env: {
        DATABASE_URL: databaseUrl(),
        SOLANA_RECIPIENT: solanaRecipient,
        SOLANA_RPC_URL: solana.rpcUrl,
        BASE_RECIPIENT: baseRecipient,
        BASE_RPC_URL: base.rpcUrl,
        // Every request of this file comes from 127.0.0.1, and the per-IP limit (60/min) would
        // refuse most of the replays with 429: raised so that each replay is judged on its
        // payment, which is what these tests are about.
        RATE_LIMIT_PUBLIC_PER_MINUTE: '1000000',
        // Verification of a thousand proofs at once queues at the local RPC: a generous budget,
        // so that a slow answer is not mistaken for an outage (503).
        CHAIN_RPC_TIMEOUT_MS: '20000',
      },
    }),
  );
  agent = httpAgent();
}, 90_000);

afterAll(async () => {
  await agent.close();
});

const on = (i: number): string => roundRobin(instances, i);

/** The nonce of each `payment_claims` row of one transaction. */
async function claimsOf(txId: string): Promise<{ nonce: string }[]> {
  return queryDatabase<{ nonce: string }>(
    databaseUrl(),
    'SELECT nonce FROM payment_claims WHERE tx_id = $1',
    [txId],
  );
}

async function consumedAmong(nonces: readonly string[]): Promise<string[]> {
  const rows = await queryDatabase<{ nonce: string }>(
    databaseUrl(),
    'SELECT nonce FROM payment_nonces WHERE nonce = ANY($1::text[]) AND consumed_at IS NOT NULL',
    [nonces],
  );
  return rows.map((r) => r.nonce);
}

function errorOf(answer: HttpAnswer): { error?: string; reason?: string } {
  return answer.body as { error?: string; reason?: string };
}

/** Every answer but the 200s, grouped as `status error/reason`, for a readable failure. */
function refusals(answers: readonly HttpAnswer[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const answer of answers) {
    if (answer.status === 200) continue;
    const { error, reason } = errorOf(answer);
    const label = `${String(answer.status)} ${String(error)}${reason === undefined ? '' : `/${reason}`}`;
    counts[label] = (counts[label] ?? 0) + 1;
  }
  return counts;
}

describe(`one proof replayed ${String(REPLAYS)} times across ${String(INSTANCES)} instances`, () => {
  it('Solana: exactly one 200, every other answer 409 nonce_already_used, one claim', async () => {
    const url = 'https://example.com/';
    const nonce = await challengeNonce(agent, on(0), url);
    const payer = await solana.newFundedWallet(ONE_USDC);
    const proof = await paySolana(solana, payer, solanaRecipient, nonce);

    const answers = await Promise.all(
      Array.from({ length: REPLAYS }, (_, i) =>
        postDetect(agent, on(i), url, proofHeaders(proof, i)),
      ),
    );

    expect(statusCounts(answers), JSON.stringify(refusals(answers))).toEqual({
      200: 1,
      409: REPLAYS - 1,
    });
    for (const answer of answers.filter((a) => a.status === 409)) {
      expect(errorOf(answer).error).toBe('nonce_already_used');
    }
    expect(await claimsOf(proof.txSignature)).toEqual([{ nonce }]);
    expect(await consumedAmong([nonce])).toEqual([nonce]);
  });

  it('Base: exactly one 200, every other answer 409 nonce_already_used, one claim', async () => {
    const url = 'https://example.org/';
    const nonce = await challengeNonce(agent, on(1), url);
    const payer = await base.newFundedAccount(ONE_USDC);
    const txHash = await transferBase(base, payer, baseRecipient);
    const proof = await baseProof(payer, txHash, nonce);

    const answers = await Promise.all(
      Array.from({ length: REPLAYS }, (_, i) =>
        postDetect(agent, on(i), url, proofHeaders(proof, i)),
      ),
    );

    expect(statusCounts(answers), JSON.stringify(refusals(answers))).toEqual({
      200: 1,
      409: REPLAYS - 1,
    });
    for (const answer of answers.filter((a) => a.status === 409)) {
      expect(errorOf(answer).error).toBe('nonce_already_used');
    }
    expect(await claimsOf(txHash)).toEqual([{ nonce }]);
  });
});

describe('one transaction presented under many nonces across the instances', () => {
  it(`Solana: one tx carrying the memos of ${String(MEMOS_IN_ONE_TX)} nonces, each presented ${String(PRESENTATIONS_PER_NONCE)} times → one 200, one claim`, async () => {
    // The verifier accepts any memo of the transaction, so a transaction with several
    // `linkguard:<nonce>` memos verifies for each of those nonces; only the claim row (primary key
    // chain + signature) keeps it to one request. As many memos as fit in one transaction.
    const url = 'https://example.edu/';
    const nonces = await Promise.all(
      Array.from({ length: MEMOS_IN_ONE_TX }, (_, i) => challengeNonce(agent, on(i), url)),
    );
    const payer = await solana.newFundedWallet(ONE_USDC);
    const signature = await paySolanaWithMemos(solana, payer, solanaRecipient, nonces);

    const answers = await Promise.all(
      Array.from({ length: MEMOS_IN_ONE_TX * PRESENTATIONS_PER_NONCE }, (_, i) => {
        const nonce = nonces[i % MEMOS_IN_ONE_TX] ?? '';
        const proof = { chain: 'solana' as const, txSignature: signature, nonce };
        return postDetect(agent, on(i + 2), url, proofHeaders(proof, i));
      }),
    );

    // The winner's nonce presented again is a replay (409); every other nonce lost the
    // transaction (402 with a fresh nonce to pay again).
    expect(refusals(answers), JSON.stringify(statusCounts(answers))).toEqual({
      '409 nonce_already_used': PRESENTATIONS_PER_NONCE - 1,
      '402 payment_invalid/tx_already_claimed': (MEMOS_IN_ONE_TX - 1) * PRESENTATIONS_PER_NONCE,
    });
    expect(statusCounts(answers)[200]).toBe(1);
    const winner = nonces[answers.findIndex((a) => a.status === 200) % MEMOS_IN_ONE_TX];
    expect(await claimsOf(signature)).toEqual([{ nonce: winner }]);
    expect(await consumedAmong(nonces)).toEqual([winner]);
  });

  it(`Base: one tx signed for ${String(NONCES_FOR_ONE_TX)} nonces → one 200, the rest 402 tx_already_claimed, one claim`, async () => {
    // On Base the nonce is bound by the payer's signature, not by the transaction: the payer can
    // sign any number of nonces for one transfer, so only the claim row keeps it to one request.
    const url = 'https://example.net/';
    const nonces = await Promise.all(
      Array.from({ length: NONCES_FOR_ONE_TX }, (_, i) => challengeNonce(agent, on(i), url)),
    );
    const payer = await base.newFundedAccount(ONE_USDC);
    const txHash = await transferBase(base, payer, baseRecipient);
    const proofs = await Promise.all(nonces.map((nonce) => baseProof(payer, txHash, nonce)));

    const answers = await Promise.all(
      proofs.map((proof, i) => postDetect(agent, on(i + 1), url, proofHeaders(proof, i))),
    );

    expect(statusCounts(answers), JSON.stringify(refusals(answers))).toEqual({
      200: 1,
      402: NONCES_FOR_ONE_TX - 1,
    });
    for (const answer of answers.filter((a) => a.status === 402)) {
      expect(errorOf(answer)).toMatchObject({
        error: 'payment_invalid',
        reason: 'tx_already_claimed',
      });
    }
    const winner = nonces[answers.findIndex((a) => a.status === 200)];
    expect(await claimsOf(txHash)).toEqual([{ nonce: winner }]);
    // The losers' nonces were not consumed: each can still pay with another transaction.
    expect(await consumedAmong(nonces)).toEqual([winner]);
  });
});
