/**
 * @module service/detection-service
 * The one detection service behind every door (HTTP, CLI, later MCP): validate the URL, run the
 * engine, and for enterprise keys count the monthly allowance and write the usage row. Doors stay
 * thin, so a verdict is identical whichever door it came through (spec §1).
 */
import { hash } from 'node:crypto';

import { type Clock, monthOf, secondsToNextMonth } from '../clock.js';
import { BoundedMemo } from '../engine/bounded-memo.js';
import type { Engine } from '../engine/create-engine.js';
import { judgeParsedUrl } from '../engine/detect.js';
import type { LayerCoverage } from '../engine/scoring/build-verdict.js';
import { normalizeUrl, type ParsedUrl } from '../engine/url/normalize-url.js';
import type { Verdict } from '../engine/verdict.js';
import { AppError } from '../errors.js';
import type { ApiKeyRecord, Store } from '../store/ports.js';
import { DEFAULT_VERDICT_CACHE_SIZE, VerdictCache } from './verdict-cache.js';

/**
 * Layers the service runs. Threat intelligence and page analysis are not part of this version;
 * verdicts say so in their reason. Every door uses this, so verdicts are identical across doors.
 */
export const SERVICE_COVERAGE: LayerCoverage = Object.freeze({
  intel: 'unavailable',
  page: 'unavailable',
});

/** Length of the truncated hash in the usage log: 16 hex characters = 64 bits (spec §1). */
const USAGE_HASH_HEX = 16;

/** Raw inputs whose parse is remembered (same bound as the verdict cache). */
const PARSE_MEMO_SIZE = DEFAULT_VERDICT_CACHE_SIZE;

export class DetectionService {
  private readonly cache: VerdictCache;
  /** Parsed URLs by raw input, for inputs seen twice: repeats skip parsing (bounded). */
  private readonly parsedInputs = new BoundedMemo<ParsedUrl>(PARSE_MEMO_SIZE, true);

  /**
   * @param engine the built engine.
   * @param store the store (usage log, monthly allowances).
   * @param clock time source.
   * @param cacheSize verdicts kept in memory by normalized URL (0 disables the cache).
   */
  constructor(
    private readonly engine: Engine,
    private readonly store: Store,
    private readonly clock: Clock,
    cacheSize: number = DEFAULT_VERDICT_CACHE_SIZE,
  ) {
    this.cache = new VerdictCache(cacheSize);
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
   * Judge a validated URL, from the verdict cache when it was judged before. Nothing is recorded.
   * The returned verdict is frozen.
   */
  judge(url: ParsedUrl): Verdict {
    return (
      this.cache.get(url.href) ??
      this.cache.set(url.href, judgeParsedUrl(this.engine, url, SERVICE_COVERAGE))
    );
  }

  /**
   * Judge a URL for an enterprise key, then log usage (key, time, truncated URL hash, verdict,
   * latency — nothing else about the URL). A key with a hard monthly cap first reserves one
   * request of its month atomically (refused at the cap; given back if judging fails); for the
   * others the usage log itself is the month's count (DESIGN §4.15: report, do not refuse).
   *
   * @throws {AppError} `rate_limited` when a hard monthly cap is reached.
   */
  async judgeForKey(key: ApiKeyRecord, url: ParsedUrl): Promise<Verdict> {
    const started = performance.now();
    const now = this.clock.now();
    // Only a hard cap needs the month on this path (DESIGN §4.15: otherwise report, do not refuse).
    const capped =
      key.hardCap && key.monthlyAllowance !== null
        ? { cap: key.monthlyAllowance, month: monthOf(now) }
        : null;
    if (capped !== null) {
      const reservation = await this.store.usage.reserveMonthly(key.id, capped.month, capped.cap);
      if (!reservation.ok) {
        throw new AppError('rate_limited', 'The monthly allowance of this key is used up', {
          retryAfter: secondsToNextMonth(now),
          reason: 'monthly_allowance',
        });
      }
    }
    let verdict: Verdict;
    try {
      verdict = this.judge(url);
    } catch (error) {
      if (capped !== null) await this.store.usage.releaseMonthly(key.id, capped.month);
      throw error;
    }
    await this.store.usage.recordUsage({
      keyId: key.id,
      at: now,
      urlHash: this.urlSha256(url).slice(0, USAGE_HASH_HEX),
      verdict: verdict.verdict,
      latencyMs: performance.now() - started,
    });
    return verdict;
  }
}
