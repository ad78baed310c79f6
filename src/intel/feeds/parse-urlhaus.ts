/**
 * @module intel/feeds/parse-urlhaus
 * Format `urlhaus-csv`: the abuse.ch URLhaus CSV exports `csv_recent` / `csv_online` (and the full
 * dump `csv.txt`), https://urlhaus.abuse.ch/api/#csv. Layout: a `#` banner
 * (`# abuse.ch URLhaus Database Dump (CSV - recent URLs only)`, `# Last updated: … (UTC)`, terms
 * of use), then the header as the last comment line,
 * `# id,dateadded,url,url_status,last_online,threat,tags,urlhaus_link,reporter`
 * (exports before ~2020 lack `last_online`; columns are found by name), then one quoted row per URL:
 * `"3786237","2026-02-26 12:05:20","http://182.126.120.150:58801/i","online",…`.
 *
 * Entries: `deny` URLs, offline ones included (URLhaus keeps malware URLs that may come back);
 * firstSeen = `dateadded`, UTC; no target (`threat` and `tags` name malware, not a brand).
 */
import { FeedCollector, quoteValue } from './feed-collector.js';
import { FeedFormatError } from './feed-format-error.js';
import { parseFeedDate } from './parse-feed-date.js';
import type { ParsedFeed } from './raw-feed-entry.js';
import { findCsvColumn, readCsvRows } from './read-csv-rows.js';
import { readFeedUrl } from './read-feed-value.js';
import { splitCsvLine } from './split-csv-line.js';
import { splitFeedLines } from './split-feed-lines.js';

/**
 * Parse a URLhaus CSV export.
 *
 * @throws FeedFormatError when no comment line before the first row is a header naming
 *   `dateadded` and `url`.
 */
export function parseUrlhausCsv(text: string): ParsedFeed {
  const feed = new FeedCollector('urlhaus-csv');
  const lines = splitFeedLines(text);
  let firstRow = lines.findIndex((line) => line.trim() !== '' && !line.startsWith('#'));
  if (firstRow === -1) firstRow = lines.length;
  let header: string[] | null = null;
  for (const line of lines.slice(0, firstRow)) {
    const names = splitCsvLine(line.replace(/^#\s*/, ''));
    if (names !== null && findCsvColumn(names, 'url') !== -1) header = names;
  }
  if (header === null || findCsvColumn(header, 'dateadded') === -1) {
    if (firstRow === lines.length) return feed.finish();
    throw new FeedFormatError(
      'urlhaus-csv',
      'no "# id,dateadded,url,…" header comment before the first row',
    );
  }
  const url = findCsvColumn(header, 'url');
  const added = findCsvColumn(header, 'dateadded');
  readCsvRows(
    feed,
    lines,
    firstRow,
    header.length,
    (where, fields) => {
      const raw = fields[url] ?? '';
      const date = fields[added] ?? '';
      const read = readFeedUrl(raw);
      const firstSeen = parseFeedDate(date);
      if (read.ok && firstSeen === null && date.trim() !== '') {
        feed.note(where, `unreadable dateadded ${quoteValue(date)}, kept without firstSeen`);
      }
      feed.add(where, 'deny', read, raw, null, firstSeen);
    },
    '#',
  );
  return feed.finish();
}
