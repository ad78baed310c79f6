/**
 * An in-test HTTP server on 127.0.0.1 that answers like linkguard's POST /v1/detect with x402
 * (spec §2.6, §3, §4.1, §5; DESIGN §4.1–4.4), for testing the paying client without the real
 * service. It issues challenges shaped like src/payments/payment-challenge.ts, records every
 * request, and checks a presented proof against the real local chain, in brief: the transaction
 * succeeded and binds the nonce (Solana memo; Base signature recovering to the sender).
 */
import { randomUUID } from 'node:crypto';
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';

import type { Signature } from '@solana/kit';
import { isAddressEqual, recoverMessageAddress } from 'viem';

import {
  encodeSettlementResponse,
  type PaymentProof,
  PROOF_HEADER_NAMES,
  readPaymentProof,
  type ReadProofResult,
} from '../../src/payments/payment-proof.js';
import { basePublicClient } from './base-public-client.js';
import { boundText, NONCE_PREFIX, PRICE } from './payment-values.js';
import { solanaTransaction } from './solana-transaction.js';

/** The verdict every paid request gets. */
export const EMULATED_VERDICT = {
  verdict: 'danger',
  trust_score: 3,
  brand: 'MetaMask',
  reason: 'emulated verdict',
};

/** One payment option of the challenge. */
export interface Offer {
  chain: 'solana' | 'base';
  payTo: string;
  asset: string;
  /** Atomic price in the x402 entry (default "10000"). */
  maxAmountRequired?: string;
}

/**
 * How the emulator answers a request that carries a proof: `ok` verifies on chain and answers
 * 200 + X-PAYMENT-RESPONSE; `pending` / `unavailable` answer 402 `payment_pending` / 503 with
 * `Retry-After: 0`; `pending-slow` uses `Retry-After: 1`; `pending-forever-long` uses 3600;
 * `invalid` answers 402 `payment_invalid` (memo_mismatch) with a fresh nonce.
 */
export type ProofStep =
  'ok' | 'pending' | 'pending-slow' | 'pending-forever-long' | 'unavailable' | 'invalid';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  proof: ReadProofResult;
}

export interface EmulatorSetup {
  offers: readonly Offer[];
  /** The local chains proofs are checked against (only `rpcUrl` is read). */
  chains: { solana?: { rpcUrl: string }; base?: { rpcUrl: string } };
  /** Answers to the requests that carry a proof, in order; `ok` once they run out. */
  steps?: ProofStep[];
  /** `payment-only` leaves out the x402 `accepts` array, as the spec's own body has none. */
  shape?: 'both' | 'payment-only';
}

export interface ServiceEmulator {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** `url` + /v1/detect */
  detectUrl: string;
  requests: RecordedRequest[];
  /** Nonces issued, in order. */
  nonces: string[];
  close(): Promise<void>;
}

type ChallengeError = 'payment_required' | 'payment_invalid';

/** The 402 body, built like src/payments/payment-challenge.ts `issueChallenge`. */
export function challengeBody(
  offers: readonly Offer[],
  nonce: string,
  resource: string,
  error: ChallengeError = 'payment_required',
  reason?: string,
): Record<string, unknown> {
  const expires = new Date(Date.now() + 600_000).toISOString();
  const entries = offers.map((offer) => {
    const { option, extra } = chainTerms(offer, nonce);
    return {
      option: { amount: '0.01', token: 'USDC', ...option, expires_at: expires },
      accepts: {
        scheme: 'exact',
        network: offer.chain,
        maxAmountRequired: offer.maxAmountRequired ?? PRICE.toString(),
        resource,
        description: 'linkguard URL verdict, 0.01 USDC per request',
        mimeType: 'application/json',
        payTo: offer.payTo,
        maxTimeoutSeconds: 600,
        asset: offer.asset,
        extra,
      },
    };
  });
  const [primary, ...alternatives] = entries.map((entry) => entry.option);
  return {
    status: 402,
    error,
    ...(reason === undefined ? {} : { reason }),
    message: error === 'payment_required' ? 'Payment required.' : 'Payment did not verify.',
    payment: primary === undefined ? null : { ...primary, alternatives },
    x402Version: 1,
    accepts: entries.map((entry) => entry.accepts),
  };
}

/**
 * What differs between the chains in an offer: the chain's fields of the spec's `payment` option
 * and the x402 `extra` that says how to bind the nonce (Solana memo, Base EIP-191 message).
 */
