/**
 * @module service/detection-service
 * The one detection service behind every door (HTTP, CLI, later MCP): validate the URL, look it up
 * in threat intelligence (layer 2), run the engine, record non-safe verdicts in the per-domain
 * history, and for enterprise keys count the monthly allowance and write the usage row. Doors
 * stay thin, so a verdict is identical whichever door it came through (docs/architecture.md).
 */
import { hash } from 'node:crypto';

import { type Clock, monthOf, secondsToNextMonth } from '../clock.js';
import { applyOverride } from '../corrections/override-verdict.js';
import { VerdictOverrides } from '../corrections/verdict-overrides.js';
import { BoundedMemo } from '../engine/bounded-memo.js';
import type { Engine } from '../engine/create-engine.js';
import { analyzeParsedUrl, judgeAnalysedUrl } from '../engine/detect.js';
import type { LayerCoverage } from '../engine/scoring/build-verdict.js';
import { normalizeUrl, type ParsedUrl } from '../engine/url/normalize-url.js';
import type { Verdict } from '../engine/verdict.js';
import { AppError } from '../errors.js';
import { historyKey, historyKeyOf } from '../intel/history-key.js';
import type { IntelLayer } from '../intel/intel-layer.js';
import type { DetectionObserver } from '../observability/observer.js';
import type { PageLayer } from '../page/page-layer.js';
import type { ApiKeyRecord } from '../store/ports/key-store.js';
import type { Store } from '../store/ports/store.js';
import { decidingLayer } from './deciding-layer.js';
import { type JudgedVerdict, judgeWithPage } from './judge-with-page.js';
import type { SharedVerdictCache } from './shared-verdict-cache.js';
import { timedStep } from './timed-step.js';
import { DEFAULT_VERDICT_CACHE_SIZE, VerdictCache } from './verdict-cache.js';

/** How long a verdict is served from the cache before it is judged again. */
export interface VerdictTtlConfig {
  /** VERDICT_TTL_SAFE_SECONDS, default 600. */
  safeSeconds: number;
  /** VERDICT_TTL_CAUTION_SECONDS, default 600. */
  cautionSeconds: number;
  /** VERDICT_TTL_DANGER_SECONDS, default 3600. */
  dangerSeconds: number;
  /**
   * Verdicts with a gap (domain age unknown, page not analysed) are re-judged sooner
   * (VERDICT_TTL_INCOMPLETE_SECONDS, default 60).
   */
  incompleteSeconds: number;
}

/** Layers of a service without threat intelligence or page analysis; verdicts say so. */
export const SERVICE_COVERAGE: LayerCoverage = Object.freeze({
  intel: 'unavailable',
  page: 'unavailable',
});

/**
 * Default cache lifetimes (config VERDICT_TTL_*): feeds are refreshed and swapped (which also
 * clears the cache), a domain's age grows and a page can change, so verdicts are re-judged
 * after minutes; danger verdicts rarely turn safe and are kept longer; a verdict with a gap (domain
 * age unknown, page not analysed) is re-judged soon, when the gap may be filled.
 */
export const DEFAULT_VERDICT_TTL: VerdictTtlConfig = Object.freeze({
  safeSeconds: 600,
  cautionSeconds: 600,
  dangerSeconds: 3600,
  incompleteSeconds: 60,
});

/** A fresh verdict and the name it is recorded under in the domain history (null: none). */
interface FreshVerdict {
  verdict: Verdict;
  historyKey: string | null;
}

/**
 * One request of an enterprise key, counted in its month (reserved when the key has a hard cap)
 * and not yet judged: {@link DetectionService.admitForKey} → {@link DetectionService.judgeAdmitted}.
 */
export interface KeyAdmission {
  readonly key: ApiKeyRecord;
  /** Clock time of the admission, ms since the epoch: the usage row's time. */
  readonly at: number;
  /** The month (`YYYY-MM`, UTC) a hard-capped key reserved the request in; null: no reservation. */
  readonly reservedMonth: string | null;
  /** `performance.now()` at admission: the usage row's latency runs from here. */
  readonly started: number;
}

/** Length of the truncated hash in the usage log: 16 hex characters = 64 bits (README, "Limitations and security considerations"). */
const USAGE_HASH_HEX = 16;

