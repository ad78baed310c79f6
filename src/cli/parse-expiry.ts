/**
 * @module cli/parse-expiry
 * The `--expires` option of `linkguard overrides add` and `reports resolve --override`: a date, a
 * date and time, or a duration from now. No duration library is a dependency, so this is a small
 * strict parser: one whole number and one unit of `d`, `h` or `m` (docs/decisions.md, "Verdict
 * corrections").
 */

const MINUTE_MS = 60 * 1000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/** Units of a duration, in milliseconds. */
const UNIT_MS: Readonly<Record<'d' | 'h' | 'm', number>> = { d: DAY_MS, h: HOUR_MS, m: MINUTE_MS };

/** Longest duration accepted: ten years (a typo such as `3000000d` is refused, not stored). */
export const MAX_EXPIRY_MS = 3650 * DAY_MS;

const DURATION = /^(\d{1,7})([dhm])$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
/** ISO 8601 date-time with an explicit zone (`Z` or `±HH:MM`); seconds and fraction optional. */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:\d{2})$/;

/**
 * Read an expiry.
 *
 * - `30d`, `12h`, `45m`: that long after `now` (a whole number ≥ 1 and one unit: days of 24 h,
 *   hours, minutes; at most {@link MAX_EXPIRY_MS}).
 * - `2026-12-31`: the end of that day, UTC (the first instant of the next day), as `keys create
 *   --expires` reads a day: the override works through the whole day.
 * - `2026-12-31T18:00:00Z`, `2026-12-31T18:00+01:00`: that instant. A zone is required, so the
 *   instant never depends on the machine's time zone.
 *
 * @param text the option's value.
 * @param now current time, epoch ms.
 * @returns the expiry, epoch ms, strictly after `now`.
 * @throws Error with a one-line message when the text has none of these forms, names a date that
 *   does not exist (`2026-02-30`), is longer than ten years, or is not in the future.
 */
export function parseExpiry(text: string, now: number): number {
  const value = text.trim();
  const expiresAt = readExpiry(value, now);
  if (expiresAt <= now) throw new Error(`${value} is not in the future`);
  if (expiresAt - now > MAX_EXPIRY_MS) throw new Error(`${value} is more than ten years away`);
  return expiresAt;
}

function readExpiry(value: string, now: number): number {
  const duration = DURATION.exec(value);
  if (duration !== null) {
    const amount = Number(duration[1]);
    if (amount < 1) throw new Error(`${value}: a duration must be at least 1${duration[2]}`);
    return now + amount * UNIT_MS[duration[2] as keyof typeof UNIT_MS];
  }
  const date = DATE.exec(value);
  if (date !== null) {
    if (!isDay(value)) throw new Error(`${value} is not a date`);
    return Date.UTC(Number(date[1]), Number(date[2]) - 1, Number(date[3])) + DAY_MS;
  }
  if (DATE_TIME.test(value)) {
    const at = Date.parse(value);
    // Date.parse rolls an impossible day over (2026-02-30 → March 2) and reads T24:00 as the next
    // day's midnight: refuse both rather than store an instant the operator did not write.
    if (Number.isNaN(at) || !isDay(value.slice(0, 10)) || Number(value.slice(11, 13)) > 23) {
      throw new Error(`${value} is not a date and time`);
    }
    return at;
  }
  throw new Error(
    `${value}: expected a duration (30d, 12h, 45m), a date (YYYY-MM-DD) or a date and time with a zone (2026-12-31T18:00:00Z)`,
  );
}

/** True when `day` (`YYYY-MM-DD`) names a day of the calendar (no 2026-02-30, no month 13). */
function isDay(day: string): boolean {
  const at = Date.UTC(
    Number(day.slice(0, 4)),
    Number(day.slice(5, 7)) - 1,
    Number(day.slice(8, 10)),
  );
  return !Number.isNaN(at) && new Date(at).toISOString().slice(0, 10) === day;
}
