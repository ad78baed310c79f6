/**
 * @module client/paying-fetch
 * A `fetch` wrapper that answers linkguard's x402 402 challenge (spec §2.6, §3, §4.1, §5; DESIGN
 * §4.1–4.4) by paying on the chosen chain and retrying the identical request with the proof.
 *
 * One call pays at most once. After paying, the wrapper only re-sends the same proof: when the
 * service says the payment is not visible yet (402 `payment_pending`) or the chain RPC or the
 * rate limit is in the way (503, 429; nothing is consumed there, spec §7, DESIGN §4.3–4.4).
 */
import {
  address,
  type Commitment,
  isAddress as isSolanaAddress,
  type TransactionSigner,
} from '@solana/kit';
import {
  type Address,
  getAddress,
  isAddress as isEvmAddress,
  isAddressEqual,
  type LocalAccount,
} from 'viem';

import { BASE_MAINNET_USDC_CONTRACT, SOLANA_MAINNET_USDC_MINT } from '../config/config.js';
import {
  type Chain,
  decodeSettlementResponse,
  paymentHeaders,
  type PaymentProof,
  type ProofForm,
  type SettlementResponse,
} from '../payments/payment-proof.js';
import { sendBaseUsdcPayment, signNonceMessage } from './base-payment.js';
import { PaymentClientError } from './payment-client-error.js';
import { sendSolanaUsdcPayment } from './solana-payment.js';

/** Pay on Solana with this wallet. */
export interface SolanaPayer {
  chain: 'solana';
  /** The paying wallet (e.g. `createKeyPairSignerFromBytes(solanaKeygenBytes)`). */
  signer: TransactionSigner;
  rpcUrl: string;
  /** Commitment to wait for before presenting the proof. Default `confirmed`. */
  commitment?: Commitment;
  /** Give up waiting for the commitment after this many milliseconds. Default 30 000. */
  timeoutMs?: number;
}

/** Pay on Base with this account. */
export interface BasePayer {
  chain: 'base';
  /** The paying account (e.g. `privateKeyToAccount(hexKey)`). */
  account: LocalAccount;
  /** A Base mainnet RPC (the sender refuses any chain id other than 8453). */
  rpcUrl: string;
  /**
   * Confirmations to wait for before presenting the proof. Default: what the 402 asks
   * (`extra.min_confirmations`, at most 64), else 1.
   */
  confirmations?: number;
  /** Give up waiting for the receipt after this many milliseconds. Default 60 000. */
  timeoutMs?: number;
  /** Node polling interval. Default viem's for Base (1 s). */
  pollingIntervalMs?: number;
}

export type PayingFetchOptions = (SolanaPayer | BasePayer) & {
  /** Proof header form: `x-payment` (preferred, spec §5) or `legacy` (`X-402-*`). Default `x-payment`. */
  headerForm?: ProofForm;
  /**
   * Spending cap per call in atomic units of the asset. Default `10_000n` (0.01 USDC, the
   * service's price). A 402 asking more is refused without paying.
   */
  maxPriceAtomic?: bigint;
  /**
   * The token the caller agrees to pay in (Solana mint or Base contract). Default the chain's
   * production USDC; `null` accepts whatever asset the 402 names (local test chains). Without this
   * check `maxPriceAtomic` would mean nothing: 10 000 atomic units of another token can be worth
   * far more than 0.01 USD.
   */
  asset?: string | null;
  /** The underlying fetch. Default `globalThis.fetch`. */
  fetch?: typeof fetch;
  /** Re-sends of the proof after `payment_pending`, 503 or 429. Default 5. */
  maxRetries?: number;
  /** Progress and timings (milliseconds). Exceptions thrown by the callback are ignored. */
  onEvent?: (event: PayingFetchEvent) => void;
};

/** Progress of one call; `ms` is the duration of the step the event closes. */
export type PayingFetchEvent =
  /** The first request answered 402 with a payable offer for the chosen chain. */
  | {
      type: 'challenge';
      ms: number;
      network: Chain;
      nonce: string;
      amountAtomic: bigint;
      payTo: string;
      asset: string;
    }
  /** The payment transaction reached the wanted commitment/confirmations. */
  | { type: 'paid'; ms: number; proof: PaymentProof; transaction: string }
  /** A proof attempt was answered with `payment_pending`, 503 or 429; waiting `waitMs` before re-sending. */
  | {
      type: 'retry';
      ms: number;
      attempt: number;
      status: number;
      reason: string | null;
      waitMs: number;
    }
  /** The final answer to the paid request; `ms` runs from the end of the payment to this answer. */
  | {
      type: 'settled';
      ms: number;
      status: number;
      attempts: number;
      settlement: SettlementResponse | null;
    };

/** A fetch that may pay: see {@link createPayingFetch}. */
export type PayingFetch = (url: string | URL, init?: RequestInit) => Promise<Response>;

