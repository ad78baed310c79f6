/**
 * @module cli/commands/pay-check-command
 * `linkguard pay-check URL --chain solana|base --rpc-url URL [--service URL] [--keypair FILE]
 * [--private-key HEX] [--legacy-headers] [--max-price USDC] [--asset ADDRESS] [--json]`: judge one
 * URL through a running linkguard service the way a pay-per-request user does (spec §4.1, §5):
 * `POST <service>/v1/detect`, pay the 402 challenge (0.01 USDC) on the chosen chain, retry with the
 * proof, print the verdict, the transaction and the timings. Exit 0 on a 200, 1 on any other
 * final answer or a refusal to pay, 2 on a usage error (missing or bad key, bad option).
 */
import { readFileSync } from 'node:fs';

import { createKeyPairSignerFromBytes, type TransactionSigner } from '@solana/kit';
import { Command, Option } from 'commander';
import pc from 'picocolors';
import { type LocalAccount, privateKeyToAccount } from 'viem/accounts';

import {
  createPayingFetch,
  type PayingFetchEvent,
  PaymentClientError,
  readSettlement,
} from '../../client/index.js';
import type { Chain } from '../../payments/payment-proof.js';
import { UsageError } from '../usage-error.js';

/** Environment variable for the Base key: unlike an argument, it is not in the process list. */
const BASE_KEY_ENV = 'LINKGUARD_BASE_PRIVATE_KEY';
const USDC_DECIMALS = 6;

interface PayCheckOptions {
  chain: Chain;
  service: string;
  rpcUrl: string;
  keypair?: string;
  privateKey?: string;
  legacyHeaders?: boolean;
  maxPrice: string;
  asset?: string;
  json?: boolean;
}

interface Timings {
  challenge_ms: number | null;
  payment_ms: number | null;
  response_ms: number | null;
  total_ms: number;
}

export function payCheckCommand(): Command {
  return new Command('pay-check')
    .description('judge one URL through a linkguard service, paying 0.01 USDC per request (x402)')
    .argument('<url>', 'the URL to judge')
    .addOption(
      new Option('--chain <chain>', 'chain to pay on')
        .choices(['solana', 'base'])
        .makeOptionMandatory(),
    )
    .requiredOption('--rpc-url <url>', 'JSON-RPC endpoint of that chain (Base: chain id 8453)')
    .option('--service <url>', 'base URL of the linkguard service', 'http://localhost:8402')
    .option('--keypair <file>', 'Solana: the paying wallet as a solana-keygen JSON file')
    .addOption(
      // commander reads the environment variable itself when the flag is absent.
      new Option(
        '--private-key <hex>',
        `Base: the paying account's private key (hex). A key on the command line is visible to other local users in the process list: prefer the ${BASE_KEY_ENV} environment variable`,
      ).env(BASE_KEY_ENV),
    )
    .option('--legacy-headers', 'send the proof as X-402-* headers instead of X-PAYMENT')
    .option('--max-price <usdc>', 'refuse to pay more than this per request (USDC)', '0.01')
    .option('--asset <address>', 'token to pay in (default: USDC of the chain)')
    .option('--json', 'print the 200 body plus "payment" and "timings" as JSON')
    .addHelpText(
      'after',
      `\nA 402 is paid on chain before the request is retried: the payment is made even when the\nservice then answers with an error (that answer is printed, exit code 1).\nBase key: --private-key, or ${BASE_KEY_ENV} (preferred).`,
    )
    .action(async (url: string, options: PayCheckOptions) => {
      await payCheck(url, options);
    });
}

