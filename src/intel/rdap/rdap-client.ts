/**
 * @module intel/rdap/rdap-client
 * Domain age over RDAP (detection guide §5, `fresh_domain`): `{base}domain/{name}` on the server
 * the bootstrap names, through the SSRF-safe client, with a bounded cache, per-domain in-flight
 * de-duplication and a hard latency budget.
 *
 * Latency (guide §5.5): a caller never waits longer than `timeoutMs` (≤ 800 ms). When the registry
 * is slower, the caller gets `unknown/timeout` at the deadline while the request goes on in the
 * background (capped by `backgroundTimeoutMs`, default 5 s) and fills the cache, so the next
 * verdict for that domain is fast and complete.
 *
 * Cache: a registration date for 24 h (or until the domain's `expiration` event, if sooner); a
 * failure or unknown answer for 1 h, longer when a 429/503 carries `Retry-After` (at most 6 h).
 * The age in days is derived from the cached date at read time, so a 5-day-old domain is 6 days
 * old tomorrow without a new request. Errors never escape: every failure is an `unknown` value.
 *
 * Callers pass a registrable domain (`example.co.uk`, tldts with private suffixes), and must not
 * ask for hosting-platform subdomains (`x.pages.dev`, guide §1.7, §5.3): the age of the platform
 * says nothing about the tenant, so those get `free_hosting_subdomain` instead of an age.
 */
import { domainToASCII } from 'node:url';

import type { Clock } from '../../clock.js';
import { type HttpClient, isNetError } from '../../net/index.js';
import { parseRdapDomain } from './parse-rdap-domain.js';
import type { RdapBootstrap } from './rdap-bootstrap.js';
import { TtlLru } from './ttl-lru.js';

/** Why no age is known. */
export type DomainAgeUnknownReason =
  /** Neither the IANA bootstrap nor the overrides name a server for the TLD (no request made). */
  | 'no_rdap_server'
  /** The registry answered 404: no such registration. */
  | 'not_found'
  /** No answer within the caller's budget (the request may still complete in the background). */
  | 'timeout'
  /** Network failure, 429, 5xx or another unexpected status. */
  | 'unavailable'
  /** The answer is not JSON, not a domain object for this name, too large, or its dates are unusable. */
  | 'malformed'
  /** A valid domain object without a `registration` or `reregistration` event. */
  | 'no_registration_date'
  /** The input is not a domain name. */
  | 'invalid_domain'
  /** RDAP lookups are switched off (`RDAP_ENABLED=false`). */
  | 'disabled';

/** Age of a registrable domain. */
export type DomainAge =
  | {
      status: 'known';
      /** Epoch ms of the registration (or later re-registration) event. */
      registeredAt: number;
      /** Whole days from `registeredAt` to now (≥ 0), derived at read time. */
      ageDays: number;
      /** Which RDAP event `registeredAt` comes from (see parse-rdap-domain.ts). */
      basis: 'registration' | 'reregistration';
    }
  | { status: 'unknown'; reason: DomainAgeUnknownReason }
  /**
   * The TLD restricts registration to vetted institutions (edu, gov, int, mil; data/SOURCES.md):
   * old by policy. Do not emit `fresh_domain` and do not lower confidence. No request is made.
   */
  | { status: 'exempt'; reason: 'restricted_tld'; tld: string };

export interface RdapClient {
  /**
   * The age of `registrableDomain`, within `timeoutMs`. Never rejects.
   *
   * @param registrableDomain e.g. `example.com`; not a hosting-platform subdomain (module comment).
   */
  domainAge(registrableDomain: string): Promise<DomainAge>;
  /** The answer available without a request (cached, exempt, no server), or undefined. */
  peek(registrableDomain: string): DomainAge | undefined;
  /** Resolves once the requests in flight now (background fills included) have finished. */
  whenIdle(): Promise<void>;
}

export interface RdapClientOptions {
  http: HttpClient;
  bootstrap: RdapBootstrap;
  clock: Clock;
  /** Longest a caller waits, ms (default 800; 1–800, guide §5.5). */
  timeoutMs?: number;
  /** Hard cap of one registry request, background included, ms (default 5000). */
  backgroundTimeoutMs?: number;
  /** Domains remembered (default 10,000). */
  cacheSize?: number;
}