/** An offer of the 402 body, normalized from either challenge shape. */
interface Offer {
  network: Chain;
  amountAtomic: bigint;
  payTo: string;
  asset: string;
  nonce: string;
  /** Solana memo or Base message to sign: `<prefix>:<nonce>`. */
  binding: string;
  /** Base: confirmations the service asks (`extra.min_confirmations`), when it says. */
  minConfirmations?: number;
}

const DEFAULT_MAX_PRICE_ATOMIC = 10_000n;
const DEFAULT_RETRY_AFTER_S = 1;
const MAX_WAIT_MS = 10_000;
/** At most this many Base blocks (~2 min at 2 s) are awaited because a 402 asked for them. */
const MAX_WAITED_CONFIRMATIONS = 64;
/** USDC has 6 decimals on both chains; used only for the spec's decimal `payment.amount` shape. */
const USDC_DECIMALS = 6;
const PRODUCTION_USDC: Readonly<Record<Chain, string>> = {
  solana: SOLANA_MAINNET_USDC_MINT,
  base: BASE_MAINNET_USDC_CONTRACT,
};

/**
 * Create a fetch that pays linkguard's 402 challenges.
 *
 * For each call: send the request; a response other than a 402 `payment_required` /
 * `payment_invalid` challenge is returned untouched. On a challenge, pick the `accepts` entry for
 * the chosen chain, check the price against `maxPriceAtomic` and the asset against `asset`,
 * **pay on chain** (Solana: USDC transfer with memo `extra.memo`; Base: USDC transfer plus an
 * EIP-191 signature of `extra.message`), then re-send the identical request with the proof
 * headers, re-sending the same proof after 402 `payment_pending`, 503 or 429 (waiting
 * `Retry-After` seconds, default 1, at most 10 s per wait; up to `maxRetries` times).
 *
 * **Once the call has paid, the final response is returned whatever its status**: a 402
 * `payment_invalid`, 409 or 5xx after paying means money was spent and the error body says why.
 * Watch `onEvent` (`paid`) to learn the transaction. A call never pays twice. `init.signal` also
 * ends the re-sends and their waits; an abort after paying leaves the payment made and unused.
 *
 * The request body must be re-sendable: strings, bytes, `Blob`, `URLSearchParams` and `FormData`
 * are; a `ReadableStream` (or other async iterable) body is not supported.
 *
 * @throws {PaymentClientError} before paying: `unsupported_body`, `malformed_challenge`,
 *   `chain_not_offered`, `price_too_high`, `asset_not_accepted`, `wrong_chain`; while paying:
 *   `not_confirmed`, `payment_failed` (both carry the transaction id).
 * @throws whatever the underlying fetch or the chain RPC throws (network errors, aborts).
 */
export function createPayingFetch(options: PayingFetchOptions): PayingFetch {
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const maxPrice = options.maxPriceAtomic ?? DEFAULT_MAX_PRICE_ATOMIC;
  const maxRetries = options.maxRetries ?? 5;
  const form = options.headerForm ?? 'x-payment';
  const acceptedAsset =
    options.asset === undefined ? PRODUCTION_USDC[options.chain] : options.asset;
  const emit = (event: PayingFetchEvent): void => {
    try {
      options.onEvent?.(event);
    } catch {
      // An observer must not break a call that may already have paid.
    }
  };

  return async function payingFetch(url, init = {}) {
    assertResendable(init.body);
    let started = performance.now();
    const first = await fetchImpl(url, init);
    if (first.status !== 402) return first;
    const body = await jsonBody(first);
    if (!isPayableChallenge(body)) return first;
    await first.body?.cancel();
    const offer = pickOffer(body, options.chain);
    if (offer.amountAtomic > maxPrice) {
      throw new PaymentClientError(
        'price_too_high',
        `The service asks ${offer.amountAtomic} atomic units on ${offer.network}, above the spending cap of ${maxPrice}; not paying.`,
      );
    }
    if (acceptedAsset !== null && !sameAsset(offer.network, offer.asset, acceptedAsset)) {
      throw new PaymentClientError(
        'asset_not_accepted',
        `The service asks for payment in ${offer.asset} on ${offer.network}, not in ${acceptedAsset}; not paying.`,
      );
    }
    emit({
      type: 'challenge',
      ms: performance.now() - started,
      network: offer.network,
      nonce: offer.nonce,
      amountAtomic: offer.amountAtomic,
      payTo: offer.payTo,
      asset: offer.asset,
    });

    started = performance.now();
    const proof = await pay(options, offer);
    emit({
      type: 'paid',
      ms: performance.now() - started,
      proof,
      transaction: proof.chain === 'solana' ? proof.txSignature : proof.txHash,
    });

    started = performance.now();
    const headers = new Headers(init.headers);
    for (const [name, value] of Object.entries(paymentHeaders(proof, form))) {
      headers.set(name, value);
    }
    for (let attempt = 1; ; attempt += 1) {
      const attemptStarted = performance.now();
      const response = await fetchImpl(url, { ...init, headers });
      const retry = attempt <= maxRetries ? await retryAfter(response) : null;
      if (retry === null) {
        const header = response.headers.get('x-payment-response');
        emit({
          type: 'settled',
          ms: performance.now() - started,
          status: response.status,
          attempts: attempt,
          settlement: header === null ? null : decodeSettlementResponse(header),
        });
        return response;
      }
      emit({
        type: 'retry',
        ms: performance.now() - attemptStarted,
        attempt,
        status: response.status,
        reason: retry.reason,
        waitMs: retry.waitMs,
      });
      await response.body?.cancel();
      await sleep(retry.waitMs, init.signal ?? undefined);
    }
  };
}

