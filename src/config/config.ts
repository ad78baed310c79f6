/**
 * @module config
 * The only module that reads `process.env`. `loadConfig()` parses and validates every variable
 * once at start-up and returns a frozen, typed {@link Config}; a bad value stops the process with
 * a message naming the variable. Every variable is documented in the README's configuration
 * table with its default.
 */
import { createPrivateKey, createPublicKey, timingSafeEqual } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';

import { getAddressDecoder } from '@solana/kit';
import ipaddr from 'ipaddr.js';

import { FEED_KEY_ENVS, type FeedKeys } from '../intel/feed-keys.js';
import { FEED_FORMATS, type FeedFormat } from '../intel/feeds/raw-feed-entry.js';
import { parseResolveOverrides, type ResolveOverride } from '../net/resolve-override.js';
import type { LogLevel } from '../observability/logger.js';
import type { LlmConfig, PageConfig } from '../page/page-layer.js';
import type { PaymentConfig, SolanaFeePayerKeypair } from '../payments/payment-config.js';
import type { HttpTimeouts } from '../server/http-timeouts.js';
import type { VerdictTtlConfig } from '../service/detection-service.js';
import type { StoreLocation } from '../store/open-store.js';

export type { LlmConfig, LogLevel, PageConfig, PaymentConfig, StoreLocation, VerdictTtlConfig };

/** Proxy trust as Fastify's `trustProxy` option understands it: none, a hop count, or a list. */
export type TrustProxy = false | number | string[];

