/**
 * @module engine/bounded-memo
 * A memo for pure computations keyed by string, with a hard bound on memory: when it holds
 * `capacity` entries it starts over (cheaper than LRU bookkeeping, and fine for memos whose
 * entries are recomputed in microseconds). Optionally admits a key only on its second sighting
 * ({@link SecondSighting}), so one-off keys never churn the memory.
 */
import { SecondSighting } from './second-sighting.js';

export class BoundedMemo<V> {
  private readonly entries = new Map<string, V>();
  private readonly admission: SecondSighting | null;

  /**
   * @param capacity most entries held before the memo starts over.
   * @param secondSighting admit a key only when it is seen a second time.
   */
  constructor(
    private readonly capacity: number,
    secondSighting = false,
  ) {
    this.admission = secondSighting ? new SecondSighting() : null;
  }

  /** The remembered value, or undefined. */
  get(key: string): V | undefined {
    return this.entries.get(key);
  }

  /** Remember `value` under `key` (when admitted) and return it. */
  remember(key: string, value: V): V {
    if (this.admission !== null && !this.admission.admit(key)) return value;
    if (this.entries.size >= this.capacity) this.entries.clear();
    this.entries.set(key, value);
    return value;
  }

  get size(): number {
    return this.entries.size;
  }
}