/** Read the `X-PAYMENT-RESPONSE` of a paid answer; null when absent or not a settlement. */
export function readSettlement(response: Response): SettlementResponse | null {
  const header = response.headers.get('x-payment-response');
  return header === null ? null : decodeSettlementResponse(header);
}

async function pay(options: SolanaPayer | BasePayer, offer: Offer): Promise<PaymentProof> {
  if (options.chain === 'solana') {
    const result = await sendSolanaUsdcPayment({
      rpcUrl: options.rpcUrl,
      signer: options.signer,
      recipient: address(offer.payTo),
      mint: address(offer.asset),
      amountAtomic: offer.amountAtomic,
      memo: offer.binding,
      ...(options.commitment === undefined ? {} : { commitment: options.commitment }),
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    });
    if (result.failed) throw failedPayment(result.signature);
    return { chain: 'solana', txSignature: result.signature, nonce: offer.nonce };
  }
  // Sign first: it cannot fail for a local account, and if it ever did, nothing was paid yet.
  const walletSig = await signNonceMessage(options.account, offer.binding);
  const result = await sendBaseUsdcPayment({
    rpcUrl: options.rpcUrl,
    account: options.account,
    token: getAddress(offer.asset),
    recipient: getAddress(offer.payTo),
    amountAtomic: offer.amountAtomic,
    // Wait for what the service asks before presenting, so no `payment_pending` round trip is
    // spent (each one counts against the per-IP rate limit); an explicit option wins.
    ...confirmationsFor(options.confirmations, offer.minConfirmations),
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(options.pollingIntervalMs === undefined
      ? {}
      : { pollingIntervalMs: options.pollingIntervalMs }),
  });
  if (result.failed) throw failedPayment(result.txHash);
  return { chain: 'base', txHash: result.txHash, walletSig, nonce: offer.nonce };
}

/** Confirmations to wait for, capped so a hostile 402 cannot stall the client for hours. */
function confirmationsFor(
  explicit: number | undefined,
  asked: number | undefined,
): { confirmations?: number } {
  if (explicit !== undefined) return { confirmations: explicit };
  if (asked === undefined) return {};
  return { confirmations: Math.min(Math.max(1, asked), MAX_WAITED_CONFIRMATIONS) };
}

function failedPayment(transaction: string): PaymentClientError {
  return new PaymentClientError(
    'payment_failed',
    `The payment transaction ${transaction} failed on chain (fees were spent, no token moved); not presenting it.`,
    { transaction },
  );
}