async function payCheck(url: string, options: PayCheckOptions): Promise<void> {
  const endpoint = `${httpUrl(options.service, '--service').replace(/\/+$/, '')}/v1/detect`;
  const rpcUrl = httpUrl(options.rpcUrl, '--rpc-url');
  const maxPriceAtomic = usdcToAtomic(options.maxPrice);
  const common = {
    rpcUrl,
    maxPriceAtomic,
    headerForm: options.legacyHeaders === true ? ('legacy' as const) : ('x-payment' as const),
    ...(options.asset === undefined ? {} : { asset: options.asset }),
  };
  let payer: string;
  const events: PayingFetchEvent[] = [];
  const onEvent = (event: PayingFetchEvent): void => {
    events.push(event);
  };
  let payingFetch;
  if (options.chain === 'solana') {
    const signer = await loadSolanaSigner(options.keypair);
    payer = signer.address;
    payingFetch = createPayingFetch({ chain: 'solana', signer, ...common, onEvent });
  } else {
    const account = loadBaseAccount(options.privateKey);
    payer = account.address;
    payingFetch = createPayingFetch({ chain: 'base', account, ...common, onEvent });
  }

  const started = performance.now();
  let response: Response;
  try {
    response = await payingFetch(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ url }),
    });
  } catch (error) {
    const paid = events.find((event) => event.type === 'paid');
    const sent =
      paid?.transaction ?? (error instanceof PaymentClientError ? error.transaction : undefined);
    console.error(pc.red(`pay-check failed: ${describe(error)}`));
    if (sent !== undefined) {
      console.error(`A payment transaction was sent: ${sent} on ${options.chain}.`);
    }
    process.exitCode = 1;
    return;
  }

  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text) as unknown;
  } catch {
    body = null;
  }
  const paid = events.find((event) => event.type === 'paid');
  const settlement = readSettlement(response);
  const payment =
    settlement !== null
      ? {
          transaction: settlement.transaction,
          network: settlement.network,
          payer: settlement.payer,
        }
      : paid === undefined
        ? null
        : { transaction: paid.transaction, network: options.chain, payer };
  const timings = collectTimings(events, performance.now() - started);

  if (response.status !== 200 || !isRecord(body)) {
    process.exitCode = 1;
    if (options.json === true) {
      console.log(
        JSON.stringify(
          isRecord(body)
            ? { ...body, payment, timings }
            : { status: response.status, body: text, payment, timings },
          null,
          2,
        ),
      );
      return;
    }
    console.error(pc.red(`HTTP ${response.status}${errorSummary(body)}`));
    if (isRecord(body)) {
      // The re-issued payment instructions (fresh nonce) are noise here; --json keeps them.
      const { payment: _instructions, accepts: _accepts, ...rest } = body;
      const trimmed = _instructions !== undefined || _accepts !== undefined;
      console.error(JSON.stringify(rest, null, 2));
      if (trimmed)
        console.error(pc.dim('(payment instructions omitted; --json prints the whole body)'));
    } else {
      console.error(text);
    }
    if (payment !== null) {
      console.error(
        `A payment was made: transaction ${payment.transaction} on ${payment.network} (payer ${payment.payer}).`,
      );
    }
    return;
  }

  if (options.json === true) {
    console.log(JSON.stringify({ ...body, payment, timings }, null, 2));
    return;
  }
  const field = (name: string): string => {
    const value = body[name];
    return typeof value === 'string'
      ? value
      : value === null || value === undefined
        ? '-'
        : JSON.stringify(value);
  };
  console.log(`${pc.bold('verdict')}      ${field('verdict')}`);
  console.log(`${pc.bold('brand')}        ${field('brand')}`);
  console.log(`${pc.bold('reason')}       ${field('reason')}`);
  console.log(
    `${pc.bold('transaction')}  ${
      payment === null
        ? 'none (the service asked for no payment)'
        : `${payment.transaction} on ${payment.network} (payer ${payment.payer})`
    }`,
  );
  console.log(
    `${pc.bold('timings')}      challenge ${ms(timings.challenge_ms)} · payment ${ms(timings.payment_ms)} · verified response ${ms(timings.response_ms)} · total ${ms(timings.total_ms)}`,
  );
}

function collectTimings(events: readonly PayingFetchEvent[], totalMs: number): Timings {
  const of = (type: PayingFetchEvent['type']): number | null => {
    const event = events.find((candidate) => candidate.type === type);
    return event === undefined ? null : Math.round(event.ms);
  };
  return {
    challenge_ms: of('challenge'),
    payment_ms: of('paid'),
    response_ms: of('settled'),
    total_ms: Math.round(totalMs),
  };
}

function ms(value: number | null): string {
  return value === null ? '-' : `${value} ms`;
}

function errorSummary(body: unknown): string {
  if (!isRecord(body) || typeof body.error !== 'string') return '';
  return typeof body.reason === 'string' ? ` ${body.error} (${body.reason})` : ` ${body.error}`;
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  // fetch reports "fetch failed" and hides the reason (ECONNREFUSED, …) in `cause`.
  return error.cause instanceof Error ? `${error.message}: ${error.cause.message}` : error.message;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function httpUrl(value: string, flag: string): string {
  if (!/^https?:\/\//i.test(value) || !URL.canParse(value)) {
    throw new UsageError(`${flag} must be an http(s) URL, got "${value}"`);
  }
  return value;
}

function usdcToAtomic(value: string): bigint {
  const match = /^(\d{1,12})(?:\.(\d{1,6}))?$/.exec(value);
  if (match === null) {
    throw new UsageError(
      `--max-price must be a USDC amount such as 0.01 (at most 6 decimals), got "${value}"`,
    );
  }
  return BigInt((match[1] ?? '0') + (match[2] ?? '').padEnd(USDC_DECIMALS, '0'));
}

/** A solana-keygen file: a JSON array of 64 bytes (32-byte secret key, then the public key). */
async function loadSolanaSigner(file: string | undefined): Promise<TransactionSigner> {
  if (file === undefined)
    throw new UsageError('--chain solana needs --keypair FILE (a solana-keygen JSON file)');
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(
      `Cannot read --keypair ${file}: ${(error as NodeJS.ErrnoException).code ?? describe(error)}`,
    );
  }
  let bytes: unknown;
  try {
    bytes = JSON.parse(text) as unknown;
  } catch {
    bytes = null;
  }
  if (
    !Array.isArray(bytes) ||
    bytes.length !== 64 ||
    !bytes.every(
      (byte) => Number.isInteger(byte) && (byte as number) >= 0 && (byte as number) <= 255,
    )
  ) {
    throw new UsageError(
      `--keypair ${file} is not a solana-keygen keypair (a JSON array of 64 bytes)`,
    );
  }
  try {
    return await createKeyPairSignerFromBytes(Uint8Array.from(bytes as number[]));
  } catch {
    throw new UsageError(
      `--keypair ${file} is not a valid Ed25519 keypair (the public key does not match)`,
    );
  }
}

function loadBaseAccount(raw: string | undefined): LocalAccount {
  if (raw === undefined || raw.trim() === '') {
    throw new UsageError(
      `--chain base needs a private key: set ${BASE_KEY_ENV} (preferred) or pass --private-key`,
    );
  }
  const hex = raw.trim().replace(/^(0x)?/i, '0x');
  if (!/^0x[0-9a-fA-F]{64}$/.test(hex)) {
    throw new UsageError(
      'The Base private key must be 32 bytes of hex (64 hex digits, optional 0x)',
    );
  }
  try {
    return privateKeyToAccount(hex as `0x${string}`);
  } catch {
    throw new UsageError('The Base private key is not a valid secp256k1 key');
  }
}
