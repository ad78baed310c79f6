/**
 * @module intel/web-risk/web-risk-client
 * Google Web Risk Lookup API (`uris.search`), one URL per request, through the SSRF-safe client.
 *
 * Request and response as documented (sources, Google Cloud documentation):
 * - https://cloud.google.com/web-risk/docs/reference/rest/v1/uris/search — `GET
 *   https://webrisk.googleapis.com/v1/uris:search`, query `uri` (required) and repeated
 *   `threatTypes` (required); response `{"threat": {"threatTypes": [...], "expireTime": RFC 3339}}`,
 *   `threat` "might be empty if the URI is on no list".
 * - https://cloud.google.com/web-risk/docs/lookup-api — API-key form `...&key=API_KEY`; GET
 *   parameters must be URL-encoded; the URL need not be canonicalized; no match gives `{}`.
 * - https://cloud.google.com/web-risk/docs/extended-coverage — `SOCIAL_ENGINEERING_EXTENDED_COVERAGE`
 *   improves phishing coverage "with a small amount (<10%) of potential false positives": callers
 *   should treat a match on that list alone as caution, not danger (detection guide §4.5).
 * - https://cloud.google.com/web-risk/docs/caching — Lookup API clients "should cache each returned
 *   ThreatUrl item until the time defined in the expireTime field". Nothing is said about caching
 *   `{}`: linkguard caches a not-listed answer for 5 minutes, the cache duration Safe Browsing v4's
 *   Lookup API documents in its example (developers.google.com/safe-browsing/v4/caching). New
 *   phishing URLs get listed within minutes, so a longer negative TTL would hide fresh listings;
 *   5 minutes still absorbs bursts of checks for the same link.
 * - https://cloud.google.com/web-risk/docs/status-codes — 400 invalid argument, 403 permission
 *   denied (e.g. invalid API key), 429 quota/rate limit, 500/503/504; "clients that receive an
 *   unsuccessful HTTP response ... must enter back-off mode". Errors use the Google JSON error body
 *   `{"error": {"code", "message", "status"}}`.
 *
 * Back-off: after an unsuccessful response the client makes no request for 1 minute, doubling per
 * consecutive failure up to 30 minutes, and answers `unknown/backing_off` meanwhile. A 400 does not
 * start back-off: it concerns the URL checked, and letting one odd URL pause Web Risk would let an
 * attacker blind the lookup for the link sent right after it.
 *
 * The API key travels in the query string, so it is in the request URL. It never leaves this module
 * in a result, and any text taken from a response is scrubbed of it before it becomes `detail`.
 * Errors never escape: every failure is an `unknown` value.
 */
import type { Clock } from '../../clock.js';
import { type HttpClient, isNetError } from '../../net/index.js';
import { TtlLru } from '../rdap/ttl-lru.js';

/** Google's endpoint; `WEB_RISK_URL` replaces it (tests point it at a local server). */
export const WEB_RISK_DEFAULT_URL = 'https://webrisk.googleapis.com';
/** Threat lists always searched (ThreatType enum of the v1 API, minus UNSPECIFIED). */
export const WEB_RISK_THREAT_TYPES = [
  'MALWARE',
  'SOCIAL_ENGINEERING',
  'UNWANTED_SOFTWARE',
] as const;
export const WEB_RISK_EXTENDED_COVERAGE = 'SOCIAL_ENGINEERING_EXTENDED_COVERAGE';

/** Why Web Risk gave no answer. */
export type WebRiskUnknownReason =
  /** No answer within `timeoutMs`. */
  | 'timeout'
  /** Network failure (DNS, connect, protocol) or a 5xx. */
  | 'unavailable'
  /** 429: quota or rate limit. */
  | 'rate_limited'
  /** 401/403: the key is invalid, restricted, or the API is not enabled for the project. */
  | 'denied'
  /** 400 or another 4xx: the request (usually the URL) was refused. */
  | 'rejected'
  /** The body is not the documented JSON. */
  | 'malformed'
  /** A recent unsuccessful response put the client in back-off mode; no request was made. */
  | 'backing_off';

