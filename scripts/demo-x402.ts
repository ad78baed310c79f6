/**
 * `npm run demo:x402`: pay for verdicts with USDC on real local chains, no signup.
 *
 * Starts Surfpool (Solana) and anvil (Base, 1 s blocks, the service asking 2 confirmations),
 * starts the built service against them, and pays four times with the project's own client
 * (`src/client/`): on each chain, with the `X-PAYMENT` header and with the legacy `X-402-*`
 * headers. Prints each verdict with the time spent on the challenge, the payment, and the paid
 * request. Then an unmodified official x402 client pays on Base with the standard `exact`
 * scheme — `x402-fetch` (protocol v1) and `@x402/fetch` with `@x402/evm` (protocol v2) — which
 * the service settles itself with its settlement account (BASE_SETTLEMENT_PRIVATE_KEY, a fresh
 * key funded with gas ETH here). Everything runs on 127.0.0.1 and is stopped at the end.
 */
import { decodePaymentResponseHeader } from '@x402/core/http';
import { registerExactEvmScheme } from '@x402/evm/exact/client';
import { wrapFetchWithPayment as wrapFetchV2, x402Client } from '@x402/fetch';
import pc from 'picocolors';
import { createTestClient, createWalletClient, http, publicActions } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { base } from 'viem/chains';
import type { Signer } from 'x402/types';
import { decodeXPaymentResponse, wrapFetchWithPayment as wrapFetchV1 } from 'x402-fetch';

import { createPayingFetch, type PayingFetchEvent, readSettlement } from '../src/client/index.js';
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

/**
 * Standard x402 `exact` on Base with the official clients, unmodified: each gets the 402, signs
 * an EIP-3009 authorization, and retries; the service settles it and answers the verdict.
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
  const v1 = wrapFetchV1(globalThis.fetch, wallet as unknown as Signer);
  const client = new x402Client();
  registerExactEvmScheme(client, { signer: stack.basePayer });
  const v2 = wrapFetchV2(globalThis.fetch, client);
  const runs = [
    {
      label: 'x402-fetch (v1)',
      pay: v1,
      url: 'https://www.coinbase.com/',
      header: 'x-payment-response',
    },
    {
      label: '@x402/fetch (v2)',
      pay: v2,
      url: 'https://paypa1-secure-login.top/signin',
      header: 'payment-response',
    },
  ] as const;
  for (const run of runs) {
    const started = performance.now();
    const response = await run.pay(endpoint, request(run.url));
    const elapsed = performance.now() - started;
    const body = (await response.json()) as Record<string, unknown>;
    const header = response.headers.get(run.header);
    const label = `base   ${run.label}`;
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
        `  402, signed EIP-3009 authorization, settled by the service: ${ms(elapsed)} in all\n` +
          `  tx ${settlement.transaction.slice(0, 20)}… on ${settlement.network}\n`,
      ),
    );
  }
}

function ms(value: number | undefined): string {
  return value === undefined ? '—' : `${Math.round(value)} ms`;
}

await main();
