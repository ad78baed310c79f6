/**
 * @module service/second-sighting
 * Cache admission on the second sighting. Most URLs are seen once (phishing links carry per-victim
 * tokens); caching them only churns memory and makes the garbage collector work. A key is
 * admitted when it shows up a second time within the filter's window, the "doorkeeper" idea of
 * TinyLFU (Einziger, Friedman and Manes, "TinyLFU: A Highly Efficient Cache Admission Policy",
 * 2017). Keys are remembered as 32-bit FNV-1a hashes in a set of small integers, so the filter
 * retains no strings; a rare hash collision only admits a key one sighting early.
 */

/** Hashes remembered before the window starts over. */
const WINDOW = 100_000;

/** FNV-1a 32-bit offset basis and prime (Fowler–Noll–Vo, IETF draft-eastlake-fnv). */
const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** 32-bit FNV-1a hash of the UTF-16 code units of `text`. */
export function fnv1a(text: string): number {
  let hash = FNV_OFFSET;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, FNV_PRIME);
  }
  return hash >>> 0;
}

export class SecondSighting {
  private readonly seen = new Set<number>();

  /** @param window hashes remembered before the set starts over. */
  constructor(private readonly window: number = WINDOW) {}

  /** True when `key` was seen before (admit it); otherwise remember it and return false. */
  admit(key: string): boolean {
    const hash = fnv1a(key);
    if (this.seen.has(hash)) return true;
    if (this.seen.size >= this.window) this.seen.clear();
    this.seen.add(hash);
    return false;
  }
}
