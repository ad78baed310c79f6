/**
 * @module service/verdict-cache
 * In-process cache of verdicts by normalized URL (DESIGN §1: "detection service: cache → engine").
 * Layer 1 depends only on the URL and the data loaded at start-up; layer 2's answers change over
 * time (feeds are refreshed, a domain's age grows, a late RDAP answer arrives), so each entry has
 * a time to live and the service clears the cache when the threat index is swapped.
 */
import { SecondSighting } from '../engine/second-sighting.js';
import type { Verdict } from '../engine/verdict.js';

/** Default number of verdicts kept (about 3 KB each: ~30 MB at most). */
export const DEFAULT_VERDICT_CACHE_SIZE = 10_000;

/**
 * A bounded least-recently-used map from normalized URL to verdict, admitting a URL on its second
 * sighting ({@link SecondSighting}). Cached verdicts are frozen: every caller gets the same
 * object, so no caller may change it.
 */
export class VerdictCache {
  private readonly entries = new Map<string, { verdict: Verdict; expiresAt: number }>();
  private readonly admission = new SecondSighting();

  /**
   * @param capacity most entries kept; 0 disables the cache.
   * @param now clock (epoch ms) for time-to-live checks.
   */
  constructor(
    private readonly capacity: number = DEFAULT_VERDICT_CACHE_SIZE,
    private readonly now: () => number = Date.now,
  ) {}

  /** The cached, unexpired verdict for `key`, marked as recently used; undefined on a miss. */
  get(key: string): Verdict | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    this.entries.delete(key);
    if (entry.expiresAt <= this.now()) return undefined;
    // Re-inserted: moves the entry to the young end of the Map's insertion order.
    this.entries.set(key, entry);
    return entry.verdict;
  }

  /**
   * Store a verdict if its URL was seen before (evicting the least recently used entry when
   * full) and return it — frozen when stored.
   *
   * @param ttlMs how long the verdict stays valid (Infinity: until evicted or cleared).
   * @param costly the verdict took a page fetch: keep it on first sight (recomputing costs
   *   seconds, not microseconds, so the second-sighting admission does not pay off).
   */
  set(key: string, verdict: Verdict, ttlMs = Number.POSITIVE_INFINITY, costly = false): Verdict {
    if (ttlMs <= 0) return verdict;
    if (this.capacity === 0 || (!costly && !this.admission.admit(key))) return verdict;
    const frozen = freezeVerdict(verdict);
    this.entries.delete(key);
    this.entries.set(key, { verdict: frozen, expiresAt: this.now() + ttlMs });
    if (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next();
      if (oldest.done !== true) this.entries.delete(oldest.value);
    }
    return frozen;
  }

  get size(): number {
    return this.entries.size;
  }

  /** Forget every verdict (the evidence behind them changed). */
  clear(): void {
    this.entries.clear();
  }
}

/** Freeze the verdict and each of its containers (a verdict holds no deeper objects). */
function freezeVerdict(verdict: Verdict): Verdict {
  Object.freeze(verdict.threat_types);
  Object.freeze(verdict.signals);
  Object.freeze(verdict.details.matched_patterns);
  Object.freeze(verdict.details);
  return Object.freeze(verdict);
}
