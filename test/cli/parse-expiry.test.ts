/**
 * `--expires` of `linkguard overrides add` and `reports resolve --override`
 * (src/cli/parse-expiry.ts): durations, days, instants with a zone, and everything refused.
 */
import { describe, expect, it } from 'vitest';

import { MAX_EXPIRY_MS, parseExpiry } from '../../src/cli/parse-expiry.js';

const NOW = Date.UTC(2026, 10, 27, 8, 0, 0);
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describe('parseExpiry', () => {
  it.each([
    ['30d', NOW + 30 * DAY],
    ['1d', NOW + DAY],
    ['12h', NOW + 12 * HOUR],
    ['45m', NOW + 45 * MINUTE],
    [' 2h ', NOW + 2 * HOUR],
    ['3650d', NOW + MAX_EXPIRY_MS],
  ])('duration %s', (text, expected) => {
    expect(parseExpiry(text, NOW)).toBe(expected);
  });

  it('reads a day as the end of that day, UTC', () => {
    expect(parseExpiry('2026-12-31', NOW)).toBe(Date.UTC(2027, 0, 1));
    // Today still has hours left: an override "through today" is in the future.
    expect(parseExpiry('2026-11-27', NOW)).toBe(Date.UTC(2026, 10, 28));
    expect(parseExpiry('2028-02-29', NOW)).toBe(Date.UTC(2028, 2, 1));
  });

  it('reads an instant with a zone', () => {
    expect(parseExpiry('2026-12-31T18:00:00Z', NOW)).toBe(Date.UTC(2026, 11, 31, 18));
    expect(parseExpiry('2026-12-31T18:00+01:00', NOW)).toBe(Date.UTC(2026, 11, 31, 17));
    expect(parseExpiry('2026-12-31T18:00:30.250Z', NOW)).toBe(
      Date.UTC(2026, 11, 31, 18, 0, 30, 250),
    );
  });

  it.each([
    ['0d', /at least 1d/],
    ['30', /expected a duration/],
    ['30s', /expected a duration/],
    ['1w', /expected a duration/],
    ['1.5d', /expected a duration/],
    ['-1d', /expected a duration/],
    ['1d12h', /expected a duration/],
    ['P30D', /expected a duration/],
    ['tomorrow', /expected a duration/],
    ['', /expected a duration/],
    ['3651d', /more than ten years/],
    ['99999999d', /expected a duration/],
    ['2026-02-30', /not a date/],
    ['2026-13-01', /not a date/],
    ['2026-12-31T18:00:00', /expected a duration/],
    ['2026-02-30T10:00Z', /not a date and time/],
    ['2026-12-31T24:00Z', /not a date and time/],
    ['2026-12-31T23:60Z', /not a date and time/],
    ['2026-11-26', /not in the future/],
    ['2026-11-27T08:00:00Z', /not in the future/],
    ['2020-01-01T00:00:00Z', /not in the future/],
    ['2040-01-01', /more than ten years/],
  ])('refuses %j', (text, message) => {
    expect(() => parseExpiry(text, NOW)).toThrow(message);
  });
});
