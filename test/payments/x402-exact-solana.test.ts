/**
 * Standard x402 `exact` payments on Solana (README, "Paying per request (x402)"; docs/decisions.md,
 * decisions 151–156 and 164–165): the unmodified official clients — `x402-fetch` 1.2.0 (protocol
 * v1) and `@x402/fetch` + `@x402/svm` 2.27.0 (protocol v2) — pay the service listening on
 * loopback with a partially signed USDC transfer, which the service completes and sends itself as
 * fee payer (SOLANA_FEE_PAYER_KEYPAIR, a solana-keygen file) on a real local chain (Surfpool, a
 * real SPL mint at the mainnet USDC address), then claims in its store. Negative cases: wrong
 * amount, wrong recipient, an expired blockhash, replay (409), RPC outage (503, nothing consumed,
 * the same payment works afterwards).
 */
import type { AddressInfo } from 'node:net';

import {
  type Address,
  createSolanaRpc,
  generateKeyPairSigner,
  type KeyPairSigner,
} from '@solana/kit';
import { x402Client as x402CoreClient } from '@x402/core/client';
import {
  decodePaymentRequiredHeader,
  decodePaymentResponseHeader,
  encodePaymentSignatureHeader,
} from '@x402/core/http';
import type { PaymentRequirements } from '@x402/core/types';
import { wrapFetchWithPayment as wrapFetchV2, x402Client } from '@x402/fetch';
import { ExactSvmScheme } from '@x402/svm/exact/client';
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createPaymentHeader } from 'x402/client';
import type { PaymentRequirements as PaymentRequirementsV1 } from 'x402/types';
import { decodeXPaymentResponse, wrapFetchWithPayment as wrapFetchV1 } from 'x402-fetch';

import {
  type LocalSolana,
  type RpcProxy,
  startLocalSolana,
  startRpcProxy,
} from '../../scripts/local-chains/index.js';
import {
  SOLANA_NETWORK_V1,
  SOLANA_NETWORK_V2,
} from '../../src/payments/exact/exact-facilitator.js';
import { keypairFile } from '../helpers/keypair-file.js';
import { testClock, type TestContext, useTestApp } from '../helpers/test-app.js';
import { useTempDir } from '../helpers/use-temp-dir.js';

/**
 * The platform fetch, for requests to the service on loopback: the official clients wrap a
 * fetch, and the SSRF-safe client of src/net is for the service's own outbound requests.
 */
const loopbackFetch: typeof fetch = globalThis.fetch;

const PRICE = 10_000n;
const PAYER_USDC = 1_000_000n;
const BODY = JSON.stringify({ url: 'https://example.com/' });

let chain: LocalSolana;
let proxy: RpcProxy;
beforeAll(async () => {
  chain = await startLocalSolana();
  proxy = await startRpcProxy(chain.rpcUrl);
});
afterAll(async () => {
  await proxy.close();
  await chain.stop();
});
afterEach(() => {
  proxy.setMode('up');
});

const startApp = useTestApp();
const tempDir = useTempDir('x402-exact-solana-');

let feePayerFile: Promise<{ path: string; address: Address }> | undefined;
/**
 * The fee payer as an operator gives it: a solana-keygen file with SOL for fees and no USDC.
 * Made once, by the first test (`keypairFile` polls with `expect.poll`, which runs only in a test).
 */
function feePayer(): Promise<{ path: string; address: Address }> {
  feePayerFile ??= keypairFile(chain, tempDir(), 0n);
  return feePayerFile;
}

interface Setup {
  context: TestContext;
  url: string;
  recipient: Address;
  payer: KeyPairSigner;
  feePayer: Address;
}

/**
 * The service on 127.0.0.1 offering Solana only, reaching Surfpool through the proxy and
 * settling as fee payer; a fresh recipient whose USDC account exists (the `exact` clients
 * transfer to the recipient's associated token account and do not create it) and a payer with
 * 1 USDC.
 */
async function setup(): Promise<Setup> {
  const file = await feePayer();
  const recipient = (await generateKeyPairSigner()).address;
  await chain.fundToken(recipient, chain.usdcMint, 0n);
  const context = await startApp({
    clock: testClock(Date.now()),
    env: {
      SOLANA_RECIPIENT: recipient,
      SOLANA_RPC_URL: proxy.url,
      SOLANA_FEE_PAYER_KEYPAIR: file.path,
    },
  });
  await context.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = context.app.server.address() as AddressInfo;
  const payer = await chain.newFundedWallet(PAYER_USDC);
  return {
    context,
    url: `http://127.0.0.1:${port}/v1/detect`,
    recipient,
    payer,
    feePayer: file.address,
  };
}