export type WebRiskResult =
  | { status: 'listed'; threatTypes: string[] }
  | { status: 'not_listed' }
  | {
      status: 'unknown';
      reason: WebRiskUnknownReason;
      /** Google's error status and message when it sent one; never contains the API key. */
      detail?: string;
    };

export interface WebRiskClient {
  /** Check one URL (absolute http(s), as normalised by the caller). Never rejects. */
  lookup(url: string): Promise<WebRiskResult>;
}

export interface WebRiskClientOptions {
  http: HttpClient;
  apiKey: string;
  clock: Clock;
  /** Default {@link WEB_RISK_DEFAULT_URL}; origin with an optional path, no trailing slash needed. */
  baseUrl?: string;
  /** Budget of one request, ms (default 800, like the other layer-2 lookups). */
  timeoutMs?: number;
  /** URLs remembered (default 10,000). */
  cacheSize?: number;
  /** Also search SOCIAL_ENGINEERING_EXTENDED_COVERAGE (default true, guide §4.5). */
  extendedCoverage?: boolean;
}

const DEFAULT_TIMEOUT_MS = 800;
const DEFAULT_CACHE_SIZE = 10_000;
/** `{}` or one small threat object; 64 KB also holds any Google error body. */
const MAX_RESPONSE_BYTES = 64 * 1024;
const NOT_LISTED_TTL_MS = 5 * 60 * 1000;
/** Upper bound on a listed entry whatever `expireTime` says. */
const MAX_LISTED_TTL_MS = 24 * 60 * 60 * 1000;
const BACKOFF_BASE_MS = 60 * 1000;
const BACKOFF_MAX_MS = 30 * 60 * 1000;
const MAX_DETAIL_CHARS = 300;

type Cached = { status: 'listed'; threatTypes: string[] } | { status: 'not_listed' };

/**
 * Create the Web Risk client. Create it only when WEB_RISK_API_KEY is set.
 *
 * @throws {RangeError} for an empty key or a `timeoutMs` outside 1–30,000 (programming errors).
 */