/** Raw inputs whose parse is remembered (same bound as the verdict cache). */
const PARSE_MEMO_SIZE = DEFAULT_VERDICT_CACHE_SIZE;

export class DetectionService {
  private readonly cache: VerdictCache;
  /** Level 2 of the verdict cache, shared by instances (REDIS_URL); null: level 1 only. */
  private readonly shared: SharedVerdictCache | null;
  /** Parsed URLs by raw input, for inputs seen twice: repeats skip parsing (bounded). */
  private readonly parsedInputs = new BoundedMemo<ParsedUrl>(PARSE_MEMO_SIZE, true);

  private readonly absentLayers: 'unavailable' | 'offline';
  private readonly page: PageLayer | null;
  private readonly ttl: VerdictTtlConfig;
  private readonly onPageError: ((error: unknown) => void) | undefined;
  /** Told about served verdicts, cache lookups and layer durations (metrics); null: nothing. */
  private readonly observer: DetectionObserver | null;
  /** The operator's overrides, applied to every verdict served. */
  private readonly overrides: VerdictOverrides;
  /** Fresh judgements in progress by normalized URL: concurrent requests share one page fetch. */
  private readonly inflight = new Map<string, Promise<FreshVerdict>>();

  /**
   * @param engine the built engine.
   * @param store the store (usage log, monthly allowances).
   * @param clock time source.
   * @param intel layer 2; null when the service runs without it (verdicts then say so).
   * @param options.absentLayers how a layer that does not run is reported (`offline`: the CLI's
   *   `--offline`); `cacheSize`: verdicts kept (0 disables the cache); `page`: layer 3, null
   *   without it; `verdictTtl`: cache lifetimes by verdict; `onPageError`: told when an
   *   analyzer throws on a page (the verdict then rests on layers 1–2) or the LLM judge fails;
   *   `sharedCache`: verdicts shared with other instances, read on a miss of the in-process
   *   cache and written with each verdict that enters it (docs/decisions.md, decision 117);
   *   `observer`: told about every served verdict, verdict-cache lookup and layer duration
   *   (the metrics, only when METRICS_TOKEN is set; docs/decisions.md, decision 150).
   */
  constructor(
    private readonly engine: Engine,
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly intel: IntelLayer | null = null,
    options: {
      absentLayers?: 'unavailable' | 'offline';
      cacheSize?: number;
      page?: PageLayer | null;
      verdictTtl?: VerdictTtlConfig;
      onPageError?: (error: unknown) => void;
      sharedCache?: SharedVerdictCache | null;
      observer?: DetectionObserver | null;
    } = {},
  ) {
    this.cache = new VerdictCache(options.cacheSize ?? DEFAULT_VERDICT_CACHE_SIZE, () =>
      this.clock.now(),
    );
    this.absentLayers = options.absentLayers ?? 'unavailable';
    this.page = options.page ?? null;
    this.ttl = options.verdictTtl ?? DEFAULT_VERDICT_TTL;
    this.onPageError = options.onPageError;
    this.shared = options.sharedCache ?? null;
    this.observer = options.observer ?? null;
    this.overrides = new VerdictOverrides(this.store.overrides, this.clock);
  }

  /** Which layers run now (feeds may be imported while the service runs). */
  coverage(): LayerCoverage {
    const intel = this.intel?.coverage === 'ran' ? 'ran' : this.absentLayers;
    return { intel, page: this.page === null ? this.absentLayers : 'ran' };
  }

  /** Forget cached verdicts: call when the threat index was swapped. */
  clearCache(): void {
    this.cache.clear();
  }

  /**
   * Validate a submitted URL.
   *
   * @throws {AppError} `invalid_url` with the rejection reason (`too_long`, `private_address`, …).
   */
  parse(input: string): ParsedUrl {
    const known = this.parsedInputs.get(input);
    if (known !== undefined) return known;
    const result = normalizeUrl(input);
    if (!result.ok) throw new AppError('invalid_url', result.message, { reason: result.reason });
    return this.parsedInputs.remember(input, result.url);
  }

  /** SHA-256 (hex) of the normalized URL: what nonces are bound to. */
  urlSha256(url: ParsedUrl): string {
    return hash('sha256', url.href, 'hex');
  }