function post(headers: Record<string, string> = {}): RequestInit {
  return {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: BODY,
  };
}

function claimCount(s: Setup): number {
  const db = new Database(s.context.dbPath, { readonly: true });
  try {
    return db.prepare('SELECT count(*) FROM payment_claims').pluck().get() as number;
  } finally {
    db.close();
  }
}

/** The recipient's and the payer's USDC (atomic). */
async function balances(s: Setup): Promise<{ recipient: bigint; payer: bigint }> {
  return {
    recipient: await chain.tokenBalance(s.recipient, chain.usdcMint),
    payer: await chain.tokenBalance(s.payer.address, chain.usdcMint),
  };
}

/** Paid `times` prices: the recipient got them, the payer lost them. */
async function expectPaid(s: Setup, times: bigint): Promise<void> {
  expect(await balances(s)).toEqual({
    recipient: times * PRICE,
    payer: PAYER_USDC - times * PRICE,
  });
}

/** `@x402/svm`'s exact client; its RPC (for the blockhash and the mint) is the chain's own. */
function v2Client(payer: KeyPairSigner): x402Client {
  return new x402Client().register(
    SOLANA_NETWORK_V2,
    new ExactSvmScheme(payer, { rpcUrl: chain.rpcUrl }),
  );
}

/**
 * A fetch for `@x402/fetch` that records every PAYMENT-SIGNATURE / X-PAYMENT it sends, and runs
 * `onPayment` before the paid request leaves.
 */
function recordingFetch(sent: string[], onPayment: () => void = () => undefined): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const header = request.headers.get('payment-signature') ?? request.headers.get('x-payment');
    if (header !== null) {
      sent.push(header);
      onPayment();
    }
    return loopbackFetch(request);
  };
}

/** The v1 402 body's Solana entry, as x402-fetch parses it. */
async function v1Requirements(s: Setup): Promise<PaymentRequirementsV1> {
  const response = await loopbackFetch(s.url, post());
  expect(response.status).toBe(402);
  const body = (await response.json()) as { accepts: PaymentRequirementsV1[] };
  const entry = body.accepts.find((a) => a.network === SOLANA_NETWORK_V1);
  if (entry === undefined) throw new Error('no solana entry');
  return entry;
}

/** An X-PAYMENT made by `x402`'s client (the call x402-fetch makes) for `requirements`. */
function v1Payment(s: Setup, requirements: PaymentRequirementsV1): Promise<string> {
  return createPaymentHeader(s.payer, 1, requirements, { svmConfig: { rpcUrl: chain.rpcUrl } });
}

/** The v2 requirement of a fresh 402 (PAYMENT-REQUIRED), with its challenge nonce. */
async function v2Requirement(s: Setup): Promise<PaymentRequirements> {
  const response = await loopbackFetch(s.url, post());
  expect(response.status).toBe(402);
  const required = decodePaymentRequiredHeader(response.headers.get('payment-required') ?? '');
  const entry = required.accepts.find((a) => a.network === SOLANA_NETWORK_V2);
  if (entry === undefined) throw new Error('no solana v2 requirement');
  return entry;
}

/** A PAYMENT-SIGNATURE made by `@x402/svm`'s client through `x402Client`, as `@x402/fetch` does. */
async function v2Payment(s: Setup, requirement: PaymentRequirements): Promise<string> {
  const client = new x402CoreClient().register(
    SOLANA_NETWORK_V2,
    new ExactSvmScheme(s.payer, { rpcUrl: chain.rpcUrl }),
  );
  const payload = await client.createPaymentPayload({
    x402Version: 2,
    resource: { url: s.url },
    accepts: [requirement],
  });
  return encodePaymentSignatureHeader(payload);
}

async function expectRefused(response: Response, reason: string): Promise<void> {
  const text = await response.text();
  expect(response.status, text).toBe(402);
  expect((JSON.parse(text) as { reason?: string }).reason).toBe(reason);
}

/** Nothing of the payment, the payer or the settlement reaches the logs. */
function expectQuietLogs(s: Setup, secrets: string[]): void {
  const logs = s.context.logs.text();
  for (const secret of [s.payer.address, ...secrets]) expect(logs).not.toContain(secret);
}