export const RDAP_DEFAULT_TIMEOUT_MS = 800;
export const RDAP_MAX_TIMEOUT_MS = 800;
const DEFAULT_BACKGROUND_TIMEOUT_MS = 5000;
const DEFAULT_CACHE_SIZE = 10_000;
/** Domain objects are a few KB; 256 KB bounds memory per request with a wide margin. */
const MAX_RESPONSE_BYTES = 256 * 1024;
/** RDAP servers redirect (rdap.org, registry → registrar); guide §5.1 "follow redirects". */
const MAX_REDIRECTS = 3;
const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;
const POSITIVE_TTL_MS = DAY_MS;
/** Guide §5.5: negative and error results 1–6 h; 1 h, longer only when the registry asks. */
const NEGATIVE_TTL_MS = HOUR_MS;
const MAX_RETRY_AFTER_MS = 6 * HOUR_MS;
/**
 * RFC 7480 §4.2: ask for `application/rdap+json`; `application/json` and a wildcard are accepted
 * too because some registries refuse the RDAP type alone (rdap.nic.fr did, per the recorded
 * interactions of the `rdap` Ruby gem, jarthod/rdap, 2022-12-29).
 */
const RDAP_ACCEPT = 'application/rdap+json, application/json;q=0.9, */*;q=0.8';

type CachedAnswer =
  | { kind: 'known'; registeredAt: number; basis: 'registration' | 'reregistration' }
  | { kind: 'unknown'; reason: DomainAgeUnknownReason };

/** What one registry request produced, with how long it may be cached. */
interface Outcome {
  answer: CachedAnswer;
  expiresAt: number;
}

/** A client for which every domain is `unknown/disabled` (`RDAP_ENABLED=false`). */
export const disabledRdapClient: RdapClient = Object.freeze({
  domainAge: () => Promise.resolve(unknown('disabled')),
  peek: () => unknown('disabled'),
  whenIdle: () => Promise.resolve(),
});

/**
 * Create the RDAP domain-age client.
 *
 * @throws {RangeError} when `timeoutMs` is not an integer in 1–800 or `backgroundTimeoutMs` is
 * shorter than `timeoutMs` (programming errors; config validates RDAP_TIMEOUT_MS).
 */
