/**
 * @module intel/feeds/feed-collector
 * What every format parser shares: de-duplication, the skipped count, the capped problem list,
 * and the rule that a file with rows but not one readable row is not the format at all.
 */
import { FeedFormatError } from './feed-format-error.js';
import type { FeedFormat, FeedList, ParsedFeed, RawFeedEntry } from './raw-feed-entry.js';
import type { FeedValue } from './read-feed-value.js';

/** Most problem messages kept per file; the skipped count stays exact. */
export const MAX_PROBLEMS = 20;

/** Longest excerpt of a bad value quoted in a problem message. */
const MAX_QUOTED = 80;

/**
 * A value for a message, cut to 80 characters: a string JSON-quoted (control characters escaped),
 * anything else as its JSON (`42`, `null`, `{"a":1}`).
 */
export function quoteValue(value: unknown): string {
  const cut = (text: string): string =>
    text.length > MAX_QUOTED ? `${text.slice(0, MAX_QUOTED)}…` : text;
  if (typeof value === 'string') return JSON.stringify(cut(value));
  // JSON.stringify gives undefined for these (and throws on bigint); JSON values never are.
  const kind = typeof value;
  if (kind === 'undefined' || kind === 'function' || kind === 'symbol' || kind === 'bigint') {
    return cut(String(value));
  }
  return cut(JSON.stringify(value));
}

/**
 * Accumulates the entries of one feed file.
 *
 * Duplicates (same list, kind and value) merge into the first: the earliest `firstSeen` wins and
 * the first non-null target is kept.
 */
export class FeedCollector {
  private readonly format: FeedFormat;
  private readonly entries: RawFeedEntry[] = [];
  /** Entries by value, one map per list and kind: no key concatenation on the hot path. */
  private readonly byValue = new Map<string, Map<string, RawFeedEntry>>();
  private readonly problems: string[] = [];
  private rows = 0;
  private skipped = 0;
  private dropped = 0;
  private duplicates = 0;

  constructor(format: FeedFormat) {
    this.format = format;
  }

  /**
   * Count one data row and add its value, or skip it with the refusal reason.
   *
   * @param where `line N`, `item N`, `deny item N` …: where a problem message says the row is.
   * @param raw the value as the feed wrote it, quoted in the problem message if refused.
   */
  add(
    where: string,
    list: FeedList,
    read: FeedValue,
    raw: string,
    target: string | null = null,
    firstSeen: number | null = null,
  ): void {
    this.rows += 1;
    if (!read.ok) {
      this.recordSkip(where, `${read.reason}: ${quoteValue(raw)}`);
      return;
    }
    const bucketKey = `${list} ${read.kind}`;
    let bucket = this.byValue.get(bucketKey);
    if (bucket === undefined) {
      bucket = new Map();
      this.byValue.set(bucketKey, bucket);
    }
    const existing = bucket.get(read.value);
    if (existing === undefined) {
      const entry: RawFeedEntry = { list, kind: read.kind, value: read.value, target, firstSeen };
      bucket.set(read.value, entry);
      this.entries.push(entry);
      return;
    }
    this.duplicates += 1;
    if (firstSeen !== null && (existing.firstSeen === null || firstSeen < existing.firstSeen)) {
      existing.firstSeen = firstSeen;
    }
    existing.target ??= target;
  }

  /** Count one data row that could not be read at all. */
  skip(where: string, reason: string): void {
    this.rows += 1;
    this.recordSkip(where, reason);
  }

  /** Count one data row that is readable but deliberately not kept (e.g. unverified PhishTank). */
  drop(): void {
    this.rows += 1;
    this.dropped += 1;
  }

  /** A problem message about a row that was kept anyway (e.g. an unreadable date). */
  note(where: string, message: string): void {
    if (this.problems.length < MAX_PROBLEMS) this.problems.push(`${where}: ${message}`);
  }

  /**
   * The parsed feed.
   *
   * @throws FeedFormatError when the file had rows and every one was skipped: that is a file of
   *   another format (or not a feed), not a feed with some bad rows.
   */
  finish(): ParsedFeed {
    if (this.rows > 0 && this.skipped === this.rows) {
      const first = this.problems[0] ?? '';
      throw new FeedFormatError(
        this.format,
        `none of its ${this.rows} rows is readable (first: ${first})`,
      );
    }
    return {
      entries: this.entries,
      rows: this.rows,
      skipped: this.skipped,
      dropped: this.dropped,
      duplicates: this.duplicates,
      problems: this.problems,
    };
  }

  private recordSkip(where: string, message: string): void {
    this.skipped += 1;
    this.note(where, message);
  }
}