/** Typed, validated, frozen service configuration. */
export interface Config {
  /** TCP port (PORT, default 8402). */
  port: number;
  /** Bind address (HOST, default 0.0.0.0). */
  host: string;
  /** Store location (DATABASE_URL, default `sqlite:.linkguard/linkguard.db`). */
  store: StoreLocation;
  /**
   * Redis for instances behind a load balancer (REDIS_URL, default unset): shared rate limits
   * and a shared verdict cache. Unset: both stay in process (the embedded deployment). May carry
   * a password: never logged (log `redisOrigin()` instead), never echoed in errors.
   */
  redisUrl: string | null;
  /**
   * Prefix of every Redis key this deployment writes (REDIS_KEY_PREFIX, default `linkguard:`):
   * deployments that share one Redis (staging and production) keep apart with different ones.
   */
  redisKeyPrefix: string;
  /** Public origin used in the 402 `resource` and OpenAPI `servers` (PUBLIC_BASE_URL). */
  publicBaseUrl: string;
  /**
   * Which proxies to trust for the client address (TRUST_PROXY, default false): a hop count or
   * a list of proxy addresses/CIDRs; never every hop.
   */
  trustProxy: TrustProxy;
  /**
   * How long the server waits for a client, ms: headers (HTTP_HEADERS_TIMEOUT_MS, default
   * 10,000), the whole request (HTTP_REQUEST_TIMEOUT_MS, default 15,000, not below the headers
   * bound), the next request on an idle keep-alive connection (HTTP_KEEP_ALIVE_TIMEOUT_MS,
   * default 5,000; behind a load balancer set it above the balancer's idle timeout).
   */
  httpTimeouts: HttpTimeouts;
  /** Bearer token of `GET /metrics` (METRICS_TOKEN); null: no metrics endpoint. */
  metricsToken: string | null;
  /** pino level (LOG_LEVEL, default info). */
  logLevel: LogLevel;
  /**
   * Requests per minute per source IP without a key, 402 challenges included (README,
   * "Configuration": 60).
   */
  publicRateLimitPerMinute: number;
  /**
   * Default requests per minute for an enterprise key without its own limit (README,
   * "Configuration": 10,000).
   */
  keyRateLimitPerMinute: number;
  /** x402 settings used to build the 402 challenge (README, "Paying per request (x402)"). */
  payments: PaymentConfig;
  /**
   * Fixed name resolution for the outbound client, like curl's `--resolve` (NET_RESOLVE, default
   * empty): comma-separated `host:port:address`, e.g. `feeds.test.example:8080:127.0.0.1`,
   * `rdap.test.example:443:[::1]`.
   *
   * SECURITY — TESTS ONLY, NEVER IN PRODUCTION: the listed addresses bypass the SSRF address check
   * (loopback and private addresses are accepted) for the exact host:port pairs listed. Anyone who
   * can set it can point the service's outbound requests at internal services.
   */
  netResolve: readonly ResolveOverride[];
  /**
   * Domain-age lookups over RDAP (RDAP_ENABLED, default true; README, 'Configuration'). `false` makes
   * every domain age `unknown` (reason `disabled`) without any request.
   */
  rdapEnabled: boolean;
  /**
   * Longest a verdict waits for an RDAP answer, ms (RDAP_TIMEOUT_MS, default 800, 50–800;
   * README, 'Configuration'). A slower registry answers in the background and fills the cache for the next request.
   */
  rdapTimeoutMs: number;
  /**
   * Google Web Risk API key (WEB_RISK_API_KEY, default unset). Unset means no Web Risk client and
   * no Web Risk lookups. A secret: never logged, never echoed in configuration errors.
   */
  webRiskApiKey: string | null;
  /**
   * Base URL of the Web Risk API (WEB_RISK_URL, default `https://webrisk.googleapis.com`). Tests
   * set it to a test host name mapped to a local server with NET_RESOLVE, e.g.
   * `http://webrisk.test.example:8081` with `NET_RESOLVE=webrisk.test.example:8081:127.0.0.1`.
   */
  webRiskUrl: string;
  /**
   * Threat feeds refreshed from URLs by `serve` (FEEDS, default none): whitespace-separated
   * `name=format=url` items, e.g. `openphish=openphish=https://openphish.com/feed.txt`.
   */
  feeds: readonly { name: string; format: ConfigurableFeedFormat; url: string }[];
  /**
   * Least minutes between two downloads of a feed (FEEDS_REFRESH_MINUTES, default 30, 5–1440); a
   * catalog feed is asked no sooner than its provider's interval either.
   */
  feedsRefreshMinutes: number;
  /**
   * Keys of keyed catalog feeds (PHISHTANK_APP_KEY, URLHAUS_AUTH_KEY; default unset): filled into
   * the feed's URL when it is downloaded, never stored or logged.
   */
  feedKeys: FeedKeys;
  /** Layer 3: fetching and analysing pages (README, "Page analysis (layer 3)"). */
  page: PageConfig;
  /** Verdict cache lifetimes by verdict, seconds (VERDICT_TTL_*). */
  verdictTtl: VerdictTtlConfig;
  /** The optional LLM judge of layer 3, or null when LLM_BASE_URL / LLM_MODEL are unset. */
  llm: LlmConfig | null;
}

const LOG_LEVELS: readonly LogLevel[] = [
  'fatal',
  'error',
  'warn',
  'info',
  'debug',
  'trace',
  'silent',
];

/**
 * Circle's USDC mint on Solana mainnet (source:
 * developers.circle.com/stablecoins/usdc-contract-addresses).
 */
export const SOLANA_MAINNET_USDC_MINT = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
/** Circle's USDC contract on Base mainnet (same source). */
export const BASE_MAINNET_USDC_CONTRACT = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
/**
 * Public mainnet RPC endpoints, used when no RPC URL is configured (sources: solana.com/docs/
 * references/clusters, docs.base.org/base-chain/network-information). They are rate-limited:
 * production deployments should set SOLANA_RPC_URL / BASE_RPC_URL to a dedicated provider.
 */
export const SOLANA_PUBLIC_RPC_URL = 'https://api.mainnet-beta.solana.com';
export const BASE_PUBLIC_RPC_URL = 'https://mainnet.base.org';

/** USDC has 6 decimals on both chains (Circle docs). */
const USDC_DECIMALS = 6;

const BASE58_ADDRESS = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;
const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** Thrown when an environment variable has an invalid value; the message names it. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

type Env = Readonly<Record<string, string | undefined>>;

/**
 * Parse and validate the configuration from an environment map.
 *
 * @param env usually `process.env`; tests pass their own map.
 * @returns a frozen {@link Config}.
 * @throws {ConfigError} naming the first invalid variable.
 */
