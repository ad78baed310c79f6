/**
 * @module intel/rdap/ttl-lru
 * A bounded cache whose entries expire at a time given per entry (epoch ms, from an injected
 * clock), evicting the least recently used entry when full. `BoundedMemo` (src/engine) does not
 * fit here: it forgets everything at capacity and has no expiry, while intel answers have
 * per-entry lifetimes (24 h for a registration date, 1 h for a failure, a Web Risk `expireTime`).
 */

interface Slot<V> {
  value: V;
  expiresAt: number;
}

export class TtlLru<V> {
  // A Map iterates in insertion order: re-inserting on read keeps the least recently used first.
  private readonly slots = new Map<string, Slot<V>>();

  /** @param capacity most entries held (≥ 1). */
  constructor(private readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) {
      throw new RangeError('TtlLru capacity must be a positive integer');
    }
  }

  /** The value if present and `now < expiresAt`; an expired entry is dropped. */
  get(key: string, now: number): V | undefined {
    const slot = this.slots.get(key);
    if (slot === undefined) return undefined;
    this.slots.delete(key);
    if (now >= slot.expiresAt) return undefined;
    this.slots.set(key, slot);
    return slot.value;
  }

  /** Store `value` until `expiresAt` (epoch ms); evicts the least recently used entry when full. */
  set(key: string, value: V, expiresAt: number): void {
    this.slots.delete(key);
    if (this.slots.size >= this.capacity) {
      const oldest = this.slots.keys().next();
      if (oldest.done !== true) this.slots.delete(oldest.value);
    }
    this.slots.set(key, { value, expiresAt });
  }

  delete(key: string): void {
    this.slots.delete(key);
  }

  /** Entries held, expired ones not yet dropped included. */
  get size(): number {
    return this.slots.size;
  }
}
