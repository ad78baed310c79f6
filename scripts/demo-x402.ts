/**
 * `npm run demo:x402`: pay for verdicts with USDC on real local chains, no signup.
 *
 * Starts Surfpool (Solana) and anvil (Base, 1 s blocks, the service asking 2 confirmations),
 * starts the built service against them, and pays four times with the project's own client
 * (`src/client/`): on each chain, with the `X-PAYMENT` header and with the legacy `X-402-*`
 * headers. Prints each verdict with the time spent on the challenge, the payment, and the paid
 * request. Then the unmodified official x402 clients pay on both chains with the standard
 * `exact` scheme — `x402-fetch` (protocol v1) and `@x402/fetch` with `@x402/evm` / `@x402/svm`
 * (protocol v2) — which the service settles itself: on Base with its settlement account
 * (BASE_SETTLEMENT_PRIVATE_KEY, a fresh key funded with gas ETH here), on Solana as fee payer
 * (SOLANA_FEE_PAYER_KEYPAIR, a fresh key pair file funded with SOL). Everything runs on
 * 127.0.0.1 and is stopped at the end.
 */
import { decodePaymentResponseHeader } from '@x402/core/http';
import { registerExactEvmScheme } from '@x402/evm/exact/client';
import { wrapFetchWithPayment as wrapFetchV2, x402Client } from '@x402/fetch';
import { ExactSvmScheme } from '@x402/svm/exact/client';
import pc from 'picocolors';
import { createTestClient, createWalletClient, http, publicActions } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { base } from 'viem/chains';
import type { Signer } from 'x402/types';
import { decodeXPaymentResponse, wrapFetchWithPayment as wrapFetchV1 } from 'x402-fetch';

import { createPayingFetch, type PayingFetchEvent, readSettlement } from '../src/client/index.js';
import { SOLANA_NETWORK_V2 as SOLANA_V2 } from '../src/payments/exact/exact-facilitator.js';
import type { Chain, ProofForm } from '../src/payments/payment-proof.js';
import { type PaymentStack, startPaymentStack } from './local-chains/payment-stack.js';

const RUNS: { chain: Chain; form: ProofForm; url: string }[] = [
  { chain: 'solana', form: 'x-payment', url: 'https://phantom.app/' },
  { chain: 'solana', form: 'legacy', url: 'http://phantom-wallet-connect.xyz/restore' },
  { chain: 'base', form: 'x-payment', url: 'https://www.coinbase.com/' },
  { chain: 'base', form: 'legacy', url: 'https://paypa1-secure-login.top/signin' },
];

async function main(): Promise<void> {
  const started = performance.now();
  console.log(pc.dim('Starting Surfpool, anvil and linkguard on 127.0.0.1 …'));
  const settlementKey = generatePrivateKey();
  const stack = await startPaymentStack({
    baseBlockTimeSeconds: 1,
    env: { BASE_MIN_CONFIRMATIONS: '2', BASE_SETTLEMENT_PRIVATE_KEY: settlementKey },
    solanaFeePayer: true,
  });
  try {
    // The settlement account pays the gas of standard payments: it needs ETH, never USDC.
    await createTestClient({
      mode: 'anvil',
      chain: base,
      transport: http(stack.base.rpcUrl),
    }).setBalance({ address: privateKeyToAccount(settlementKey).address, value: 10n ** 17n });
    console.log(
      pc.dim(`Ready in ${ms(performance.now() - started)}: service ${stack.serviceUrl}\n`),
    );
    for (const run of RUNS) await payOnce(stack, run);
    await payWithOfficialClients(stack);
    console.log(
      pc.dim(
        'Each payment moved 0.01 USDC to the recipient and can pay for exactly one request.\n' +
          `Try it yourself: linkguard pay-check URL --chain solana|base --service ${stack.serviceUrl} …`,
      ),
    );
  } finally {
    await stack.stop();
  }
}

async function payOnce(
  stack: PaymentStack,
  run: { chain: Chain; form: ProofForm; url: string },
): Promise<void> {
  const timings: Partial<Record<PayingFetchEvent['type'], number>> = {};
  const onEvent = (event: PayingFetchEvent) => {
    timings[event.type] = (timings[event.type] ?? 0) + event.ms;
  };
  const common = { headerForm: run.form, onEvent };
  const payingFetch =
    run.chain === 'solana'
      ? createPayingFetch({
          chain: 'solana',
          signer: stack.solanaPayer,
          rpcUrl: stack.solana.rpcUrl,
          ...common,
        })
      : createPayingFetch({
          chain: 'base',
          account: stack.basePayer,
          rpcUrl: stack.base.rpcUrl,
          pollingIntervalMs: 100,
          ...common,
        });

  const response = await payingFetch(`${stack.serviceUrl}/v1/detect`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ url: run.url }),
  });
  const body = (await response.json()) as Record<string, unknown>;
  const settlement = readSettlement(response);
  const label = `${run.chain.padEnd(6)} ${run.form.padEnd(9)}`;
  if (response.status !== 200 || settlement === null) {
    console.log(`${pc.bold(label)} ${pc.red(`HTTP ${response.status}`)} ${JSON.stringify(body)}`);
    process.exitCode = 1;
    return;
  }
  const verdict = String(body.verdict);
  const paint = verdict === 'safe' ? pc.green : verdict === 'caution' ? pc.yellow : pc.red;
  console.log(`${pc.bold(label)} ${run.url}`);
  const brand = typeof body.brand === 'string' ? ` (${body.brand})` : '';
  console.log(`  ${paint(verdict.toUpperCase())}${brand}: ${String(body.reason)}`);
  console.log(
    pc.dim(
      `  402 challenge ${ms(timings.challenge)} · payment on chain ${ms(timings.paid)} · paid request ${ms(timings.settled)}` +
        (timings.retry === undefined ? '' : ` (incl. waiting for confirmations)`),
    ),
  );
  console.log(
    pc.dim(`  tx ${settlement.transaction.slice(0, 20)}… from ${settlement.payer.slice(0, 12)}…\n`),
  );
}

