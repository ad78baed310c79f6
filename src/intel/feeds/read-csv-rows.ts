/**
 * @module intel/feeds/read-csv-rows
 * Header and data rows of a line-oriented CSV feed, with the checks every CSV format shares.
 */
import { type FeedCollector, quoteValue } from './feed-collector.js';
import { FeedFormatError } from './feed-format-error.js';
import type { FeedFormat } from './raw-feed-entry.js';
import { splitCsvLine } from './split-csv-line.js';

/**
 * Call `onRow` with the fields of every data row from `lines[start]` on. Blank lines and, when
 * `comment` is given, lines starting with it are passed over; a row with broken quoting or another
 * field count than the header is skipped on `feed` with its line number.
 */
export function readCsvRows(
  feed: FeedCollector,
  lines: readonly string[],
  start: number,
  columnCount: number,
  onRow: (where: string, fields: readonly string[]) => void,
  comment?: string,
): void {
  for (let index = start; index < lines.length; index += 1) {
    const line = lines[index] ?? '';
    if (line.trim() === '') continue;
    if (comment !== undefined && line.startsWith(comment)) continue;
    const where = `line ${index + 1}`;
    const fields = splitCsvLine(line);
    if (fields === null) {
      feed.skip(where, `broken quoting: ${quoteValue(line)}`);
    } else if (fields.length !== columnCount) {
      feed.skip(where, `${fields.length} fields, the header has ${columnCount}`);
    } else {
      onRow(where, fields);
    }
  }
}

/**
 * The header row (the first non-blank line) and the index of the line after it, or null for a
 * file without any non-blank line.
 *
 * @throws FeedFormatError when the header row's quoting is broken.
 */
export function readCsvHeader(
  format: FeedFormat,
  lines: readonly string[],
): { names: string[]; next: number } | null {
  const index = lines.findIndex((line) => line.trim() !== '');
  if (index === -1) return null;
  const names = splitCsvLine(lines[index] ?? '');
  if (names === null) throw new FeedFormatError(format, `line ${index + 1}: broken header row`);
  return { names, next: index + 1 };
}

/**
 * Index of a column the format needs.
 *
 * @throws FeedFormatError naming the column and the columns there are.
 */
export function requireCsvColumn(
  format: FeedFormat,
  names: readonly string[],
  name: string,
): number {
  const index = findCsvColumn(names, name);
  if (index === -1) {
    throw new FeedFormatError(
      format,
      `no column ${quoteValue(name)} in the header (columns: ${names.join(', ')})`,
    );
  }
  return index;
}

/** Index of the column called `name` (compared trimmed and case-insensitively), or -1. */
export function findCsvColumn(names: readonly string[], name: string): number {
  const wanted = name.trim().toLowerCase();
  return names.findIndex((column) => column.trim().toLowerCase() === wanted);
}
