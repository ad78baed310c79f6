/**
 * @module bench/support/stats
 * Medians and a fixed-resolution latency histogram. autocannon's own histogram keeps whole
 * milliseconds, which hides the difference between a 0.3 ms and a 0.9 ms p50; this one keeps
 * 10 µs buckets up to 5 s, fed from autocannon's per-response timings.
 */

/** Median of a non-empty list (mean of the two middle values for an even count). */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const upper = sorted[mid] ?? Number.NaN;
  return sorted.length % 2 === 1 ? upper : ((sorted[mid - 1] ?? upper) + upper) / 2;
}

const BUCKET_MS = 0.01;
const MAX_MS = 5000;

/** Latencies in milliseconds, 10 µs resolution, values above 5 s clamp to the last bucket. */
export class LatencyHistogram {
  private readonly buckets = new Uint32Array(Math.ceil(MAX_MS / BUCKET_MS) + 1);
  private count = 0;
  private maxMs = 0;

  record(ms: number): void {
    const index = Math.min(this.buckets.length - 1, Math.max(0, Math.round(ms / BUCKET_MS)));
    this.buckets[index] = (this.buckets[index] ?? 0) + 1;
    this.count++;
    if (ms > this.maxMs) this.maxMs = ms;
  }

  get total(): number {
    return this.count;
  }

  get max(): number {
    return this.maxMs;
  }

  /** The `p`-th percentile (0–100) in ms; NaN when empty. */
  percentile(p: number): number {
    if (this.count === 0) return Number.NaN;
    const rank = Math.max(1, Math.ceil((p / 100) * this.count));
    let seen = 0;
    for (let i = 0; i < this.buckets.length; i++) {
      seen += this.buckets[i] ?? 0;
      if (seen >= rank) return i * BUCKET_MS;
    }
    return this.maxMs;
  }
}