function chainTerms(
  offer: Offer,
  nonce: string,
): { option: Record<string, unknown>; extra: Record<string, string> } {
  const bound = boundText(nonce);
  const template = `${NONCE_PREFIX}:<nonce>`;
  if (offer.chain === 'solana') {
    return {
      option: {
        token_mint: offer.asset,
        chain: 'solana',
        recipient: offer.payTo,
        nonce,
        memo_format: bound,
      },
      extra: { nonce, memo_template: template, memo: bound },
    };
  }
  return {
    option: {
      chain: 'base',
      chain_id: 8453,
      token_contract: offer.asset,
      recipient: offer.payTo,
      nonce,
      nonce_binding: 'eip191',
      sign_message: bound,
    },
    extra: { nonce, sign_message_template: template, message: bound },
  };
}

/** The init of a POST /v1/detect for `url`, with a request id the retry must keep. */
export function detectInit(url = 'https://metamask-wallet-verify.example/'): RequestInit {
  return {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-request-id': 'client-test' },
    body: JSON.stringify({ url }),
  };
}

/** The proof headers (either form) a recorded request carried. */
export function proofHeadersOf(recorded: RecordedRequest): Record<string, string> {
  return Object.fromEntries(
    PROOF_HEADER_NAMES.flatMap((name) => {
      const value = recorded.headers[name];
      return typeof value === 'string' ? [[name, value]] : [];
    }),
  );
}

/** Run `body` with an emulator that is closed afterwards. */
export async function withServiceEmulator<T>(
  setup: EmulatorSetup,
  body: (emulator: ServiceEmulator) => Promise<T>,
): Promise<T> {
  const emulator = await startServiceEmulator(setup);
  try {
    return await body(emulator);
  } finally {
    await emulator.close();
  }
}

/**
 * Start the emulator. Requests without a proof get a 402 `payment_required` with a fresh nonce; a
 * malformed proof or an unknown nonce gets a 402 `payment_invalid`; a proof for an issued nonce
 * takes the next of `setup.steps` (see ProofStep).
 */
export async function startServiceEmulator(setup: EmulatorSetup): Promise<ServiceEmulator> {
  const steps = [...(setup.steps ?? [])];
  const requests: RecordedRequest[] = [];
  const nonces: string[] = [];
  const issued = new Set<string>();
  let resource = '';
  const challenge = (
    error: ChallengeError = 'payment_required',
    reason?: string,
    nonce: string = randomUUID(),
  ): Record<string, unknown> => {
    if (!issued.has(nonce)) {
      issued.add(nonce);
      nonces.push(nonce);
    }
    const body = challengeBody(setup.offers, nonce, resource, error, reason);
    if (setup.shape === 'payment-only') delete body.accepts;
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
    const verified = await verifyOnChain(proof.proof, setup.chains);
    if (!verified.ok) {
      send(response, 402, challenge('payment_invalid', verified.reason));
      return;
    }
    send(response, 200, EMULATED_VERDICT, {
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

/**
 * Check a proof against the local chain the way the server does, in brief. Returns the payer, or
 * a DESIGN §4.4 reason.
 */
async function verifyOnChain(
  proof: PaymentProof,
  chains: EmulatorSetup['chains'],
): Promise<{ ok: true; payer: string; transaction: string } | { ok: false; reason: string }> {
  const bound = boundText(proof.nonce);
  const rpcUrl = chains[proof.chain]?.rpcUrl;
  if (rpcUrl === undefined) throw new Error(`the emulator was given no ${proof.chain} chain`);
  if (proof.chain === 'solana') {
    const tx = await solanaTransaction(rpcUrl, proof.txSignature as Signature);
    if (tx.err !== null) return { ok: false, reason: 'tx_failed' };
    if (!tx.memos.some((memo) => memo.text === bound))
      return { ok: false, reason: 'memo_mismatch' };
    return { ok: true, payer: tx.feePayer, transaction: proof.txSignature };
  }
  const receipt = await basePublicClient(rpcUrl).getTransactionReceipt({ hash: proof.txHash });
  if (receipt.status !== 'success') return { ok: false, reason: 'tx_failed' };
  const signer = await recoverMessageAddress({ message: bound, signature: proof.walletSig });
  if (!isAddressEqual(signer, receipt.from)) return { ok: false, reason: 'signer_mismatch' };
  return { ok: true, payer: signer, transaction: proof.txHash };
}

function send(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
}

type RequestHandler = (request: IncomingMessage, response: ServerResponse) => Promise<void>;

/** Serve `handler` on 127.0.0.1:<random port>; a handler that throws answers 500. */
async function listen(handler: RequestHandler): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((request, response) => {
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