  /**
   * Judge a validated URL, from the verdict cache when it was judged before, and record a
   * non-safe verdict in the domain's history. An operator's override that covers the URL decides
   * the verdict served (`corrections/override-verdict.ts`); the cache keeps the layers' verdict,
   * so adding or removing an override takes effect on the next request. Never fails because of
   * layer 2 (its sources degrade to unknown).
   *
   * @throws what the store throws when the overrides cannot be read (`service_unavailable`).
   */
  async judge(url: ParsedUrl): Promise<Verdict> {
    // Read before judging, so an override committed before the request is never missed.
    const override = await this.overrides.match(url);
    const observer = this.observer;
    const cached = this.cache.get(url.href);
    let verdict: Verdict;
    let history: () => string | null;
    if (cached !== undefined) {
      observer?.cacheLookup('l1', true);
      verdict = cached;
      // A cached verdict's history key comes from the URL; a fresh one's from its analysis.
      history = () => historyKey(this.engine, url);
    } else {
      observer?.cacheLookup('l1', false);
      let pending = this.inflight.get(url.href);
      if (pending === undefined) {
        pending = this.judgeMiss(url).finally(() => this.inflight.delete(url.href));
        this.inflight.set(url.href, pending);
      }
      const fresh = await pending;
      verdict = fresh.verdict;
      history = () => fresh.historyKey;
    }
    if (override !== null) {
      // The operator's word is served but not recorded in the history: the history holds what
      // the layers observed, and an override removed later must leave nothing behind.
      const served = applyOverride(verdict, override);
      observer?.verdictServed(served.verdict, 'override');
      return served;
    }
    observer?.verdictServed(verdict.verdict, decidingLayer(verdict));
    if (verdict.verdict !== 'safe') this.recordHistory(history(), verdict);
    return verdict;
  }

  /**
   * A miss of the in-process cache: the shared cache's verdict when it has one (kept in process
   * for the rest of its lifetime), else a fresh judgement, shared when it enters the in-process
   * cache.
   */
  private async judgeMiss(url: ParsedUrl): Promise<FreshVerdict> {
    if (this.shared === null) return this.judgeFresh(url);
    // The key is taken before judging: a verdict judged across an index swap is stored under
    // the generation it was judged with, never under the new one.
    const key = this.shared.keyFor(url.href);
    const hit = await this.shared.read(key);
    this.observer?.cacheLookup('l2', hit !== undefined);
    if (hit !== undefined) {
      // Judged elsewhere: no analysis here, so the history key comes from the URL.
      const verdict = this.cache.set(url.href, hit.verdict, hit.ttlMs, true);
      return { verdict, historyKey: historyKey(this.engine, url) };
    }
    return this.judgeFresh(url, (verdict, ttlMs) => {
      this.shared?.write(key, verdict, ttlMs);
    });
  }

  /**
   * Judge with every layer there is, and cache the verdict for its verdict's lifetime. The URL is
   * analysed once here (`analyzeParsedUrl()`); layer 2, layer 3 and the engine's verdict all
   * read that one analysis.
   *
   * @param onCached told when the verdict entered the in-process cache (with its lifetime, ms).
   */
  private async judgeFresh(
    url: ParsedUrl,
    onCached?: (verdict: Verdict, ttlMs: number) => void,
  ): Promise<FreshVerdict> {
    const started = performance.now();
    const analysis = analyzeParsedUrl(this.engine, url);
    const observer = this.observer;
    observer?.layerTimed('url_rules', performance.now() - started);
    const coverage = this.coverage();
    const intel = coverage.intel === 'ran' ? this.intel : null;
    let judged: JudgedVerdict;
    if (this.page !== null) {
      judged = await judgeWithPage(
        {
          engine: this.engine,
          intel,
          page: this.page,
          coverage,
          ...(this.onPageError === undefined ? {} : { onPageError: this.onPageError }),
          observer,
        },
        analysis,
        started,
      );
    } else if (intel === null) {
      judged = { verdict: judgeAnalysedUrl(this.engine, analysis, coverage), incomplete: false };
    } else {
      const evidence = await timedStep(
        intel.evidence(analysis),
        observer,
        'intel',
        performance.now(),
      );
      judged = {
        verdict: judgeAnalysedUrl(this.engine, analysis, coverage, evidence),
        incomplete: evidence.domainAge.status === 'unknown' && intel.hasDomainAge,
      };
    }
    const seconds = judged.incomplete
      ? this.ttl.incompleteSeconds
      : judged.verdict.verdict === 'danger'
        ? this.ttl.dangerSeconds
        : judged.verdict.verdict === 'caution'
          ? this.ttl.cautionSeconds
          : this.ttl.safeSeconds;
    const verdict = this.cache.set(url.href, judged.verdict, seconds * 1000, this.page !== null);
    // The in-process cache freezes what it keeps (see VerdictCache.set).
    if (onCached !== undefined && Object.isFrozen(verdict)) onCached(verdict, seconds * 1000);
    return { verdict, historyKey: historyKeyOf(analysis) };
  }

