/**
 * The paying client (src/client/) against REAL local chains (scripts/local-chains: Surfpool as
 * Solana, anvil as Base): the low-level senders, including the deliberately wrong payments the
 * server's tests need, and the x402 protocol of `createPayingFetch` and `linkguard pay-check`
 * against an in-test HTTP server on 127.0.0.1 that emulates the 402 flow of POST /v1/detect
 * (spec §2.6, §3, §4.1, §5; DESIGN §4.1–4.4). End-to-end tests against the real server live with
 * the server's payment tests.
 */
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import {
  type Address,
  appendTransactionMessageInstructions,
  createKeyPairSignerFromBytes,
  createSolanaRpc,
  createTransactionMessage,
  getBase64EncodedWireTransaction,
  type KeyPairSigner,
  lamports,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  type Signature,
  signTransactionMessageWithSigners,
} from '@solana/kit';
import {
  LEGACY_MEMO_PROGRAM_ADDRESS_V1,
  LEGACY_MEMO_PROGRAM_ADDRESS_V3,
} from '@solana-program/memo';
import { getTransferSolInstruction } from '@solana-program/system';
import { Compile } from 'typebox/compile';
import {
  createPublicClient,
  createWalletClient,
  type Hex,
  http,
  isAddressEqual,
  recoverMessageAddress,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { base } from 'viem/chains';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  type LocalBase,
  type LocalSolana,
  startLocalBase,
  startLocalSolana,
} from '../../scripts/local-chains/index.js';
import {
  createPayingFetch,
  type PayingFetchEvent,
  PaymentClientError,
  type PaymentClientErrorCode,
  readSettlement,
  sendBaseUsdcPayment,
  sendSolanaUsdcPayment,
  signNonceMessage,
} from '../../src/client/index.js';
import { PaymentChallengeSchema } from '../../src/http/schemas/error-schemas.js';
import {
  encodeSettlementResponse,
  type PaymentProof,
  readPaymentProof,
  type ReadProofResult,
} from '../../src/payments/payment-proof.js';
import { type CliResult, jsonOut, runCli } from '../helpers/run-cli.js';

const PRICE = 10_000n;
const PREFIX = 'linkguard';
const ONE_USDC = 1_000_000n;
const VERDICT = {
  verdict: 'danger',
  trust_score: 3,
  brand: 'MetaMask',
  reason: 'emulated verdict',
};

let solana: LocalSolana;
let evm: LocalBase;

beforeAll(async () => {
  [solana, evm] = await Promise.all([startLocalSolana(), startLocalBase()]);
});

afterAll(async () => {
  await Promise.all([solana.stop(), evm.stop()]);
});

// ---------------------------------------------------------------------------------------------
// Chain helpers

/** A fresh random Solana wallet address that owns nothing. */
async function freshSolanaAddress(): Promise<Address> {
  const { generateKeyPairSigner } = await import('@solana/kit');
  return (await generateKeyPairSigner()).address;
}

/** A fresh random EVM address that owns nothing. */
function freshEvmAddress(): Hex {
  return privateKeyToAccount(generatePrivateKey()).address;
}

interface ParsedInstruction {
  programId: string;
  program?: string;
  parsed?: unknown;
}