export function createRdapClient(options: RdapClientOptions): RdapClient {
  const { http, bootstrap, clock } = options;
  const timeoutMs = options.timeoutMs ?? RDAP_DEFAULT_TIMEOUT_MS;
  const backgroundTimeoutMs = options.backgroundTimeoutMs ?? DEFAULT_BACKGROUND_TIMEOUT_MS;
  if (!Number.isInteger(timeoutMs) || timeoutMs < 1 || timeoutMs > RDAP_MAX_TIMEOUT_MS) {
    throw new RangeError(`RDAP timeoutMs must be an integer in 1–${RDAP_MAX_TIMEOUT_MS}`);
  }
  if (!Number.isInteger(backgroundTimeoutMs) || backgroundTimeoutMs < timeoutMs) {
    throw new RangeError('RDAP backgroundTimeoutMs must be an integer ≥ timeoutMs');
  }
  const cache = new TtlLru<CachedAnswer>(options.cacheSize ?? DEFAULT_CACHE_SIZE);
  const inflight = new Map<string, Promise<DomainAge>>();

  /** Answers that need no request: invalid input, restricted TLD, no server, or the cache. */
  function local(input: string): { done: DomainAge } | { domain: string; baseUrl: string } {
    const domain = normalizeDomain(input);
    if (domain === null) return { done: unknown('invalid_domain') };
    const server = bootstrap.lookup(domain);
    if (server.kind === 'restricted') {
      return { done: { status: 'exempt', reason: 'restricted_tld', tld: server.tld } };
    }
    if (server.kind === 'none') return { done: unknown('no_rdap_server') };
    const now = clock.now();
    const cached = cache.get(domain, now);
    if (cached !== undefined) return { done: toDomainAge(cached, now) };
    return { domain, baseUrl: server.baseUrl };
  }

  function start(domain: string, baseUrl: string): Promise<DomainAge> {
    const running = queryRegistry(domain, baseUrl)
      .catch((): Outcome => ({
        // queryRegistry handles every failure it knows; this is the never-throw backstop.
        answer: { kind: 'unknown', reason: 'unavailable' },
        expiresAt: clock.now() + NEGATIVE_TTL_MS,
      }))
      .then((outcome) => {
        cache.set(domain, outcome.answer, outcome.expiresAt);
        return toDomainAge(outcome.answer, clock.now());
      })
      .finally(() => inflight.delete(domain));
    inflight.set(domain, running);
    return running;
  }

  async function queryRegistry(domain: string, baseUrl: string): Promise<Outcome> {
    const fail = (reason: DomainAgeUnknownReason, ttlMs = NEGATIVE_TTL_MS): Outcome => ({
      answer: { kind: 'unknown', reason },
      expiresAt: clock.now() + ttlMs,
    });
    let response;
    try {
      response = await http.fetch(`${baseUrl}domain/${domain}`, {
        method: 'GET',
        headers: { accept: RDAP_ACCEPT },
        timeoutMs: backgroundTimeoutMs,
        maxBytes: MAX_RESPONSE_BYTES,
        maxRedirects: MAX_REDIRECTS,
      });
    } catch (error) {
      if (isNetError(error) && error.code === 'timeout') return fail('timeout');
      if (isNetError(error) && error.code === 'too_large') return fail('malformed');
      return fail('unavailable');
    }
    const { status } = response;
    if (status === 404) return fail('not_found');
    if (status === 429 || status === 503) {
      return fail('unavailable', retryAfterMs(response.headers['retry-after'], clock.now()));
    }
    if (status < 200 || status > 299) return fail('unavailable');
    let body: unknown;
    try {
      body = JSON.parse(response.body.toString('utf8'));
    } catch {
      return fail('malformed');
    }
    const now = clock.now();
    const parsed = parseRdapDomain(body, domain, now);
    if (!parsed.ok) return fail(parsed.reason);
    // Guide §5.5: keep the date until the domain expires if that comes first; an expiration already
    // past (redemption, pending delete) means the registration may change soon.
    const expiry = parsed.expiresAt;
    const expiresAt =
      expiry === null
        ? now + POSITIVE_TTL_MS
        : expiry > now
          ? Math.min(now + POSITIVE_TTL_MS, expiry)
          : now + NEGATIVE_TTL_MS;
    return {
      answer: { kind: 'known', registeredAt: parsed.registeredAt, basis: parsed.basis },
      expiresAt,
    };
  }

  return {
    async domainAge(registrableDomain: string): Promise<DomainAge> {
      const found = local(registrableDomain);
      if ('done' in found) return found.done;
      const running = inflight.get(found.domain) ?? start(found.domain, found.baseUrl);
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<DomainAge>((resolve) => {
        timer = setTimeout(() => {
          resolve(unknown('timeout'));
        }, timeoutMs);
      });
      try {
        return await Promise.race([running, deadline]);
      } finally {
        clearTimeout(timer);
      }
    },
    peek(registrableDomain: string): DomainAge | undefined {
      const found = local(registrableDomain);
      return 'done' in found ? found.done : undefined;
    },
    async whenIdle(): Promise<void> {
      await Promise.allSettled([...inflight.values()]);
    },
  };
}

function unknown(reason: DomainAgeUnknownReason): DomainAge {
  return { status: 'unknown', reason };
}

function toDomainAge(answer: CachedAnswer, now: number): DomainAge {
  if (answer.kind === 'unknown') return unknown(answer.reason);
  return {
    status: 'known',
    registeredAt: answer.registeredAt,
    ageDays: Math.max(0, Math.floor((now - answer.registeredAt) / DAY_MS)),
    basis: answer.basis,
  };
}

/** Lowercase ASCII (punycode) with at least two LDH labels, or null. */
function normalizeDomain(input: string): string | null {
  const ascii = domainToASCII(input.trim().replace(/\.$/, '')).toLowerCase();
  if (ascii.length === 0 || ascii.length > 253) return null;
  const labels = ascii.split('.');
  if (labels.length < 2) return null;
  const ldh = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
  return labels.every((l) => ldh.test(l)) ? ascii : null;
}

/**
 * Negative TTL honouring `Retry-After` (delta-seconds or HTTP-date, RFC 9110 §10.2.3): at least
 * the 1 h default, at most 6 h (guide §5.5 "respect Retry-After").
 */
function retryAfterMs(header: string | undefined, now: number): number {
  if (header === undefined) return NEGATIVE_TTL_MS;
  const value = header.trim();
  const ms = /^\d+$/.test(value) ? Number(value) * 1000 : Date.parse(value) - now;
  if (!Number.isFinite(ms)) return NEGATIVE_TTL_MS;
  return Math.min(MAX_RETRY_AFTER_MS, Math.max(NEGATIVE_TTL_MS, ms));
}