describe('protocol v2 (@x402/fetch + @x402/svm)', () => {
  it('offers PAYMENT-REQUIRED with the fee payer and the nonce bound in the memo', async () => {
    const s = await setup();
    const response = await loopbackFetch(s.url, post());
    expect(response.status).toBe(402);
    const body = (await response.json()) as { payment: { nonce: string } };
    const required = decodePaymentRequiredHeader(response.headers.get('payment-required') ?? '');
    expect(required).toMatchObject({
      x402Version: 2,
      accepts: [
        {
          scheme: 'exact',
          network: SOLANA_NETWORK_V2,
          amount: PRICE.toString(),
          asset: chain.usdcMint,
          payTo: s.recipient,
          maxTimeoutSeconds: 600,
          extra: {
            feePayer: s.feePayer,
            nonce: body.payment.nonce,
            memo: `linkguard:${body.payment.nonce}`,
          },
        },
      ],
    });
  });

  it('pays with the unmodified client, answered with PAYMENT-RESPONSE; a replay is 409', async () => {
    const s = await setup();
    const sent: string[] = [];
    const response = await wrapFetchV2(recordingFetch(sent), v2Client(s.payer))(s.url, post());
    expect(response.status, await response.clone().text()).toBe(200);
    expect(await response.json()).toMatchObject({ verdict: 'safe' });
    const settlement = decodePaymentResponseHeader(response.headers.get('payment-response') ?? '');
    expect(settlement).toMatchObject({
      success: true,
      network: SOLANA_NETWORK_V2,
      payer: s.payer.address,
    });
    expect(settlement.transaction).toMatch(/^[1-9A-HJ-NP-Za-km-z]{64,88}$/);
    await expectPaid(s, 1n);
    expect(claimCount(s)).toBe(1);

    // The same PAYMENT-SIGNATURE again: its transaction and challenge nonce are spent.
    expect(sent).toHaveLength(1);
    const replay = await loopbackFetch(s.url, post({ 'payment-signature': sent[0] ?? '' }));
    expect(replay.status).toBe(409);
    expect(((await replay.json()) as { error: string }).error).toBe('nonce_already_used');
    expect(claimCount(s)).toBe(1);
    await expectPaid(s, 1n);
    expect(s.context.logs.text()).toContain('paid request');
    expectQuietLogs(s, [sent[0] ?? '', settlement.transaction]);
  });

  it('refuses a wrong amount and a wrong recipient, charging nothing', async () => {
    const s = await setup();
    const other = (await generateKeyPairSigner()).address;
    await chain.fundToken(other, chain.usdcMint, 0n);
    const cases: [(r: PaymentRequirements) => PaymentRequirements, string][] = [
      [(r) => ({ ...r, amount: (PRICE - 1n).toString() }), 'amount_mismatch'],
      [(r) => ({ ...r, payTo: other }), 'wrong_recipient'],
    ];
    for (const [tamper, reason] of cases) {
      // The client signs what it is given; the header still names the offer it answers.
      const offered = await v2Requirement(s);
      const payment = await v2Payment(s, tamper(offered));
      await expectRefused(
        await loopbackFetch(s.url, post({ 'payment-signature': payment })),
        reason,
      );
    }
    expect(claimCount(s)).toBe(0);
    expect(await balances(s)).toEqual({ recipient: 0n, payer: PAYER_USDC });
    expect(await chain.tokenBalance(other, chain.usdcMint)).toBe(0n);
  });

  it('refuses a transaction whose blockhash expired, charging nothing', async () => {
    const s = await setup();
    const offered = await v2Requirement(s);
    const rpc = createSolanaRpc(chain.rpcUrl);
    const { value } = await rpc.getLatestBlockhash({ commitment: 'confirmed' }).send();
    // The client takes its blockhash from the offer when it names one (`extra.recentBlockhash`,
    // @x402/svm 2.27): this one, then wait until the chain is past its last valid block height.
    const payment = await v2Payment(s, {
      ...offered,
      extra: { ...offered.extra, recentBlockhash: value.blockhash },
    });
    // Surfpool makes a block every few tens of ms: 150 blocks pass well within the bound.
    await expect
      .poll(() => rpc.getBlockHeight({ commitment: 'confirmed' }).send(), {
        timeout: 45_000,
        interval: 250,
      })
      .toBeGreaterThan(value.lastValidBlockHeight);
    // The simulation fails with BlockhashNotFound: the facilitator's code is
    // `invalid_exact_svm_transaction_simulation_failed`, which names no expiry.
    await expectRefused(
      await loopbackFetch(s.url, post({ 'payment-signature': payment })),
      'authorization_invalid',
    );
    expect(claimCount(s)).toBe(0);
    expect(await balances(s)).toEqual({ recipient: 0n, payer: PAYER_USDC });
  }, 60_000);

  it('answers an RPC outage with 503, consuming nothing; the same payment works afterwards', async () => {
    const s = await setup();
    const sent: string[] = [];
    const cut = recordingFetch(sent, () => {
      proxy.setMode('down');
    });
    const down = await wrapFetchV2(cut, v2Client(s.payer))(s.url, post());
    expect(down.status).toBe(503);
    expect(((await down.json()) as { error: string }).error).toBe('chain_unavailable');
    expect(down.headers.get('retry-after')).not.toBeNull();
    expect(claimCount(s)).toBe(0);
    expect(await balances(s)).toEqual({ recipient: 0n, payer: PAYER_USDC });
    expect(s.context.logs.text()).toContain('chain_unavailable');
    expectQuietLogs(s, [sent[0] ?? '']);

    proxy.setMode('up');
    const up = await loopbackFetch(s.url, post({ 'payment-signature': sent[0] ?? '' }));
    expect(up.status, await up.clone().text()).toBe(200);
    expect(up.headers.get('payment-response')).not.toBeNull();
    expect(claimCount(s)).toBe(1);
    await expectPaid(s, 1n);
  });
});