export function createWebRiskClient(options: WebRiskClientOptions): WebRiskClient {
  const { http, apiKey, clock } = options;
  const baseUrl = (options.baseUrl ?? WEB_RISK_DEFAULT_URL).replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (apiKey.length === 0) throw new RangeError('Web Risk needs an API key');
  if (!Number.isInteger(timeoutMs) || timeoutMs < 1 || timeoutMs > 30_000) {
    throw new RangeError('Web Risk timeoutMs must be an integer in 1–30000');
  }
  const threatTypes: readonly string[] =
    options.extendedCoverage === false
      ? WEB_RISK_THREAT_TYPES
      : [...WEB_RISK_THREAT_TYPES, WEB_RISK_EXTENDED_COVERAGE];
  const threatQuery = threatTypes.map((t) => `threatTypes=${t}`).join('&');
  const cache = new TtlLru<Cached>(options.cacheSize ?? DEFAULT_CACHE_SIZE);
  const inflight = new Map<string, Promise<WebRiskResult>>();
  let failures = 0;
  let backoffUntil = 0;

  const redact = (text: string): string =>
    text.split(apiKey).join('[redacted]').split(encodeURIComponent(apiKey)).join('[redacted]');

  function unsuccessful(reason: WebRiskUnknownReason, detail?: string): WebRiskResult {
    failures += 1;
    backoffUntil = clock.now() + Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** (failures - 1));
    return unknownResult(reason, detail);
  }

  function unknownResult(reason: WebRiskUnknownReason, detail?: string): WebRiskResult {
    return detail === undefined
      ? { status: 'unknown', reason }
      : { status: 'unknown', reason, detail: redact(detail).slice(0, MAX_DETAIL_CHARS) };
  }

  async function search(url: string): Promise<WebRiskResult> {
    const requestUrl = `${baseUrl}/v1/uris:search?${threatQuery}&uri=${encodeURIComponent(url)}&key=${encodeURIComponent(apiKey)}`;
    let response;
    try {
      response = await http.fetch(requestUrl, {
        method: 'GET',
        headers: { accept: 'application/json' },
        timeoutMs,
        maxBytes: MAX_RESPONSE_BYTES,
        maxRedirects: 0,
      });
    } catch (error) {
      // Never surface the NetError: its message and `url` carry the key.
      if (isNetError(error) && error.code === 'timeout') return unknownResult('timeout');
      return unknownResult(
        isNetError(error) && error.code === 'too_large' ? 'malformed' : 'unavailable',
      );
    }
    const text = response.body.toString('utf8');
    if (response.status !== 200) {
      const detail = googleErrorDetail(text);
      if (response.status === 400) return unknownResult('rejected', detail);
      if (response.status === 401 || response.status === 403) return unsuccessful('denied', detail);
      if (response.status === 429) return unsuccessful('rate_limited', detail);
      if (response.status >= 500) return unsuccessful('unavailable', detail);
      return unsuccessful('rejected', detail);
    }
    failures = 0;
    const parsed = parseSearchResponse(text);
    if (parsed === null) return unknownResult('malformed');
    const now = clock.now();
    if (parsed.status === 'not_listed') {
      cache.set(url, parsed.result, now + NOT_LISTED_TTL_MS);
    } else if (parsed.expireTime !== null && parsed.expireTime > now) {
      cache.set(url, parsed.result, Math.min(parsed.expireTime, now + MAX_LISTED_TTL_MS));
    }
    // A listing without a usable expireTime is reported but not cached ("must not cache past").
    return parsed.result.status === 'listed'
      ? { status: 'listed', threatTypes: [...parsed.result.threatTypes] }
      : { status: 'not_listed' };
  }

  return {
    async lookup(url: string): Promise<WebRiskResult> {
      const cached = cache.get(url, clock.now());
      if (cached !== undefined) {
        return cached.status === 'listed'
          ? { status: 'listed', threatTypes: [...cached.threatTypes] }
          : { status: 'not_listed' };
      }
      const running = inflight.get(url);
      if (running !== undefined) return running;
      if (clock.now() < backoffUntil) return unknownResult('backing_off');
      const started = search(url)
        .catch(() => unknownResult('unavailable'))
        .finally(() => inflight.delete(url));
      inflight.set(url, started);
      return started;
    },
  };
}

type ParsedSearch =
  | { status: 'not_listed'; result: Cached }
  | { status: 'listed'; result: Cached; expireTime: number | null };

/** `{}` or `{threat: {}}` → not listed; `{threat: {threatTypes: [...], expireTime}}` → listed. */
function parseSearchResponse(text: string): ParsedSearch | null {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isRecord(body)) return null;
  const threat = body.threat;
  if (threat === undefined || threat === null) {
    return { status: 'not_listed', result: { status: 'not_listed' } };
  }
  if (!isRecord(threat)) return null;
  const types = threat.threatTypes;
  if (types === undefined || (Array.isArray(types) && types.length === 0)) {
    return { status: 'not_listed', result: { status: 'not_listed' } };
  }
  if (!Array.isArray(types) || !types.every((t): t is string => typeof t === 'string')) return null;
  const expire = typeof threat.expireTime === 'string' ? Date.parse(threat.expireTime) : Number.NaN;
  return {
    status: 'listed',
    result: { status: 'listed', threatTypes: types },
    expireTime: Number.isFinite(expire) ? expire : null,
  };
}

/** `STATUS: message` from a Google JSON error body, or undefined. */
function googleErrorDetail(text: string): string | undefined {
  try {
    const body: unknown = JSON.parse(text);
    if (!isRecord(body) || !isRecord(body.error)) return undefined;
    const { status, message } = body.error;
    const parts = [status, message].filter((p): p is string => typeof p === 'string' && p !== '');
    return parts.length === 0 ? undefined : parts.join(': ');
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
