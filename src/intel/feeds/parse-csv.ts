/**
 * @module intel/feeds/parse-csv
 * Format `csv`: any CSV file with a header row, the caller naming the columns (`CsvColumns`):
 * a value column (host or URL, decided per value as in `plain`), and optionally a first-seen date
 * column (ISO date or date-time, or `YYYY-MM-DD`) and a target column. Reads e.g. the derived
 * development files `url,first_seen`, `domain,first_seen` and `date,domain`. All entries are
 * `deny`. Quoting per RFC 4180 (https://www.rfc-editor.org/rfc/rfc4180), one record per line.
 */
import { FeedCollector, quoteValue } from './feed-collector.js';
import { createFeedDateReader } from './parse-feed-date.js';
import type { CsvColumns, ParsedFeed } from './raw-feed-entry.js';
import { readCsvHeader, readCsvRows, requireCsvColumn } from './read-csv-rows.js';
import { readFeedValue } from './read-feed-value.js';
import { splitFeedLines } from './split-feed-lines.js';

/**
 * Parse a CSV feed with a header row.
 *
 * @throws FeedFormatError when there is no header row or it lacks a named column.
 */
export function parseCsv(text: string, columns: CsvColumns): ParsedFeed {
  const feed = new FeedCollector('csv');
  const lines = splitFeedLines(text);
  const header = readCsvHeader('csv', lines);
  if (header === null) return feed.finish();
  const valueColumn = requireCsvColumn('csv', header.names, columns.value);
  const dateColumn =
    columns.date === undefined ? -1 : requireCsvColumn('csv', header.names, columns.date);
  const targetColumn =
    columns.target === undefined ? -1 : requireCsvColumn('csv', header.names, columns.target);

  const readDate = createFeedDateReader();
  readCsvRows(feed, lines, header.next, header.names.length, (where, fields) => {
    const raw = fields[valueColumn] ?? '';
    const read = readFeedValue(raw);
    const target = targetColumn === -1 ? null : (fields[targetColumn] ?? '').trim() || null;
    const date = dateColumn === -1 ? '' : (fields[dateColumn] ?? '');
    const firstSeen = readDate(date);
    if (read.ok && firstSeen === null && date.trim() !== '') {
      feed.note(where, `unreadable date ${quoteValue(date)}, kept without firstSeen`);
    }
    feed.add(where, 'deny', read, raw, target, firstSeen);
  });
  return feed.finish();
}