/** One payment by an official client: which chain and package, and what it pays for. */
interface OfficialRun {
  chain: Chain;
  label: string;
  pay: typeof fetch;
  url: string;
  header: 'x-payment-response' | 'payment-response';
  /** What the client signed, for the summary line. */
  signed: string;
}

/**
 * Standard x402 `exact` with the official clients, unmodified, on both chains: each gets the
 * 402, signs (Base: an EIP-3009 authorization; Solana: a USDC transfer left for the fee payer to
 * sign), and retries; the service settles it and answers the verdict.
 */
async function payWithOfficialClients(stack: PaymentStack): Promise<void> {
  const endpoint = `${stack.serviceUrl}/v1/detect`;
  const request = (url: string): RequestInit => ({
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ url }),
  });
  const wallet = createWalletClient({
    account: stack.basePayer,
    chain: base,
    transport: http(stack.base.rpcUrl),
  }).extend(publicActions);
  // x402 1.2.0 types its wallet against its own viem copy; this is the viem wallet client it
  // documents.
  const baseV1 = wrapFetchV1(globalThis.fetch, wallet as unknown as Signer);
  const baseClient = new x402Client();
  registerExactEvmScheme(baseClient, { signer: stack.basePayer });
  // On Solana, x402 1.2.0 takes a kit KeyPairSigner and its RPC through `svmConfig`; `@x402/svm`
  // takes the RPC in the scheme's config (its default would be mainnet).
  const solanaV1 = wrapFetchV1(globalThis.fetch, stack.solanaPayer, undefined, undefined, {
    svmConfig: { rpcUrl: stack.solana.rpcUrl },
  });
  const solanaClient = new x402Client().register(
    SOLANA_V2,
    new ExactSvmScheme(stack.solanaPayer, { rpcUrl: stack.solana.rpcUrl }),
  );
  const eip3009 = 'signed EIP-3009 authorization';
  const transfer = 'partially signed USDC transfer';
  const runs: OfficialRun[] = [
    {
      chain: 'base',
      label: 'x402-fetch (v1)',
      pay: baseV1,
      url: 'https://www.coinbase.com/',
      header: 'x-payment-response',
      signed: eip3009,
    },
    {
      chain: 'base',
      label: '@x402/fetch (v2)',
      pay: wrapFetchV2(globalThis.fetch, baseClient),
      url: 'https://paypa1-secure-login.top/signin',
      header: 'payment-response',
      signed: eip3009,
    },
    {
      chain: 'solana',
      label: 'x402-fetch (v1)',
      pay: solanaV1,
      url: 'https://phantom.app/',
      header: 'x-payment-response',
      signed: transfer,
    },
    {
      chain: 'solana',
      label: '@x402/fetch (v2)',
      pay: wrapFetchV2(globalThis.fetch, solanaClient),
      url: 'http://phantom-wallet-connect.xyz/restore',
      header: 'payment-response',
      signed: transfer,
    },
  ];
  for (const run of runs) {
    const started = performance.now();
    const response = await run.pay(endpoint, request(run.url));
    const elapsed = performance.now() - started;
    const body = (await response.json()) as Record<string, unknown>;
    const header = response.headers.get(run.header);
    const label = `${run.chain.padEnd(6)} ${run.label}`;
    if (response.status !== 200 || header === null) {
      console.log(`${pc.bold(label)} ${pc.red(`HTTP ${response.status}`)} ${JSON.stringify(body)}`);
      process.exitCode = 1;
      continue;
    }
    const settlement =
      run.header === 'x-payment-response'
        ? decodeXPaymentResponse(header)
        : decodePaymentResponseHeader(header);
    const verdict = String(body.verdict);
    const paint = verdict === 'safe' ? pc.green : verdict === 'caution' ? pc.yellow : pc.red;
    console.log(`${pc.bold(label)} ${run.url}`);
    console.log(`  ${paint(verdict.toUpperCase())}: ${String(body.reason)}`);
    console.log(
      pc.dim(
        `  402, ${run.signed}, settled by the service: ${ms(elapsed)} in all\n` +
          `  tx ${settlement.transaction.slice(0, 20)}… on ${settlement.network}\n`,
      ),
    );
  }
}

function ms(value: number | undefined): string {
  return value === undefined ? '—' : `${Math.round(value)} ms`;
}

await main();