export function loadConfig(env: Env = process.env): Config {
  const port = intVar(env, 'PORT', 8402, 0, 65535);
  const payments: PaymentConfig = {
    prefix: stringVar(env, 'X402_PREFIX', 'linkguard', /^[a-z0-9][a-z0-9_-]{0,31}$/),
    ...priceVar(env),
    nonceTtlSeconds: intVar(env, 'NONCE_TTL_SECONDS', 600, 10, 86_400),
    solanaRecipient: optionalVar(env, 'SOLANA_RECIPIENT', BASE58_ADDRESS),
    solanaUsdcMint: stringVar(env, 'SOLANA_USDC_MINT', SOLANA_MAINNET_USDC_MINT, BASE58_ADDRESS),
    baseRecipient: optionalVar(env, 'BASE_RECIPIENT', EVM_ADDRESS),
    baseUsdcContract: stringVar(env, 'BASE_USDC_CONTRACT', BASE_MAINNET_USDC_CONTRACT, EVM_ADDRESS),
    solanaRpcUrl: rpcUrlVar(env, 'SOLANA_RPC_URL', SOLANA_PUBLIC_RPC_URL),
    solanaCommitment: enumVar(env, 'SOLANA_COMMITMENT', 'confirmed', ['confirmed', 'finalized']),
    baseRpcUrl: rpcUrlVar(env, 'BASE_RPC_URL', BASE_PUBLIC_RPC_URL),
    baseMinConfirmations: intVar(env, 'BASE_MIN_CONFIRMATIONS', 2, 1, 1000),
    chainRpcTimeoutMs: intVar(env, 'CHAIN_RPC_TIMEOUT_MS', 5000, 100, 60_000),
    serverSecret: serverSecretVar(env),
    solanaFeePayerKeypair: solanaFeePayerKeypairVar(env),
    baseSettlementPrivateKey: settlementKeyVar(env),
    facilitatorUrl: facilitatorUrlVar(env),
  };
  const config: Config = {
    port,
    host: stringVar(env, 'HOST', '0.0.0.0', /^[^\s]+$/),
    store: storeVar(env),
    redisUrl: redisUrlVar(env),
    redisKeyPrefix: stringVar(env, 'REDIS_KEY_PREFIX', 'linkguard:', /^[A-Za-z0-9._:-]{1,64}$/),
    publicBaseUrl: baseUrlVar(env, port),
    trustProxy: trustProxyVar(env),
    httpTimeouts: httpTimeoutsVar(env),
    metricsToken: secretVar(env, 'METRICS_TOKEN'),
    logLevel: enumVar(env, 'LOG_LEVEL', 'info', LOG_LEVELS),
    publicRateLimitPerMinute: intVar(env, 'RATE_LIMIT_PUBLIC_PER_MINUTE', 60, 1, 1_000_000),
    keyRateLimitPerMinute: intVar(env, 'RATE_LIMIT_KEY_PER_MINUTE', 10_000, 1, 10_000_000),
    payments: Object.freeze(payments),
    netResolve: netResolveVar(env),
    rdapEnabled: enumVar(env, 'RDAP_ENABLED', 'true', ['true', 'false']) === 'true',
    rdapTimeoutMs: intVar(env, 'RDAP_TIMEOUT_MS', 800, 50, 800),
    webRiskApiKey: secretVar(env, 'WEB_RISK_API_KEY'),
    webRiskUrl: webRiskUrlVar(env),
    feeds: feedsVar(env),
    feedsRefreshMinutes: intVar(env, 'FEEDS_REFRESH_MINUTES', 30, 5, 1440),
    feedKeys: Object.freeze(
      Object.fromEntries(
        FEED_KEY_ENVS.flatMap((name) => {
          const value = secretVar(env, name);
          return value === null ? [] : [[name, value]];
        }),
      ),
    ),
    page: Object.freeze({
      enabled: enumVar(env, 'PAGE_ANALYSIS', 'on', ['on', 'off']) === 'on',
      budgetMs: intVar(env, 'PAGE_BUDGET_MS', 4000, 500, 30_000),
      maxBytes: intVar(env, 'PAGE_MAX_BYTES', 2 * 1024 * 1024, 64 * 1024, 16 * 1024 * 1024),
      maxRedirects: intVar(env, 'PAGE_MAX_REDIRECTS', 5, 0, 10),
      concurrency: intVar(env, 'PAGE_FETCH_CONCURRENCY', 32, 1, 1024),
    }),
    verdictTtl: Object.freeze({
      safeSeconds: intVar(env, 'VERDICT_TTL_SAFE_SECONDS', 600, 0, 86_400),
      cautionSeconds: intVar(env, 'VERDICT_TTL_CAUTION_SECONDS', 600, 0, 86_400),
      dangerSeconds: intVar(env, 'VERDICT_TTL_DANGER_SECONDS', 3600, 0, 86_400),
      incompleteSeconds: intVar(env, 'VERDICT_TTL_INCOMPLETE_SECONDS', 60, 0, 86_400),
    }),
    llm: llmVar(env),
  };
  return Object.freeze(config);
}