function assertResendable(body: RequestInit['body']): void {
  if (
    body instanceof ReadableStream ||
    (typeof body === 'object' && body !== null && Symbol.asyncIterator in body)
  ) {
    throw new PaymentClientError(
      'unsupported_body',
      'A paying request is sent twice (before and after paying): pass the body as a string or bytes, not a stream.',
    );
  }
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The objects of an array; null when `value` is not an array. */
function objects(value: unknown): Json[] | null {
  return Array.isArray(value) ? (value as unknown[]).filter(isObject) : null;
}

async function jsonBody(response: Response): Promise<unknown> {
  try {
    return await response.clone().json();
  } catch {
    return null;
  }
}

function isPayableChallenge(body: unknown): body is Json {
  return isObject(body) && (body.error === 'payment_required' || body.error === 'payment_invalid');
}

/** The offer for `chain`, from the x402 `accepts` array or else the spec's `payment` object. */
function pickOffer(body: Json, chain: Chain): Offer {
  const fromAccepts = objects(body.accepts);
  const fromPayment = isObject(body.payment)
    ? [body.payment, ...(objects(body.payment.alternatives) ?? [])]
    : null;
  if (fromAccepts === null && fromPayment === null) {
    throw new PaymentClientError(
      'malformed_challenge',
      'The 402 body has neither an "accepts" array nor a "payment" object; cannot pay.',
    );
  }
  const offered = fromAccepts ?? fromPayment ?? [];
  const key = fromAccepts === null ? 'chain' : 'network';
  const entry = offered.find((option) => option[key] === chain);
  if (entry === undefined) {
    const names = offered.map((option) => String(option[key]));
    throw new PaymentClientError(
      'chain_not_offered',
      `The service does not offer payment on ${chain}; it offers: ${names.length === 0 ? 'nothing (pay-per-request is disabled)' : names.join(', ')}.`,
    );
  }
  const offer =
    fromAccepts === null ? offerFromPayment(entry, chain) : offerFromAccepts(entry, chain);
  if (!validAddress(chain, offer.payTo) || !validAddress(chain, offer.asset)) {
    throw malformed(`the ${chain} recipient or token is not a ${chain} address`);
  }
  if (offer.nonce === '' || offer.binding === '') throw malformed('the nonce is missing');
  return offer;
}

function offerFromAccepts(entry: Json, chain: Chain): Offer {
  const amount = entry.maxAmountRequired;
  if (typeof amount !== 'string' || !/^\d{1,30}$/.test(amount)) {
    throw malformed('"maxAmountRequired" is not an atomic amount');
  }
  const extra = isObject(entry.extra) ? entry.extra : {};
  const nonce = str(extra.nonce);
  const [exact, template] =
    chain === 'solana'
      ? [extra.memo, extra.memo_template]
      : [extra.message, extra.sign_message_template];
  const asked = extra.min_confirmations;
  return {
    network: chain,
    amountAtomic: BigInt(amount),
    payTo: str(entry.payTo),
    asset: str(entry.asset),
    nonce,
    binding: typeof exact === 'string' ? exact : str(template).replaceAll('<nonce>', nonce),
    ...(typeof asked === 'number' && Number.isInteger(asked) ? { minConfirmations: asked } : {}),
  };
}

/** The spec's shape (§2.6): decimal USDC amounts, `memo_format` / `sign_message` with the nonce. */
function offerFromPayment(entry: Json, chain: Chain): Offer {
  const amount = entry.amount;
  if (
    entry.token !== 'USDC' ||
    typeof amount !== 'string' ||
    !/^\d{1,20}(\.\d{1,6})?$/.test(amount)
  ) {
    throw malformed('"amount" is not a decimal USDC amount');
  }
  const [whole = '0', fraction = ''] = amount.split('.');
  const nonce = str(entry.nonce);
  const binding = str(chain === 'solana' ? entry.memo_format : entry.sign_message);
  return {
    network: chain,
    amountAtomic: BigInt(whole + fraction.padEnd(USDC_DECIMALS, '0')),
    payTo: str(entry.recipient),
    asset: str(chain === 'solana' ? entry.token_mint : entry.token_contract),
    nonce,
    binding: binding.replaceAll('<nonce>', nonce),
  };
}

function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function malformed(what: string): PaymentClientError {
  return new PaymentClientError(
    'malformed_challenge',
    `The 402 challenge is malformed: ${what}; not paying.`,
  );
}

/** EVM addresses are compared without checksum strictness: the case of an address is not data. */
function validAddress(chain: Chain, value: string): boolean {
  return chain === 'solana' ? isSolanaAddress(value) : isEvmAddress(value, { strict: false });
}

function sameAsset(chain: Chain, offered: string, accepted: string): boolean {
  if (chain === 'solana') return offered === accepted;
  return validAddress(chain, accepted) && isAddressEqual(offered as Address, accepted as Address);
}

/**
 * When the answer to a proof says "try the same proof again" (402 `payment_pending`, 503, 429),
 * how long to wait; null for a final answer.
 */
async function retryAfter(
  response: Response,
): Promise<{ waitMs: number; reason: string | null } | null> {
  let reason: string | null = null;
  const body = await jsonBody(response);
  if (isObject(body)) {
    reason = typeof body.reason === 'string' ? body.reason : str(body.error) || null;
  }
  const pending =
    response.status === 402 &&
    isObject(body) &&
    (body.reason === 'payment_pending' || body.error === 'payment_pending');
  if (!pending && response.status !== 503 && response.status !== 429) return null;
  const seconds =
    parseRetryAfter(response.headers.get('retry-after')) ??
    (isObject(body) && typeof body.retry_after === 'number' ? body.retry_after : null) ??
    DEFAULT_RETRY_AFTER_S;
  return { waitMs: Math.min(Math.max(0, seconds * 1000), MAX_WAIT_MS), reason };
}

/** `Retry-After` as seconds (delta-seconds or an HTTP date); null when absent or unreadable. */
function parseRetryAfter(value: string | null): number | null {
  if (value === null) return null;
  if (/^\d+(\.\d+)?$/.test(value.trim())) return Number(value);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : (date - Date.now()) / 1000;
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted === true) {
      reject(signal.reason as Error);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason as Error);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
