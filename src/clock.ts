/**
 * @module clock
 * Time as a port, so nonce expiry, key expiry and month boundaries can be tested with an injected
 * clock instead of sleeps.
 */

/** Source of the current time in epoch milliseconds (UTC). */
export interface Clock {
  now(): number;
}

/** The real clock. */
export const systemClock: Clock = { now: () => Date.now() };

/** `YYYY-MM` (UTC) of an instant: the unit of monthly allowances and usage reports. */
export function monthOf(epochMs: number): string {
  return new Date(epochMs).toISOString().slice(0, 7);
}

/** Seconds from `epochMs` to the start of the next UTC month (≥ 1). */
export function secondsToNextMonth(epochMs: number): number {
  const date = new Date(epochMs);
  const next = Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1);
  return Math.max(1, Math.ceil((next - epochMs) / 1000));
}