describe('protocol v1 (x402-fetch)', () => {
  it('offers what the official client needs in the body', async () => {
    const s = await setup();
    const entry = await v1Requirements(s);
    expect(entry).toMatchObject({
      scheme: 'exact',
      network: SOLANA_NETWORK_V1,
      maxAmountRequired: PRICE.toString(),
      payTo: s.recipient,
      asset: chain.usdcMint,
      maxTimeoutSeconds: 600,
      extra: { feePayer: s.feePayer },
    });
  });

  it('pays with the unmodified client and a kit KeyPairSigner; a replay is 409', async () => {
    const s = await setup();
    const sent: string[] = [];
    // x402 1.2.0 documents a Solana signer as a kit `KeyPairSigner` (`createSigner("solana",
    // key)` makes one) and the RPC through `svmConfig`.
    const pay = wrapFetchV1(recordingFetch(sent), s.payer, undefined, undefined, {
      svmConfig: { rpcUrl: chain.rpcUrl },
    });
    const response = await pay(s.url, post());
    expect(response.status, await response.clone().text()).toBe(200);
    expect(await response.json()).toMatchObject({ verdict: 'safe' });
    const settlement = decodeXPaymentResponse(response.headers.get('x-payment-response') ?? '');
    expect(settlement).toMatchObject({
      success: true,
      network: SOLANA_NETWORK_V1,
      payer: s.payer.address,
    });
    await expectPaid(s, 1n);
    expect(claimCount(s)).toBe(1);

    // The same X-PAYMENT again: the transaction paid once.
    expect(sent).toHaveLength(1);
    const replay = await loopbackFetch(s.url, post({ 'x-payment': sent[0] ?? '' }));
    expect(replay.status).toBe(409);
    expect(((await replay.json()) as { error: string }).error).toBe('nonce_already_used');
    expect(claimCount(s)).toBe(1);
    await expectPaid(s, 1n);
    expectQuietLogs(s, [sent[0] ?? '', settlement.transaction]);
  });

  it('refuses a wrong amount and a wrong recipient, charging nothing', async () => {
    const s = await setup();
    const other = (await generateKeyPairSigner()).address;
    await chain.fundToken(other, chain.usdcMint, 0n);
    const requirements = await v1Requirements(s);
    const cases: [PaymentRequirementsV1, string][] = [
      [{ ...requirements, maxAmountRequired: (PRICE - 1n).toString() }, 'amount_mismatch'],
      [{ ...requirements, payTo: other }, 'wrong_recipient'],
    ];
    for (const [tampered, reason] of cases) {
      const payment = await v1Payment(s, tampered);
      await expectRefused(await loopbackFetch(s.url, post({ 'x-payment': payment })), reason);
    }
    expect(claimCount(s)).toBe(0);
    expect(await balances(s)).toEqual({ recipient: 0n, payer: PAYER_USDC });
  });

  it('answers an RPC outage with 503, consuming nothing; the same payment works afterwards', async () => {
    const s = await setup();
    const payment = await v1Payment(s, await v1Requirements(s));
    proxy.setMode('down');
    const down = await loopbackFetch(s.url, post({ 'x-payment': payment }));
    expect(down.status).toBe(503);
    expect(((await down.json()) as { error: string }).error).toBe('chain_unavailable');
    expect(claimCount(s)).toBe(0);
    expect(await balances(s)).toEqual({ recipient: 0n, payer: PAYER_USDC });
    expectQuietLogs(s, [payment]);

    proxy.setMode('up');
    const up = await loopbackFetch(s.url, post({ 'x-payment': payment }));
    expect(up.status, await up.clone().text()).toBe(200);
    expect(up.headers.get('x-payment-response')).not.toBeNull();
    expect(claimCount(s)).toBe(1);
    await expectPaid(s, 1n);
  });
});
