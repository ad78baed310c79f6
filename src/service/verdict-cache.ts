/**
 * @module service/verdict-cache
 * In-process cache of verdicts by normalized URL (DESIGN §1: "detection service: cache → engine").
 * In this version a verdict depends only on the URL and on the data loaded at start-up, so a
 * cached verdict is exactly the one the engine would compute: no expiry is needed, only a bound
 * on memory. (Threat intelligence and page analysis, whose answers change over time, will bring
 * time-to-live rules with them.)
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
  private readonly entries = new Map<string, Verdict>();
  private readonly admission = new SecondSighting();

  /** @param capacity most entries kept; 0 disables the cache. */
  constructor(private readonly capacity: number = DEFAULT_VERDICT_CACHE_SIZE) {}

  /** The cached verdict for `key`, marked as recently used; undefined on a miss. */
  get(key: string): Verdict | undefined {
    const verdict = this.entries.get(key);
    if (verdict !== undefined) {
      // Re-insert to move the entry to the young end of the Map's insertion order.
      this.entries.delete(key);
      this.entries.set(key, verdict);
    }
    return verdict;
  }

  /**
   * Store a verdict if its URL was seen before (evicting the least recently used entry when
   * full) and return it — frozen when stored.
   */
  set(key: string, verdict: Verdict): Verdict {
    if (this.capacity === 0 || !this.admission.admit(key)) return verdict;
    const frozen = freezeVerdict(verdict);
    this.entries.delete(key);
    this.entries.set(key, frozen);
    if (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next();
      if (oldest.done !== true) this.entries.delete(oldest.value);
    }
    return frozen;
  }

  get size(): number {
    return this.entries.size;
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