function raw(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
}

function httpTimeoutsVar(env: Env): HttpTimeouts {
  const headersMs = intVar(env, 'HTTP_HEADERS_TIMEOUT_MS', 10_000, 100, 120_000);
  const requestMs = intVar(env, 'HTTP_REQUEST_TIMEOUT_MS', 15_000, 100, 600_000);
  // Node refuses a request bound below the headers bound (the headers are part of the request).
  if (requestMs < headersMs) {
    throw new ConfigError('HTTP_REQUEST_TIMEOUT_MS must not be below HTTP_HEADERS_TIMEOUT_MS');
  }
  const keepAliveMs = intVar(env, 'HTTP_KEEP_ALIVE_TIMEOUT_MS', 5000, 100, 600_000);
  return Object.freeze({ headersMs, requestMs, keepAliveMs });
}

function intVar(env: Env, name: string, fallback: number, min: number, max: number): number {
  const value = raw(env, name);
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value)) throw new ConfigError(`${name} must be an integer, got "${value}"`);
  const n = Number(value);
  if (n < min || n > max) throw new ConfigError(`${name} must be between ${min} and ${max}`);
  return n;
}

function stringVar(env: Env, name: string, fallback: string, pattern: RegExp): string {
  const value = raw(env, name) ?? fallback;
  if (!pattern.test(value)) throw new ConfigError(`${name} has an invalid value "${value}"`);
  return value;
}

function optionalVar(env: Env, name: string, pattern: RegExp): string | null {
  const value = raw(env, name);
  if (value === undefined) return null;
  if (!pattern.test(value)) throw new ConfigError(`${name} has an invalid value "${value}"`);
  return value;
}

function enumVar<T extends string>(env: Env, name: string, fallback: T, allowed: readonly T[]): T {
  const value = raw(env, name) ?? fallback;
  const found = allowed.find((a) => a === value);
  if (found === undefined) throw new ConfigError(`${name} must be one of ${allowed.join(', ')}`);
  return found;
}

function storeVar(env: Env): StoreLocation {
  const value = raw(env, 'DATABASE_URL') ?? 'sqlite:.linkguard/linkguard.db';
  if (value.startsWith('sqlite:')) {
    const path = value.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '');
    if (path === '') throw new ConfigError('DATABASE_URL sqlite: needs a file path or :memory:');
    return { kind: 'sqlite', path };
  }
  if (/^postgres(ql)?:\/\//.test(value)) return { kind: 'postgres', url: value };
  throw new ConfigError('DATABASE_URL must start with sqlite: or postgres://');
}

/**
 * REDIS_URL: `redis://` or `rediss://` (TLS) with a host; the value is never repeated in errors.
 */
function redisUrlVar(env: Env): string | null {
  const value = raw(env, 'REDIS_URL');
  if (value === undefined) return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError('REDIS_URL is not a URL (redis://[user:password@]host[:port][/db])');
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') {
    throw new ConfigError('REDIS_URL must start with redis:// or rediss://');
  }
  if (url.hostname === '') throw new ConfigError('REDIS_URL needs a host');
  return value;
}

