/**
 * @module intel/feeds/parse-feed-date
 * Dates as threat feeds write them, to epoch milliseconds UTC. Written out instead of `Date.parse`
 * because `Date.parse('2024-01-02T03:04:05')` (no zone) is local time and `Date.parse` accepts
 * many non-ISO shapes; feeds state UTC (URLhaus: "dateadded (UTC)") or an explicit offset.
 */

/**
 * `YYYY-MM-DD`, optionally followed by `T` or a space and `HH:MM[:SS[.fraction]]`, optionally
 * followed by `Z`, ` UTC` or an offset `±HH:MM` / `±HHMM`.
 */
const DATE_PATTERN =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?\s*(Z|UTC|[+-]\d{2}:?\d{2})?$/i;

/**
 * Epoch ms UTC of a feed date, or null when the text is not such a date or names an impossible
 * day or time (2024-02-30, 25:00). A date-time without a zone is taken as UTC; a date alone is
 * midnight UTC.
 *
 * @example parseFeedDate('2022-03-29T22:37:38+00:00') // 1648593458000
 * @example parseFeedDate('2024-01-06') // 1704499200000
 * @example parseFeedDate('2026-04-29 13:05:00') // URLhaus dateadded, UTC
 */
export function parseFeedDate(text: string): number | null {
  const match = DATE_PATTERN.exec(text.trim());
  if (match === null) return null;
  const [, y, mo, d, h = '0', mi = '0', s = '0', fraction = '', zone = 'Z'] = match;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s);
  // Date.UTC maps years 0–99 to 1900–1999; no feed date is that old.
  if (year < 1000 || month < 1 || month > 12 || day < 1) return null;
  if (hour > 23 || minute > 59 || second > 59) return null;
  const offset = zoneOffsetMs(zone);
  if (offset === null) return null;
  const ms = Number(fraction.padEnd(3, '0').slice(0, 3));
  const local = Date.UTC(year, month - 1, day, hour, minute, second, ms);
  // Date.UTC rolls 2024-02-30 over to March; a different day back means the day does not exist.
  if (new Date(local).getUTCDate() !== day) return null;
  return local - offset;
}

/** Offset of `Z`, `UTC`, `+05:30`, `-0800` from UTC, in ms (positive east of UTC); null if impossible. */
function zoneOffsetMs(zone: string): number | null {
  if (zone.toUpperCase() === 'Z' || zone.toUpperCase() === 'UTC') return 0;
  const sign = zone.startsWith('-') ? -1 : 1;
  const digits = zone.slice(1).replace(':', '');
  const hours = Number(digits.slice(0, 2));
  const minutes = Number(digits.slice(2, 4));
  if (hours > 23 || minutes > 59) return null;
  return sign * (hours * 60 + minutes) * 60_000;
}

/** Distinct date strings remembered per reader (feeds repeat days: 340k rows, ~1,300 days). */
const MEMO_LIMIT = 4096;

/**
 * A `parseFeedDate` that remembers up to 4,096 distinct inputs, for one file's rows: day-resolution
 * feeds repeat the same few thousand dates hundreds of thousands of times.
 */
export function createFeedDateReader(): (text: string) => number | null {
  const memo = new Map<string, number | null>();
  return (text) => {
    const known = memo.get(text);
    if (known !== undefined) return known;
    const parsed = parseFeedDate(text);
    if (memo.size < MEMO_LIMIT) memo.set(text, parsed);
    return parsed;
  };
}