/** The landed transaction as the verifier reads it (jsonParsed, v0 allowed, confirmed). */
async function solanaTransaction(signature: Signature): Promise<{
  err: unknown;
  feePayer: string;
  memos: { programId: string; text: unknown }[];
}> {
  const rpc = createSolanaRpc(solana.rpcUrl);
  const tx = await rpc
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

function basePublicClient() {
  return createPublicClient({
    chain: { ...base, rpcUrls: { default: { http: [evm.rpcUrl] } } },
    transport: http(evm.rpcUrl, { retryCount: 0 }),
  });
}

async function expectClientError(
  promise: Promise<unknown>,
  code: PaymentClientErrorCode,
): Promise<PaymentClientError> {
  const error: unknown = await promise.then(
    () => new Error('expected a PaymentClientError'),
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(PaymentClientError);
  expect((error as PaymentClientError).code).toBe(code);
  return error as PaymentClientError;
}

// ---------------------------------------------------------------------------------------------
// Low-level senders

describe('sendSolanaUsdcPayment', () => {
  it('moves exactly the amount to the recipient ATA and carries the memo (MemoSq4g… by default)', async () => {
    const payer = await solana.newFundedWallet(ONE_USDC);
    const recipient = await freshSolanaAddress();
    const memo = `${PREFIX}:${randomUUID()}`;
    const result = await sendSolanaUsdcPayment({
      rpcUrl: solana.rpcUrl,
      signer: payer,
      recipient,
      mint: solana.usdcMint,
      amountAtomic: PRICE,
      memo,
    });
    expect(result.failed).toBe(false);
    expect(await solana.tokenBalance(recipient, solana.usdcMint)).toBe(PRICE);
    expect(await solana.tokenBalance(payer.address, solana.usdcMint)).toBe(ONE_USDC - PRICE);
    const tx = await solanaTransaction(result.signature);
    expect(tx.err).toBeNull();
    expect(tx.feePayer).toBe(payer.address);
    expect(tx.memos).toEqual([{ programId: LEGACY_MEMO_PROGRAM_ADDRESS_V3, text: memo }]);
  });

  it('pays again to a recipient whose ATA already exists (the ATA creation is idempotent)', async () => {
    const payer = await solana.newFundedWallet(ONE_USDC);
    const recipient = await freshSolanaAddress();
    for (const nonce of [randomUUID(), randomUUID()]) {
      const { failed } = await sendSolanaUsdcPayment({
        rpcUrl: solana.rpcUrl,
        signer: payer,
        recipient,
        mint: solana.usdcMint,
        amountAtomic: PRICE,
        memo: `${PREFIX}:${nonce}`,
      });
      expect(failed).toBe(false);
    }
    expect(await solana.tokenBalance(recipient, solana.usdcMint)).toBe(2n * PRICE);
  });

  it('lands an overspend with skipPreflight as a failed transaction that still carries its memo', async () => {
    const payer = await solana.newFundedWallet(5_000n);
    const recipient = await freshSolanaAddress();
    const memo = `${PREFIX}:${randomUUID()}`;
    const result = await sendSolanaUsdcPayment({
      rpcUrl: solana.rpcUrl,
      signer: payer,
      recipient,
      mint: solana.usdcMint,
      amountAtomic: PRICE,
      memo,
      skipPreflight: true,
    });
    expect(result.failed).toBe(true);
    expect(await solana.tokenBalance(recipient, solana.usdcMint)).toBe(0n);
    expect(await solana.tokenBalance(payer.address, solana.usdcMint)).toBe(5_000n);
    const tx = await solanaTransaction(result.signature);
    expect(tx.err).not.toBeNull();
    expect(tx.memos.map((m) => m.text)).toEqual([memo]);
  });

  it('refuses the same overspend before landing when preflight runs (nothing paid)', async () => {
    const payer = await solana.newFundedWallet(5_000n);
    const recipient = await freshSolanaAddress();
    await expect(
      sendSolanaUsdcPayment({
        rpcUrl: solana.rpcUrl,
        signer: payer,
        recipient,
        mint: solana.usdcMint,
        amountAtomic: PRICE,
        memo: `${PREFIX}:${randomUUID()}`,
      }),
    ).rejects.toThrow();
    expect(await solana.tokenBalance(payer.address, solana.usdcMint)).toBe(5_000n);
  });

  it('sends the memo with the v1 memo program, or no memo at all, and pays in another mint', async () => {
    const payer = await solana.newFundedWallet(ONE_USDC);
    const recipient = await freshSolanaAddress();
    const memo = `${PREFIX}:${randomUUID()}`;
    const v1 = await sendSolanaUsdcPayment({
      rpcUrl: solana.rpcUrl,
      signer: payer,
      recipient,
      mint: solana.usdcMint,
      amountAtomic: PRICE,
      memo,
      memoProgram: LEGACY_MEMO_PROGRAM_ADDRESS_V1,
    });
    expect(v1.failed).toBe(false);
    expect((await solanaTransaction(v1.signature)).memos).toEqual([
      { programId: LEGACY_MEMO_PROGRAM_ADDRESS_V1, text: memo },
    ]);

    const otherMint = await solana.createMint();
    await solana.fundToken(payer.address, otherMint, ONE_USDC);
    const noMemo = await sendSolanaUsdcPayment({
      rpcUrl: solana.rpcUrl,
      signer: payer,
      recipient,
      mint: otherMint,
      amountAtomic: 9_999n,
      memo: null,
    });
    expect(noMemo.failed).toBe(false);
    expect((await solanaTransaction(noMemo.signature)).memos).toEqual([]);
    expect(await solana.tokenBalance(recipient, otherMint)).toBe(9_999n);
    expect(await solana.tokenBalance(recipient, solana.usdcMint)).toBe(PRICE);
  });
  it('names the sent transaction when the commitment is not reached in time', async () => {
    const payer = await solana.newFundedWallet(ONE_USDC);
    const recipient = await freshSolanaAddress();
    // Surfpool finalizes about 2 s after confirming (payments guide §3.1).
    const error = await expectClientError(
      sendSolanaUsdcPayment({
        rpcUrl: solana.rpcUrl,
        signer: payer,
        recipient,
        mint: solana.usdcMint,
        amountAtomic: PRICE,
        memo: `${PREFIX}:${randomUUID()}`,
        commitment: 'finalized',
        timeoutMs: 200,
      }),
      'not_confirmed',
    );
    expect(error.transaction).toMatch(/^[1-9A-HJ-NP-Za-km-z]{64,88}$/);
    // It landed all the same: the error is about waiting, not about paying.
    await expect.poll(() => solana.tokenBalance(recipient, solana.usdcMint)).toBe(PRICE);
  });
});

describe('sendBaseUsdcPayment and signNonceMessage', () => {
  it('moves exactly the amount to the recipient', async () => {
    const account = await evm.newFundedAccount(ONE_USDC);
    const recipient = freshEvmAddress();
    const result = await sendBaseUsdcPayment({
      rpcUrl: evm.rpcUrl,
      account,
      token: evm.usdc,
      recipient,
      amountAtomic: PRICE,
      pollingIntervalMs: 50,
    });
    expect(result.failed).toBe(false);
    expect(result.txHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await evm.balanceOf(evm.usdc, recipient)).toBe(PRICE);
    expect(await evm.balanceOf(evm.usdc, account.address)).toBe(ONE_USDC - PRICE);
    const receipt = await basePublicClient().getTransactionReceipt({ hash: result.txHash });
    expect(receipt.status).toBe('success');
    expect(isAddressEqual(receipt.from, account.address)).toBe(true);
  });

  it('waits for the asked confirmations', async () => {
    const account = await evm.newFundedAccount(ONE_USDC);
    const payment = sendBaseUsdcPayment({
      rpcUrl: evm.rpcUrl,
      account,
      token: evm.usdc,
      recipient: freshEvmAddress(),
      amountAtomic: PRICE,
      confirmations: 3,
      pollingIntervalMs: 50,
    });
    let settled = false;
    void payment.then(() => (settled = true));
    // Automine made one block; the payment cannot be done before two more exist.
    await expect.poll(() => evm.balanceOf(evm.usdc, account.address)).toBe(ONE_USDC - PRICE);
    expect(settled).toBe(false);
    await evm.mine(2);
    const { txHash, failed } = await payment;
    expect(failed).toBe(false);
    const client = basePublicClient();
    const receipt = await client.getTransactionReceipt({ hash: txHash });
    expect((await client.getBlockNumber({ cacheTime: 0 })) - receipt.blockNumber + 1n).toBe(3n);
  });

  it('names the sent transaction when the confirmations do not come in time', async () => {
    const account = await evm.newFundedAccount(ONE_USDC);
    const error = await expectClientError(
      sendBaseUsdcPayment({
        rpcUrl: evm.rpcUrl,
        account,
        token: evm.usdc,
        recipient: freshEvmAddress(),
        amountAtomic: PRICE,
        confirmations: 5,
        timeoutMs: 300,
        pollingIntervalMs: 50,
      }),
      'not_confirmed',
    );
    expect(error.transaction).toMatch(/^0x[0-9a-f]{64}$/);
  });

  it('lands a reverted transfer when the gas is explicit, and reports it as failed', async () => {
    const account = await evm.newFundedAccount(5_000n);
    const recipient = freshEvmAddress();
    const result = await sendBaseUsdcPayment({
      rpcUrl: evm.rpcUrl,
      account,
      token: evm.usdc,
      recipient,
      amountAtomic: PRICE,
      gas: 100_000n,
      pollingIntervalMs: 50,
    });
    expect(result.failed).toBe(true);
    const receipt = await basePublicClient().getTransactionReceipt({ hash: result.txHash });
    expect(receipt.status).toBe('reverted');
    expect(await evm.balanceOf(evm.usdc, recipient)).toBe(0n);
    expect(await evm.balanceOf(evm.usdc, account.address)).toBe(5_000n);
  });

  it('refuses the same overspend before sending when the gas is estimated', async () => {
    const account = await evm.newFundedAccount(5_000n);
    const client = basePublicClient();
    const nonceBefore = await client.getTransactionCount({ address: account.address });
    await expect(
      sendBaseUsdcPayment({
        rpcUrl: evm.rpcUrl,
        account,
        token: evm.usdc,
        recipient: freshEvmAddress(),
        amountAtomic: PRICE,
        pollingIntervalMs: 50,
      }),
    ).rejects.toThrow();
    expect(await client.getTransactionCount({ address: account.address })).toBe(nonceBefore);
  });

  it('signs the nonce message so that it recovers to the paying account (EIP-191)', async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const message = `${PREFIX}:${randomUUID()}`;
    const signature = await signNonceMessage(account, message);
    expect(signature).toMatch(/^0x[0-9a-f]{130}$/);
    expect(await recoverMessageAddress({ message, signature })).toBe(account.address);
    expect(await recoverMessageAddress({ message: `${message}x`, signature })).not.toBe(
      account.address,
    );
  });

  it('refuses to pay when the RPC is not chain 8453, before signing or sending anything', async () => {
    const methods: string[] = [];
    const rpc = await listen(async (request, response) => {
      const call = JSON.parse(await readBody(request)) as { id: number; method: string };
      methods.push(call.method);
      response.setHeader('content-type', 'application/json');
      response.end(
        JSON.stringify(
          call.method === 'eth_chainId'
            ? { jsonrpc: '2.0', id: call.id, result: '0x1' }
            : { jsonrpc: '2.0', id: call.id, error: { code: -32601, message: 'not here' } },
        ),
      );
    });
    try {
      const error = await expectClientError(
        sendBaseUsdcPayment({
          rpcUrl: rpc.url,
          account: privateKeyToAccount(generatePrivateKey()),
          token: evm.usdc,
          recipient: freshEvmAddress(),
          amountAtomic: PRICE,
        }),
        'wrong_chain',
      );
      expect(error.message).toContain('chain id 1');
      expect(methods).toEqual(['eth_chainId']);
    } finally {
      await rpc.close();
    }
  });
});

// ---------------------------------------------------------------------------------------------
// An in-test HTTP server on 127.0.0.1 that answers like POST /v1/detect with x402

type RequestHandler = (request: IncomingMessage, response: ServerResponse) => Promise<void>;

async function listen(handler: RequestHandler): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((request, response) => {
    handler(request, response).catch((error: unknown) => {
      response.statusCode = 500;
      response.end(
        JSON.stringify({ status: 500, error: 'internal_error', message: String(error) }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

interface OfferConfig {
  chain: 'solana' | 'base';
  payTo: string;
  asset: string;
  /** Atomic price in the x402 entry (default "10000"). */
  maxAmountRequired?: string;
}

/** How the emulator answers a request that carries a proof. */
type ProofStep =
  'ok' | 'pending' | 'pending-slow' | 'pending-forever-long' | 'unavailable' | 'invalid';

interface Recorded {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  proof: ReadProofResult;
}

interface Emulator {
  url: string;
  /** `url` + /v1/detect */
  detectUrl: string;
  requests: Recorded[];
  /** Nonces issued, in order. */
  nonces: string[];
  close(): Promise<void>;
}

/** The 402 body, built like src/payments/payment-challenge.ts `issueChallenge`. */
function challengeBody(
  offers: readonly OfferConfig[],
  nonce: string,
  resource: string,
  error: 'payment_required' | 'payment_invalid' = 'payment_required',
  reason?: string,
): Record<string, unknown> {
  const bound = `${PREFIX}:${nonce}`;
  const template = `${PREFIX}:<nonce>`;
  const expires = new Date(Date.now() + 600_000).toISOString();
  const options = offers.map((offer) =>
    offer.chain === 'solana'
      ? {
          amount: '0.01',
          token: 'USDC',
          token_mint: offer.asset,
          chain: 'solana',
          recipient: offer.payTo,
          nonce,
          memo_format: bound,
          expires_at: expires,
        }
      : {
          amount: '0.01',
          token: 'USDC',
          chain: 'base',
          chain_id: 8453,
          token_contract: offer.asset,
          recipient: offer.payTo,
          nonce,
          nonce_binding: 'eip191',
          sign_message: bound,
          expires_at: expires,
        },
  );
  const accepts = offers.map((offer) => ({
    scheme: 'exact',
    network: offer.chain,
    maxAmountRequired: offer.maxAmountRequired ?? PRICE.toString(),
    resource,
    description: 'linkguard URL verdict, 0.01 USDC per request',
    mimeType: 'application/json',
    payTo: offer.payTo,
    maxTimeoutSeconds: 600,
    asset: offer.asset,
    extra:
      offer.chain === 'solana'
        ? { nonce, memo_template: template, memo: bound }
        : { nonce, sign_message_template: template, message: bound },
  }));
  const [primary, ...alternatives] = options;
  return {
    status: 402,
    error,
    ...(reason === undefined ? {} : { reason }),
    message: error === 'payment_required' ? 'Payment required.' : 'Payment did not verify.',
    payment: primary === undefined ? null : { ...primary, alternatives },
    x402Version: 1,
    accepts,
  };
}

/**
 * Check a proof against the local chain the way the server does, in brief: the transaction
 * succeeded and binds the nonce (Solana memo; Base signature recovering to the sender). Returns
 * the payer, or a DESIGN §4.4 reason.
 */
async function verifyOnChain(
  proof: PaymentProof,
): Promise<{ ok: true; payer: string; transaction: string } | { ok: false; reason: string }> {
  const bound = `${PREFIX}:${proof.nonce}`;
  if (proof.chain === 'solana') {
    const tx = await solanaTransaction(proof.txSignature as Signature);
    if (tx.err !== null) return { ok: false, reason: 'tx_failed' };
    if (!tx.memos.some((memo) => memo.text === bound))
      return { ok: false, reason: 'memo_mismatch' };
    return { ok: true, payer: tx.feePayer, transaction: proof.txSignature };
  }
  const client = basePublicClient();
  const receipt = await client.getTransactionReceipt({ hash: proof.txHash });
  if (receipt.status !== 'success') return { ok: false, reason: 'tx_failed' };
  const signer = await recoverMessageAddress({ message: bound, signature: proof.walletSig });
  if (!isAddressEqual(signer, receipt.from)) return { ok: false, reason: 'signer_mismatch' };
  return { ok: true, payer: signer, transaction: proof.txHash };
}

/**
 * Start the emulator. Requests without a proof get a 402 `payment_required` with a fresh nonce;
 * requests with a proof take the next of `steps` (then `ok`): `ok` verifies on chain and answers
 * 200 + X-PAYMENT-RESPONSE; `pending` / `unavailable` answer 402 `payment_pending` / 503 with
 * `Retry-After: 0`; `pending-slow` uses `Retry-After: 1`; `pending-forever-long` uses 3600;
 * `invalid` answers 402 `payment_invalid` with a fresh nonce.
 */
async function startEmulator(
  offers: readonly OfferConfig[],
  options: { steps?: ProofStep[]; shape?: 'both' | 'payment-only' } = {},
): Promise<Emulator> {
  const steps = [...(options.steps ?? [])];
  const requests: Recorded[] = [];
  const nonces: string[] = [];
  const issued = new Set<string>();
  let resource = '';
  const send = (
    response: ServerResponse,
    status: number,
    body: unknown,
    headers: Record<string, string> = {},
  ): void => {
    response.writeHead(status, { 'content-type': 'application/json', ...headers });
    response.end(JSON.stringify(body));
  };
  const challenge = (
    error: 'payment_required' | 'payment_invalid' = 'payment_required',
    reason?: string,
    nonce: string = randomUUID(),
  ): Record<string, unknown> => {
    if (!issued.has(nonce)) {
      issued.add(nonce);
      nonces.push(nonce);
    }
    const body = challengeBody(offers, nonce, resource, error, reason);
    if (options.shape === 'payment-only') delete body.accepts;
    return body;
  };

  const server = await listen(async (request, response) => {
    const body = await readBody(request);
    const proof = readPaymentProof(request.headers);
    requests.push({
      method: request.method ?? '',
      path: request.url ?? '',
      headers: request.headers,
      body,
      proof,
    });
    if (request.method !== 'POST' || request.url !== '/v1/detect') {
      send(response, 404, { status: 404, error: 'not_found', message: 'No such route.' });
      return;
    }
    const url = (JSON.parse(body) as { url?: unknown }).url;
    if (typeof url !== 'string' || url === 'not a url') {
      send(response, 400, { status: 400, error: 'invalid_url', message: 'Not a URL.' });
      return;
    }
    if (proof.kind === 'none') {
      send(response, 402, challenge());
      return;
    }
    if (proof.kind === 'malformed') {
      send(response, 402, challenge('payment_invalid', 'malformed_proof'));
      return;
    }
    if (!issued.has(proof.proof.nonce)) {
      send(response, 402, challenge('payment_invalid', 'nonce_unknown'));
      return;
    }
    const step = steps.shift() ?? 'ok';
    if (step.startsWith('pending')) {
      const retryAfter = step === 'pending' ? '0' : step === 'pending-slow' ? '1' : '3600';
      send(response, 402, challenge('payment_invalid', 'payment_pending', proof.proof.nonce), {
        'retry-after': retryAfter,
      });
      return;
    }
    if (step === 'unavailable') {
      send(
        response,
        503,
        { status: 503, error: 'chain_unavailable', message: 'Chain RPC unavailable.' },
        { 'retry-after': '0' },
      );
      return;
    }
    if (step === 'invalid') {
      send(response, 402, challenge('payment_invalid', 'memo_mismatch'));
      return;
    }
    const verified = await verifyOnChain(proof.proof);
    if (!verified.ok) {
      send(response, 402, challenge('payment_invalid', verified.reason));
      return;
    }
    send(response, 200, VERDICT, {
      'x-payment-response': encodeSettlementResponse({
        success: true,
        transaction: verified.transaction,
        network: proof.proof.chain,
        payer: verified.payer,
      }),
    });
  });
  resource = `${server.url}/v1/detect`;
  return { url: server.url, detectUrl: resource, requests, nonces, close: () => server.close() };
}

function detectInit(url = 'https://metamask-wallet-verify.example/'): RequestInit {
  return {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-request-id': 'client-test' },
    body: JSON.stringify({ url }),
  };
}

/** Run `body` with an emulator that is closed afterwards. */
async function withEmulator<T>(
  offers: readonly OfferConfig[],
  options: Parameters<typeof startEmulator>[1],
  body: (emulator: Emulator) => Promise<T>,
): Promise<T> {
  const emulator = await startEmulator(offers, options);
  try {
    return await body(emulator);
  } finally {
    await emulator.close();
  }
}

const PROOF_HEADERS = [
  'x-payment',
  'x-402-chain',
  'x-402-signature',
  'x-402-nonce',
  'x-402-wallet-sig',
];

function proofHeadersOf(recorded: Recorded): Record<string, string> {
  return Object.fromEntries(
    PROOF_HEADERS.flatMap((name) => {
      const value = recorded.headers[name];
      return typeof value === 'string' ? [[name, value]] : [];
    }),
  );
}

interface SolanaSetup {
  payer: KeyPairSigner;
  recipient: Address;
  offers: OfferConfig[];
}

async function solanaSetup(usdc = ONE_USDC): Promise<SolanaSetup> {
  const payer = await solana.newFundedWallet(usdc);
  const recipient = await freshSolanaAddress();
  return {
    payer,
    recipient,
    offers: [
      { chain: 'solana', payTo: recipient, asset: solana.usdcMint },
      { chain: 'base', payTo: freshEvmAddress(), asset: evm.usdc },
    ],
  };
}

// ---------------------------------------------------------------------------------------------
// createPayingFetch

describe('createPayingFetch', () => {
  it('emulates the server faithfully: its challenge matches the 402 schema of the service', async () => {
    const { offers } = await solanaSetup(0n);
    const body = challengeBody(offers, randomUUID(), 'http://127.0.0.1/v1/detect');
    expect(Compile(PaymentChallengeSchema).Check(body)).toBe(true);
  });

  for (const form of ['x-payment', 'legacy'] as const) {
    it(`pays on Solana and retries the identical request with the ${form} proof`, async () => {
      const { payer, recipient, offers } = await solanaSetup();
      await withEmulator(offers, {}, async (emulator) => {
        const events: PayingFetchEvent[] = [];
        const payingFetch = createPayingFetch({
          chain: 'solana',
          signer: payer,
          rpcUrl: solana.rpcUrl,
          headerForm: form,
          onEvent: (event) => events.push(event),
        });
        const response = await payingFetch(emulator.detectUrl, detectInit());
        expect(response.status).toBe(200);
        expect(await response.json()).toEqual(VERDICT);

        expect(emulator.requests).toHaveLength(2);
        const [first, retry] = emulator.requests as [Recorded, Recorded];
        expect(first.proof).toEqual({ kind: 'none' });
        expect(retry.body).toBe(first.body);
        expect(retry.headers['content-type']).toBe('application/json');
        expect(retry.headers['x-request-id']).toBe('client-test');
        const nonce = emulator.nonces[0];
        expect(retry.proof).toMatchObject({
          kind: 'proof',
          form,
          proof: { chain: 'solana', nonce },
        });
        const sent = Object.keys(proofHeadersOf(retry)).sort();
        expect(sent).toEqual(
          form === 'x-payment' ? ['x-payment'] : ['x-402-chain', 'x-402-nonce', 'x-402-signature'],
        );

        const settlement = readSettlement(response);
        const signature =
          retry.proof.kind === 'proof' && retry.proof.proof.chain === 'solana'
            ? retry.proof.proof.txSignature
            : '';
        expect(settlement).toEqual({
          success: true,
          transaction: signature,
          network: 'solana',
          payer: payer.address,
        });
        expect(await solana.tokenBalance(recipient, solana.usdcMint)).toBe(PRICE);
        expect(await solana.tokenBalance(payer.address, solana.usdcMint)).toBe(ONE_USDC - PRICE);
        expect(events.map((event) => event.type)).toEqual(['challenge', 'paid', 'settled']);
        expect(events[0]).toMatchObject({
          network: 'solana',
          nonce,
          amountAtomic: PRICE,
          payTo: recipient,
        });
        expect(events[1]).toMatchObject({ transaction: signature });
        expect(events[2]).toMatchObject({ status: 200, attempts: 1, settlement });
      });
    });

    it(`pays on Base (transfer + EIP-191 signature) with the ${form} proof`, async () => {
      const account = await evm.newFundedAccount(ONE_USDC);
      const recipient = freshEvmAddress();
      const offers: OfferConfig[] = [
        { chain: 'solana', payTo: await freshSolanaAddress(), asset: solana.usdcMint },
        // The challenge may name the token in lower case: it is the same address.
        { chain: 'base', payTo: recipient, asset: evm.usdc.toLowerCase() },
      ];
      await withEmulator(offers, {}, async (emulator) => {
        const payingFetch = createPayingFetch({
          chain: 'base',
          account,
          rpcUrl: evm.rpcUrl,
          pollingIntervalMs: 50,
          headerForm: form,
        });
        const response = await payingFetch(emulator.detectUrl, detectInit());
        expect(response.status).toBe(200);
        const retry = emulator.requests[1];
        if (retry === undefined) throw new Error('no retry');
        expect(retry.proof).toMatchObject({
          kind: 'proof',
          form,
          proof: { chain: 'base', nonce: emulator.nonces[0] },
        });
        expect(Object.keys(proofHeadersOf(retry)).sort()).toEqual(
          form === 'x-payment'
            ? ['x-payment']
            : ['x-402-chain', 'x-402-nonce', 'x-402-signature', 'x-402-wallet-sig'],
        );
        expect(readSettlement(response)).toMatchObject({ network: 'base', payer: account.address });
        expect(await evm.balanceOf(evm.usdc, recipient)).toBe(PRICE);
        expect(await evm.balanceOf(evm.usdc, account.address)).toBe(ONE_USDC - PRICE);
      });
    });
  }

  it('returns a response other than a 402 challenge untouched, without paying', async () => {
    const { payer, offers } = await solanaSetup();
    await withEmulator(offers, {}, async (emulator) => {
      const events: PayingFetchEvent[] = [];
      const payingFetch = createPayingFetch({
        chain: 'solana',
        signer: payer,
        rpcUrl: solana.rpcUrl,
        onEvent: (event) => events.push(event),
      });
      const response = await payingFetch(emulator.detectUrl, detectInit('not a url'));
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ error: 'invalid_url' });
      expect(emulator.requests).toHaveLength(1);
      expect(events).toEqual([]);
      expect(await solana.tokenBalance(payer.address, solana.usdcMint)).toBe(ONE_USDC);
    });
  });

  it('refuses a 402 that asks more than maxPriceAtomic, without paying', async () => {
    const { payer, offers } = await solanaSetup();
    const expensive = offers.map((offer) => ({ ...offer, maxAmountRequired: '20000' }));
    await withEmulator(expensive, {}, async (emulator) => {
      const payingFetch = createPayingFetch({
        chain: 'solana',
        signer: payer,
        rpcUrl: solana.rpcUrl,
      });
      const error = await expectClientError(
        payingFetch(emulator.detectUrl, detectInit()),
        'price_too_high',
      );
      expect(error.message).toContain('20000');
      expect(emulator.requests).toHaveLength(1);
      expect(await solana.tokenBalance(payer.address, solana.usdcMint)).toBe(ONE_USDC);

      // A higher cap is the caller's choice.
      const generous = createPayingFetch({
        chain: 'solana',
        signer: payer,
        rpcUrl: solana.rpcUrl,
        maxPriceAtomic: 20_000n,
      });
      expect((await generous(emulator.detectUrl, detectInit())).status).toBe(200);
      expect(await solana.tokenBalance(payer.address, solana.usdcMint)).toBe(ONE_USDC - 20_000n);
    });
  });

  it('refuses a chain the service does not offer, naming the offered ones', async () => {
    const { offers } = await solanaSetup(0n);
    const account = await evm.newFundedAccount(ONE_USDC);
    await withEmulator(offers.slice(0, 1), {}, async (emulator) => {
      const payingFetch = createPayingFetch({ chain: 'base', account, rpcUrl: evm.rpcUrl });
      const error = await expectClientError(
        payingFetch(emulator.detectUrl, detectInit()),
        'chain_not_offered',
      );
      expect(error.message).toContain('offers: solana');
      expect(await evm.balanceOf(evm.usdc, account.address)).toBe(ONE_USDC);
    });
  });

  it('refuses to pay in a token other than USDC unless told to accept any asset', async () => {
    const payer = await solana.newFundedWallet(0n);
    const lookalike = await solana.createMint();
    await solana.fundToken(payer.address, lookalike, ONE_USDC);
    const recipient = await freshSolanaAddress();
    await withEmulator(
      [{ chain: 'solana', payTo: recipient, asset: lookalike }],
      {},
      async (emulator) => {
        const strict = createPayingFetch({ chain: 'solana', signer: payer, rpcUrl: solana.rpcUrl });
        await expectClientError(strict(emulator.detectUrl, detectInit()), 'asset_not_accepted');
        expect(await solana.tokenBalance(payer.address, lookalike)).toBe(ONE_USDC);

        const any = createPayingFetch({
          chain: 'solana',
          signer: payer,
          rpcUrl: solana.rpcUrl,
          asset: null,
        });
        expect((await any(emulator.detectUrl, detectInit())).status).toBe(200);
        expect(await solana.tokenBalance(recipient, lookalike)).toBe(PRICE);
      },
    );
  });

  it('re-sends the same proof after payment_pending and 503, and pays once', async () => {
    const { payer, recipient, offers } = await solanaSetup();
    await withEmulator(
      offers,
      { steps: ['pending', 'unavailable', 'pending'] },
      async (emulator) => {
        const events: PayingFetchEvent[] = [];
        const payingFetch = createPayingFetch({
          chain: 'solana',
          signer: payer,
          rpcUrl: solana.rpcUrl,
          onEvent: (event) => events.push(event),
        });
        const response = await payingFetch(emulator.detectUrl, detectInit());
        expect(response.status).toBe(200);
        expect(emulator.requests).toHaveLength(5);
        const proofs = emulator.requests.slice(1).map(proofHeadersOf);
        for (const proof of proofs) expect(proof).toEqual(proofs[0]);
        expect(emulator.nonces).toHaveLength(1);
        expect(events.map((event) => event.type)).toEqual([
          'challenge',
          'paid',
          'retry',
          'retry',
          'retry',
          'settled',
        ]);
        expect(events.filter((event) => event.type === 'retry')).toMatchObject([
          { attempt: 1, status: 402, reason: 'payment_pending', waitMs: 0 },
          { attempt: 2, status: 503, reason: 'chain_unavailable', waitMs: 0 },
          { attempt: 3, status: 402, reason: 'payment_pending', waitMs: 0 },
        ]);
        expect(events.at(-1)).toMatchObject({ type: 'settled', status: 200, attempts: 4 });
        expect(await solana.tokenBalance(recipient, solana.usdcMint)).toBe(PRICE);
        expect(await solana.tokenBalance(payer.address, solana.usdcMint)).toBe(ONE_USDC - PRICE);
      },
    );
  });

  it('honours Retry-After in seconds', async () => {
    const { payer, offers } = await solanaSetup();
    await withEmulator(offers, { steps: ['pending-slow'] }, async (emulator) => {
      const events: PayingFetchEvent[] = [];
      const payingFetch = createPayingFetch({
        chain: 'solana',
        signer: payer,
        rpcUrl: solana.rpcUrl,
        onEvent: (event) => events.push(event),
      });
      expect((await payingFetch(emulator.detectUrl, detectInit())).status).toBe(200);
      expect(events.find((event) => event.type === 'retry')).toMatchObject({ waitMs: 1000 });
    });
  });

  it('caps a long Retry-After at 10 s, and an abort ends the wait', async () => {
    const { payer, offers } = await solanaSetup();
    await withEmulator(offers, { steps: ['pending-forever-long'] }, async (emulator) => {
      const controller = new AbortController();
      const events: PayingFetchEvent[] = [];
      const payingFetch = createPayingFetch({
        chain: 'solana',
        signer: payer,
        rpcUrl: solana.rpcUrl,
        onEvent: (event) => {
          events.push(event);
          if (event.type === 'retry') controller.abort(new Error('caller gave up'));
        },
      });
      await expect(
        payingFetch(emulator.detectUrl, { ...detectInit(), signal: controller.signal }),
      ).rejects.toThrow('caller gave up');
      expect(events.find((event) => event.type === 'retry')).toMatchObject({ waitMs: 10_000 });
      expect(emulator.requests).toHaveLength(2);
    });
  });

  it('stops re-sending after maxRetries and returns the last answer', async () => {
    const { payer, offers } = await solanaSetup();
    await withEmulator(
      offers,
      { steps: ['pending', 'pending', 'pending', 'pending'] },
      async (emulator) => {
        const payingFetch = createPayingFetch({
          chain: 'solana',
          signer: payer,
          rpcUrl: solana.rpcUrl,
          maxRetries: 2,
        });
        const response = await payingFetch(emulator.detectUrl, detectInit());
        expect(response.status).toBe(402);
        expect(await response.json()).toMatchObject({ reason: 'payment_pending' });
        expect(emulator.requests).toHaveLength(4);
      },
    );
  });

  it('returns payment_invalid after paying instead of paying a second time', async () => {
    const { payer, recipient, offers } = await solanaSetup();
    await withEmulator(offers, { steps: ['invalid'] }, async (emulator) => {
      const payingFetch = createPayingFetch({
        chain: 'solana',
        signer: payer,
        rpcUrl: solana.rpcUrl,
      });
      const response = await payingFetch(emulator.detectUrl, detectInit());
      expect(response.status).toBe(402);
      expect(await response.json()).toMatchObject({
        error: 'payment_invalid',
        reason: 'memo_mismatch',
      });
      expect(emulator.requests).toHaveLength(2);
      expect(emulator.nonces).toHaveLength(2);
      expect(await solana.tokenBalance(recipient, solana.usdcMint)).toBe(PRICE);
    });
  });

  it('pays from the spec’s `payment` object when the body has no `accepts` array', async () => {
    const account = await evm.newFundedAccount(ONE_USDC);
    const { offers } = await solanaSetup(0n);
    const recipient = freshEvmAddress();
    const withBase = [
      ...offers.filter((offer) => offer.chain === 'solana'),
      { chain: 'base' as const, payTo: recipient, asset: evm.usdc },
    ];
    await withEmulator(withBase, { shape: 'payment-only' }, async (emulator) => {
      const payingFetch = createPayingFetch({
        chain: 'base',
        account,
        rpcUrl: evm.rpcUrl,
        pollingIntervalMs: 50,
      });
      const response = await payingFetch(emulator.detectUrl, detectInit());
      expect(response.status).toBe(200);
      expect(await evm.balanceOf(evm.usdc, recipient)).toBe(PRICE);
    });
  });

  it('refuses a stream body, which cannot be sent twice, before any request', async () => {
    const { payer } = await solanaSetup(0n);
    const payingFetch = createPayingFetch({
      chain: 'solana',
      signer: payer,
      rpcUrl: solana.rpcUrl,
      fetch: () => Promise.reject(new Error('must not be called')),
    });
    const stream = new ReadableStream({
      start(controller) {
        controller.close();
      },
    });
    await expectClientError(
      payingFetch('http://127.0.0.1:9/v1/detect', { method: 'POST', body: stream }),
      'unsupported_body',
    );
  });
});

// ---------------------------------------------------------------------------------------------
// linkguard pay-check (the real CLI as a child process)

/** A solana-keygen keypair file (64 numbers) for a wallet funded with SOL and USDC. */
async function keypairFile(dir: string, usdc: bigint): Promise<{ path: string; address: Address }> {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const secret = privateKey.export({ format: 'der', type: 'pkcs8' }).subarray(-32);
  const pub = publicKey.export({ format: 'der', type: 'spki' }).subarray(-32);
  const bytes = [...secret, ...pub];
  const signer = await createKeyPairSignerFromBytes(Uint8Array.from(bytes));
  // SOL for fees and the recipient's ATA rent, from a wallet the launcher funded.
  const funder = await solana.newFundedWallet(0n, 2_000_000_000n);
  const rpc = createSolanaRpc(solana.rpcUrl);
  const { value: blockhash } = await rpc.getLatestBlockhash({ commitment: 'confirmed' }).send();
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayerSigner(funder, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash(blockhash, m),
    (m) =>
      appendTransactionMessageInstructions(
        [
          getTransferSolInstruction({
            source: funder,
            destination: signer.address,
            amount: lamports(1_000_000_000n),
          }),
        ],
        m,
      ),
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
    .toBe(lamports(1_000_000_000n));
  await solana.fundToken(signer.address, solana.usdcMint, usdc);
  const path = join(dir, 'payer.json');
  writeFileSync(path, JSON.stringify(bytes));
  return { path, address: signer.address };
}

describe('linkguard pay-check', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'linkguard-pay-check-'));
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  const run = (args: string[], env: Record<string, string> = {}): Promise<CliResult> =>
    runCli(['pay-check', ...args], env);

  it('pays on Solana and prints the verdict, the transaction and the timings (--json)', async () => {
    const { path, address } = await keypairFile(dir, ONE_USDC);
    const recipient = await freshSolanaAddress();
    await withEmulator(
      [{ chain: 'solana', payTo: recipient, asset: solana.usdcMint }],
      {},
      async (emulator) => {
        const result = await run([
          'https://metamask-wallet-verify.example/',
          '--chain',
          'solana',
          '--service',
          `${emulator.url}/`,
          '--rpc-url',
          solana.rpcUrl,
          '--keypair',
          path,
          '--legacy-headers',
          '--json',
        ]);
        expect(result.stderr).toBe('');
        expect(result.code).toBe(0);
        const out = jsonOut(result) as Record<string, unknown>;
        expect(out).toMatchObject({
          ...VERDICT,
          payment: { network: 'solana', payer: address },
          timings: {
            challenge_ms: expect.any(Number) as number,
            payment_ms: expect.any(Number) as number,
            response_ms: expect.any(Number) as number,
            total_ms: expect.any(Number) as number,
          },
        });
        expect(emulator.requests.map((r) => r.path)).toEqual(['/v1/detect', '/v1/detect']);
        expect(emulator.requests[1]?.proof).toMatchObject({ kind: 'proof', form: 'legacy' });
        expect(await solana.tokenBalance(recipient, solana.usdcMint)).toBe(PRICE);
      },
    );
  });

  it('pays on Base with the key from LINKGUARD_BASE_PRIVATE_KEY and prints a summary', async () => {
    const key = generatePrivateKey();
    const account = privateKeyToAccount(key);
    const funder = await evm.newFundedAccount(0n);
    const chain = { ...base, rpcUrls: { default: { http: [evm.rpcUrl] } } };
    const wallet = createWalletClient({ chain, transport: http(evm.rpcUrl), account: funder });
    const hash = await wallet.sendTransaction({ to: account.address, value: 10n ** 17n });
    await basePublicClient().waitForTransactionReceipt({ hash, pollingInterval: 50 });
    await evm.mint(evm.usdc, account.address, ONE_USDC);
    const recipient = freshEvmAddress();
    await withEmulator(
      [{ chain: 'base', payTo: recipient, asset: evm.usdc }],
      {},
      async (emulator) => {
        const result = await run(
          [
            'https://metamask-wallet-verify.example/',
            '--chain',
            'base',
            '--service',
            emulator.url,
            '--rpc-url',
            evm.rpcUrl,
          ],
          { LINKGUARD_BASE_PRIVATE_KEY: key },
        );
        expect(result.stderr).toBe('');
        expect(result.code).toBe(0);
        expect(result.stdout).toContain('danger');
        expect(result.stdout).toContain('MetaMask');
        expect(result.stdout).toContain(account.address);
        expect(result.stdout).toMatch(
          /challenge \d+ ms · payment \d+ ms · verified response \d+ ms/,
        );
        expect(result.stdout).not.toContain(key.slice(2));
        expect(await evm.balanceOf(evm.usdc, recipient)).toBe(PRICE);
      },
    );
  });

  it('prints the error body and exits 1 when the paid request is refused', async () => {
    const { path } = await keypairFile(dir, ONE_USDC);
    const recipient = await freshSolanaAddress();
    await withEmulator(
      [{ chain: 'solana', payTo: recipient, asset: solana.usdcMint }],
      { steps: ['invalid'] },
      async (emulator) => {
        const result = await run([
          'https://example.com/',
          '--chain',
          'solana',
          '--service',
          emulator.url,
          '--rpc-url',
          solana.rpcUrl,
          '--keypair',
          path,
        ]);
        expect(result.code).toBe(1);
        expect(result.stderr).toContain('HTTP 402 payment_invalid (memo_mismatch)');
        expect(result.stderr).toContain('A payment was made: transaction');
      },
    );
  });

  it('exits 1 without paying when the price is above --max-price', async () => {
    const { path, address } = await keypairFile(dir, ONE_USDC);
    await withEmulator(
      [
        {
          chain: 'solana',
          payTo: await freshSolanaAddress(),
          asset: solana.usdcMint,
          maxAmountRequired: '10001',
        },
      ],
      {},
      async (emulator) => {
        const result = await run([
          'https://example.com/',
          '--chain',
          'solana',
          '--service',
          emulator.url,
          '--rpc-url',
          solana.rpcUrl,
          '--keypair',
          path,
        ]);
        expect(result.code).toBe(1);
        expect(result.stderr).toContain('spending cap');
        expect(await solana.tokenBalance(address, solana.usdcMint)).toBe(ONE_USDC);
      },
    );
  });

  it('rejects a missing, unreadable or malformed key with a usage error (exit 2)', async () => {
    const badFile = join(dir, 'bad.json');
    writeFileSync(badFile, JSON.stringify([1, 2, 3]));
    const common = [
      'https://example.com/',
      '--service',
      'http://127.0.0.1:9',
      '--rpc-url',
      'http://127.0.0.1:9',
    ];
    const env = { LINKGUARD_BASE_PRIVATE_KEY: '' };
    const results = await Promise.all([
      run([...common, '--chain', 'solana'], env),
      run([...common, '--chain', 'solana', '--keypair', join(dir, 'missing.json')], env),
      run([...common, '--chain', 'solana', '--keypair', badFile], env),
      run([...common, '--chain', 'base'], env),
      run([...common, '--chain', 'base', '--private-key', '0x1234'], env),
      run([...common, '--chain', 'base', '--private-key', `0x${'0'.repeat(64)}`], env),
      run([...common, '--chain', 'base', '--max-price', 'lots'], {
        LINKGUARD_BASE_PRIVATE_KEY: generatePrivateKey(),
      }),
    ]);
    const messages = [
      '--keypair FILE',
      'Cannot read --keypair',
      'not a solana-keygen keypair',
      'LINKGUARD_BASE_PRIVATE_KEY',
      '64 hex digits',
      'not a valid secp256k1 key',
      '--max-price',
    ];
    results.forEach((result, i) => {
      expect(result.code, messages[i]).toBe(2);
      expect(result.stderr).toContain(messages[i]);
    });
    // Seven CLI processes (tsx start-up each) share the machine's cores.
  }, 60_000);

  it('says in --help that a key on the command line is visible to other users', async () => {
    const result = await run(['--help']);
    expect(result.code).toBe(0);
    expect(result.stdout.replace(/\s+/g, ' ')).toContain(
      'visible to other local users in the process list',
    );
  });
});