function baseUrlVar(env: Env, port: number): string {
  const value = raw(env, 'PUBLIC_BASE_URL') ?? `http://localhost:${port}`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(`PUBLIC_BASE_URL is not a URL: "${value}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError('PUBLIC_BASE_URL must be http(s)');
  }
  if (url.search !== '' || url.hash !== '' || url.username !== '') {
    throw new ConfigError('PUBLIC_BASE_URL must be an origin with an optional path');
  }
  return url.href.replace(/\/$/, '');
}

function rpcUrlVar(env: Env, name: string, fallback: string): string {
  const value = raw(env, name) ?? fallback;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(`${name} is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(`${name} must be http(s)`);
  }
  // Provider URLs often carry an API key in the path or query: keep it, but never log it.
  return value;
}

/** Names proxy-addr (Fastify's `trustProxy`) accepts in a list beside addresses and CIDRs. */
const TRUST_PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * TRUST_PROXY (docs/decisions.md, decision 134): unset or `false` (the socket's address is the
 * client's), a hop count (the last `n` hops are proxies: the server must be reachable only
 * through them), or a comma-separated list of the proxies' addresses, CIDRs or proxy-addr's
 * names `loopback`, `linklocal`, `uniquelocal` (only a peer in the list is believed). `true`
 * (trust every hop) is refused: the client address would be the first X-Forwarded-For entry,
 * which the client writes itself, so it could choose the address its limits count.
 */
function trustProxyVar(env: Env): TrustProxy {
  const value = raw(env, 'TRUST_PROXY');
  const usage =
    'TRUST_PROXY must be false, a hop count or a comma-separated list of proxy addresses/CIDRs';
  if (value === undefined || value === 'false') return false;
  if (value === 'true') {
    throw new ConfigError(
      `${usage}; true would let any client set its own address with X-Forwarded-For`,
    );
  }
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (hops > 32) throw new ConfigError(`${usage} (hop count 0–32)`);
    return hops === 0 ? false : hops;
  }
  const list = value.split(',').map((s) => s.trim());
  const valid = (entry: string): boolean =>
    TRUST_PROXY_NAMES.has(entry) ||
    ipaddr.IPv4.isValidFourPartDecimal(entry) ||
    ipaddr.IPv4.isValidCIDRFourPartDecimal(entry) ||
    ipaddr.IPv6.isValid(entry) ||
    ipaddr.IPv6.isValidCIDR(entry);
  if (list.some((entry) => !valid(entry))) throw new ConfigError(usage);
  return list;
}

/** Feed formats `FEEDS` may name: every parser format but `csv`, which needs column names. */
export const CONFIGURABLE_FEED_FORMATS = FEED_FORMATS.filter(
  (format): format is Exclude<FeedFormat, 'csv'> => format !== 'csv',
);

/** A feed format `FEEDS` may name; assignable to the parsers' `FeedFormat` (checked by tsc). */
export type ConfigurableFeedFormat = Exclude<FeedFormat, 'csv'>;

function feedsVar(
  env: Env,
): readonly { name: string; format: ConfigurableFeedFormat; url: string }[] {
  const value = raw(env, 'FEEDS');
  if (value === undefined) return Object.freeze([]);
  const feeds = value.split(/\s+/).map((item) => {
    const [name = '', format = '', ...rest] = item.split('=');
    const url = rest.join('=');
    if (!/^[a-z0-9][a-z0-9._-]{0,39}$/.test(name)) {
      throw new ConfigError(`FEEDS: "${name}" is not a feed name (a-z 0-9 . _ -, up to 40)`);
    }
    const known = CONFIGURABLE_FEED_FORMATS.find((f) => f === format);
    if (known === undefined) {
      throw new ConfigError(
        `FEEDS: feed ${name} has format "${format}"; use one of ${CONFIGURABLE_FEED_FORMATS.join(', ')}`,
      );
    }
    if (!/^https?:\/\/[^\s]+$/.test(url)) {
      throw new ConfigError(`FEEDS: feed ${name} needs an http(s) URL (name=format=url)`);
    }
    return Object.freeze({ name, format: known, url });
  });
  if (new Set(feeds.map((f) => f.name)).size !== feeds.length) {
    throw new ConfigError('FEEDS: feed names must be unique');
  }
  return Object.freeze(feeds);
}