  private recordHistory(domain: string | null, verdict: Verdict): void {
    if (domain === null) return;
    const sources = verdict.details.matched_patterns
      .filter((code) => code.startsWith('intel:'))
      .map((code) => code.slice('intel:'.length));
    void this.store.intel
      .recordHistory([
        {
          domain,
          at: this.clock.now(),
          verdict: verdict.verdict === 'danger' ? 'danger' : 'caution',
          threatTypes: verdict.threat_types,
          sources,
        },
      ])
      .catch(() => {
        // Best effort: the history must never fail a verdict.
      });
  }

  /**
   * Judge a URL for an enterprise key, then log usage (key, time, truncated URL hash, verdict,
   * latency — nothing else about the URL). A key with a hard monthly cap first reserves one
   * request of its month atomically (refused at the cap; given back if judging fails); for the
   * others the usage log itself is the month's count (README "Enterprise keys": report, do not refuse).
   * The same as {@link admitForKey} then {@link judgeAdmitted}.
   *
   * @throws {AppError} `rate_limited` when a hard monthly cap is reached.
   */
  async judgeForKey(key: ApiKeyRecord, url: ParsedUrl): Promise<Verdict> {
    return this.judgeAdmitted(await this.admitForKey(key), url);
  }

  /**
   * Count one request of `key`'s month: a key with a hard monthly cap reserves it atomically in
   * the store; any other key is counted by its usage row once judged. Doors that judge several
   * URLs for one key admit them one by one in input order, so which of them the cap refuses does
   * not depend on timing (docs/decisions.md, decision 185).
   *
   * @returns the admission to pass to {@link judgeAdmitted} exactly once.
   * @throws {AppError} `rate_limited` (reason `monthly_allowance`, `retryAfter` = seconds to the
   *   next month, UTC) when a hard monthly cap is reached; nothing is reserved then.
   */
  async admitForKey(key: ApiKeyRecord): Promise<KeyAdmission> {
    const now = this.clock.now();
    // Only a hard cap needs the month on this path (README "Enterprise keys": otherwise report, do not refuse).
    const capped =
      key.hardCap && key.monthlyAllowance !== null
        ? { cap: key.monthlyAllowance, month: monthOf(now) }
        : null;
    if (capped !== null) {
      const reservation = await this.store.usage.reserveMonthly(key.id, capped.month, capped.cap);
      if (!reservation.ok) {
        this.observer?.allowanceRefused();
        throw new AppError('rate_limited', 'The monthly allowance of this key is used up', {
          retryAfter: secondsToNextMonth(now),
          reason: 'monthly_allowance',
        });
      }
    }
    return { key, at: now, reservedMonth: capped?.month ?? null, started: performance.now() };
  }

  /**
   * Judge a URL on an admitted request of a key and write its usage row; a reservation is given
   * back when judging fails.
   *
   * @param admission from {@link admitForKey}, used once.
   * @throws what judging throws (the reservation is released first).
   */
  async judgeAdmitted(admission: KeyAdmission, url: ParsedUrl): Promise<Verdict> {
    const { key, reservedMonth } = admission;
    let verdict: Verdict;
    try {
      verdict = await this.judge(url);
    } catch (error) {
      if (reservedMonth !== null) await this.store.usage.releaseMonthly(key.id, reservedMonth);
      throw error;
    }
    await this.store.usage.recordUsage({
      keyId: key.id,
      at: admission.at,
      urlHash: this.urlSha256(url).slice(0, USAGE_HASH_HEX),
      verdict: verdict.verdict,
      latencyMs: performance.now() - admission.started,
    });
    return verdict;
  }
}
