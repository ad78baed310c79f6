/**
 * @module intel/feeds/raw-feed-entry
 * The shapes a threat-feed parser returns (layer 2): one raw entry per host or URL a feed lists,
 * before any indexing. The parsers are pure functions of the feed text; reading files, fetching
 * and indexing live elsewhere.
 */

/** Which list of the index an entry feeds: block it, never block it, or a fuzzy-match target. */
export type FeedList = 'deny' | 'allow' | 'fuzzy';

/** One host or URL as a feed gives it. */
export interface RawFeedEntry {
  list: FeedList;
  /**
   * 'host': a host name as the feed gives it (trimmed, lower-cased, trailing dot and a leading
   * `*.` wildcard removed; may be an xn-- IDN or Unicode); 'url': a full URL as given (scheme added
   * as http:// when a URL-looking value has none; PhishTank `&amp;` un-escaped).
   */
  kind: 'host' | 'url';
  value: string;
  /** Brand or target the feed names (PhishTank `target` unless "Other"; CryptoScamDB `subcategory`), else null. */
  target: string | null;
  /** When the feed first saw it, epoch ms UTC, else null. */
  firstSeen: number | null;
}

/** Every feed format `parseFeed` reads, in documentation order. */
export const FEED_FORMATS = [
  'plain',
  'csv',
  'phishtank-csv',
  'phishtank-json',
  'openphish',
  'urlhaus-csv',
  'polkadot-json',
  'metamask-json',
  'scamsniffer-json',
  'cryptoscamdb-yaml',
] as const;

/** A feed format name (see {@link FEED_FORMATS}). */
export type FeedFormat = (typeof FEED_FORMATS)[number];

/** Column names for format `csv` (the file must have a header row). */
export interface CsvColumns {
  /** Column holding a host or URL (decided per value). */
  value: string;
  /** Optional column holding the first-seen date: ISO date or date-time, or `YYYY-MM-DD`. */
  date?: string;
  /** Optional column holding the brand or target. */
  target?: string;
}

/** Options of `parseFeed`. */
export interface ParseFeedOptions {
  /** Required for format `csv`, ignored otherwise. */
  csv?: CsvColumns;
}

/** What a parser read from one feed file. */
export interface ParsedFeed {
  /** De-duplicated by (list, kind, value), in order of first appearance. */
  entries: RawFeedEntry[];
  /** Data rows read (each counted once: kept, merged into a duplicate, skipped or dropped). */
  rows: number;
  /** Rows that could not be read (bad host, bad quoting, wrong field count, wrong item type …). */
  skipped: number;
  /** Readable rows the format's own rules leave out (e.g. PhishTank rows not verified online). */
  dropped: number;
  /** Rows merged into an earlier entry of the same list, kind and value. */
  duplicates: number;
  /**
   * At most 20 human messages about skipped rows (and rows kept without a readable date), each
   * starting with where it is: `line N` for text, CSV and YAML, `item N` or `deny item N` for JSON
   * (JSON.parse keeps no positions).
   */
  problems: string[];
}