function netResolveVar(env: Env): readonly ResolveOverride[] {
  const parsed = parseResolveOverrides(raw(env, 'NET_RESOLVE') ?? '');
  if (!parsed.ok) {
    throw new ConfigError(
      `NET_RESOLVE must be comma-separated host:port:address: ${parsed.message}`,
    );
  }
  return Object.freeze(parsed.overrides.map((o) => Object.freeze(o)));
}

/** Base URL of the Web Risk API: http(s), no query or fragment, without a trailing slash. */
function webRiskUrlVar(env: Env): string {
  const value = rpcUrlVar(env, 'WEB_RISK_URL', 'https://webrisk.googleapis.com');
  if (/[?#]/.test(value)) throw new ConfigError('WEB_RISK_URL must not have a query or fragment');
  return value.replace(/\/+$/, '');
}

/** LLM judge settings: both LLM_BASE_URL and LLM_MODEL set, or neither. */
function llmVar(env: Env): LlmConfig | null {
  const baseUrl = raw(env, 'LLM_BASE_URL');
  const model = raw(env, 'LLM_MODEL');
  // Validated even when unused, so a typo is reported rather than silently ignored.
  const timeoutMs = intVar(env, 'LLM_TIMEOUT_MS', 2500, 100, 30_000);
  const apiKey = secretVar(env, 'LLM_API_KEY');
  if (baseUrl === undefined && model === undefined) {
    if (apiKey !== null) throw new ConfigError('LLM_API_KEY is set without LLM_BASE_URL');
    return null;
  }
  if (baseUrl === undefined || model === undefined) {
    throw new ConfigError('LLM_BASE_URL and LLM_MODEL must be set together');
  }
  const url = rpcUrlVar(env, 'LLM_BASE_URL', baseUrl);
  if (/[?#]/.test(url)) throw new ConfigError('LLM_BASE_URL must not have a query or fragment');
  if (!/^[\x21-\x7e]{1,200}$/.test(model)) {
    throw new ConfigError('LLM_MODEL must be 1–200 printable characters without spaces');
  }
  return Object.freeze({
    baseUrl: url.replace(/\/+$/, ''),
    model,
    apiKey,
    timeoutMs,
  });
}

/** An optional secret: printable ASCII without spaces; the error never repeats the value. */
function secretVar(env: Env, name: string): string | null {
  const value = raw(env, name);
  if (value === undefined) return null;
  if (!/^[\x21-\x7e]{8,512}$/.test(value)) {
    throw new ConfigError(`${name} must be 8–512 printable characters without spaces`);
  }
  return value;
}

/**
 * LINKGUARD_SECRET: the server secret that keys the payment nonces' URL binding (HMAC-SHA256),
 * at least 32 characters (`openssl rand -hex 32` gives 64). Unset: the store keeps a generated one
 * (docs/decisions.md, "Hardening (issue 14)").
 */
/**
 * BASE_SETTLEMENT_PRIVATE_KEY: a secp256k1 private key, 0x + 64 hex digits (the form viem's
 * `privateKeyToAccount` takes). The error never quotes the value.
 */
function settlementKeyVar(env: Env): `0x${string}` | null {
  const value = raw(env, 'BASE_SETTLEMENT_PRIVATE_KEY');
  if (value === undefined) return null;
  if (!/^0x[0-9a-fA-F]{64}$/.test(value)) {
    throw new ConfigError('BASE_SETTLEMENT_PRIVATE_KEY must be 0x followed by 64 hex digits');
  }
  return value as `0x${string}`;
}

/**
 * X402_FACILITATOR_URL: the facilitator's base URL (the client appends `/verify`, `/settle`,
 * `/supported`), http(s) without query or fragment; a trailing slash is dropped.
 */
function facilitatorUrlVar(env: Env): string | null {
  const value = raw(env, 'X402_FACILITATOR_URL');
  if (value === undefined) return null;
  const url = rpcUrlVar(env, 'X402_FACILITATOR_URL', value);
  if (/[?#]/.test(url))
    throw new ConfigError('X402_FACILITATOR_URL must not have a query or fragment');
  return url.replace(/\/+$/, '');
}

function serverSecretVar(env: Env): string | null {
  const value = secretVar(env, 'LINKGUARD_SECRET');
  if (value !== null && value.length < 32) {
    throw new ConfigError('LINKGUARD_SECRET must be at least 32 characters (openssl rand -hex 32)');
  }
  return value;
}

function priceVar(env: Env): { priceUsdc: string; priceAtomic: bigint } {
  const value = raw(env, 'PRICE_USDC') ?? '0.01';
  const match = /^(\d{1,9})(?:\.(\d{1,6}))?$/.exec(value);
  if (match === null) throw new ConfigError('PRICE_USDC must be a decimal with at most 6 decimals');
  const whole = match[1] ?? '0';
  const fraction = (match[2] ?? '').padEnd(USDC_DECIMALS, '0');
  const priceAtomic = BigInt(whole) * 10n ** BigInt(USDC_DECIMALS) + BigInt(fraction);
  if (priceAtomic <= 0n) throw new ConfigError('PRICE_USDC must be positive');
  return { priceUsdc: value, priceAtomic };
}

/** A key pair file is a JSON array of 64 numbers: a few hundred bytes. */
const MAX_KEYPAIR_FILE_BYTES = 4096;
/**
 * DER prefix of a PKCS#8 Ed25519 private key, followed by the 32-byte seed (RFC 8410, §7 and
 * §10.3): Node derives the public key from it.
 */
const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/**
 * SOLANA_FEE_PAYER_KEYPAIR (docs/decisions.md, decision 158): the path of a key pair file as
 * `solana-keygen new -o <file>` writes it, or that file's content itself (a JSON array of 64
 * integers 0–255: the Ed25519 secret key, then the public key). Unset: null. The public half must
 * belong to the secret half. A secret: no error repeats the value, the path or the file.
 */
function solanaFeePayerKeypairVar(env: Env): SolanaFeePayerKeypair | null {
  const name = 'SOLANA_FEE_PAYER_KEYPAIR';
  const value = raw(env, name);
  if (value === undefined) return null;
  const usage = `${name} must be a solana-keygen key pair file's path or its content (a JSON array of 64 integers 0–255)`;
  let text = value;
  if (!value.startsWith('[')) {
    try {
      if (statSync(value).size > MAX_KEYPAIR_FILE_BYTES) {
        throw new ConfigError(`${usage}; the file named is larger than 4 KiB`);
      }
      text = readFileSync(value, 'utf8');
    } catch (error) {
      if (error instanceof ConfigError) throw error;
      const code = (error as { code?: unknown }).code;
      throw new ConfigError(
        `${usage}; the file named cannot be read (${typeof code === 'string' ? code : 'error'})`,
      );
    }
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ConfigError(`${usage}; it is not JSON`);
  }
  const isByte = (n: unknown): n is number =>
    Number.isInteger(n) && (n as number) >= 0 && (n as number) <= 255;
  if (!Array.isArray(parsed) || parsed.length !== 64 || !parsed.every(isByte)) {
    throw new ConfigError(`${usage}; it is not an array of 64 integers 0–255`);
  }
  const bytes = Uint8Array.from(parsed);
  const derived = createPublicKey(
    createPrivateKey({
      key: Buffer.concat([PKCS8_ED25519_PREFIX, bytes.subarray(0, 32)]),
      format: 'der',
      type: 'pkcs8',
    }),
  )
    .export({ format: 'der', type: 'spki' })
    .subarray(-32);
  if (!timingSafeEqual(derived, bytes.subarray(32))) {
    throw new ConfigError(`${name}: its last 32 bytes are not the public key of its first 32`);
  }
  return Object.freeze({
    address: getAddressDecoder().decode(bytes.subarray(32)),
    keypairBytes: () => bytes.slice(),
  });
}
