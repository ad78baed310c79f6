/**
 * @module store/store-values
 * Value rules both store adapters apply the same way: months, counts, and how long spent OAuth
 * codes are kept. One copy, so SQLite and PostgreSQL cannot drift apart.
 */

/** A `YYYY-MM` month with a month 01–12. */
export const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;

/**
 * The UTC instants bounding a `YYYY-MM` month: `[from, to)` in epoch ms, `to` being the first
 * instant of the next month (December rolls over into January of the next year).
 *
 * @throws RangeError when `month` is not `YYYY-MM` with a month 01–12.
 */
export function monthRange(month: string): { from: number; to: number } {
  const match = MONTH.exec(month);
  if (match === null) throw new RangeError(`month must be YYYY-MM, got "${month}"`);
  const year = Number(match[1]);
  const index = Number(match[2]) - 1;
  return { from: Date.UTC(year, index, 1), to: Date.UTC(year, index + 1, 1) };
}

/** @throws RangeError unless `value` is a safe integer ≥ `min`. */
export function requireInteger(name: string, value: number, min: number): void {
  if (!Number.isSafeInteger(value) || value < min) {
    throw new RangeError(`${name} must be an integer ≥ ${String(min)}, got ${String(value)}`);
  }
}

/**
 * How long a spent or expired authorization code is kept after its expiry, so that its reuse
 * can still revoke the grant it issued (RFC 6749 §4.1.2). One day: clients retry within seconds.
 */
export const CODE_RETENTION_MS = 24 * 60 * 60 * 1000;

/**
 * How long a registered OAuth client that never completed a sign-in (no grant, no code, no
 * pending sign-in) is kept: one day. MCP clients register right before they open the sign-in
 * page, so a registration unused for a day was abandoned (docs/decisions.md, decision 140).
 */
export const ABANDONED_REGISTRATION_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * How long the (hashed) source address of a registration is kept: the window of the per-source
 * registration cap, one hour. After it the column is cleared.
 */
export const REGISTRATION_SOURCE_WINDOW_MS = 60 * 60 * 1000;
