/**
 * @module intel/feeds/parse-phishtank
 * Formats `phishtank-csv` and `phishtank-json`: the PhishTank database dumps
 * `verified_online.csv` / `online-valid.csv` and `verified_online.json` / `online-valid.json`,
 * documented at https://www.phishtank.com/developer_info.php.
 *
 * CSV: header `phish_id,url,phish_detail_url,submission_time,verified,verification_time,online,target`
 * (columns found by name). JSON: an array of objects with the same fields, `phish_id` a number and
 * an extra `details` array (IP, CIDR, ASN, country per sighting), e.g.
 * `{"phish_id":8125349,"url":"https:\/\/….web.app\/","phish_detail_url":"…",
 * "submission_time":"2023-04-23T03:23:46+00:00","verified":"yes","verification_time":"…",
 * "online":"yes","details":[{"ip_address":"…",…}],"target":"Other"}`.
 *
 * Entries: `deny` URLs, only rows with `verified` = yes (others are dropped, not counted as
 * skipped); `&amp;` in URLs un-escaped (the dumps HTML-escape `&`); firstSeen = submission_time;
 * target = `target` unless empty or "Other" (PhishTank's "no brand chosen").
 */
import Type from 'typebox';
import { Compile } from 'typebox/compile';

import { FeedCollector, quoteValue } from './feed-collector.js';
import { FeedFormatError } from './feed-format-error.js';
import { parseFeedDate } from './parse-feed-date.js';
import { parseFeedJson } from './parse-feed-json.js';
import type { FeedFormat, ParsedFeed } from './raw-feed-entry.js';
import { findCsvColumn, readCsvHeader, readCsvRows, requireCsvColumn } from './read-csv-rows.js';
import { readFeedUrl } from './read-feed-value.js';
import { splitFeedLines } from './split-feed-lines.js';

/** The fields of one PhishTank JSON row that are read; the others are ignored. */
const PhishtankJsonRow = Compile(
  Type.Object({
    url: Type.String(),
    verified: Type.Union([Type.String(), Type.Boolean()]),
    submission_time: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    target: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  }),
);

/** PhishTank's target when the submitter named no brand. */
const NO_TARGET = 'other';

/** Parse a PhishTank CSV dump. @throws FeedFormatError when the header lacks `url` or `verified`. */
export function parsePhishtankCsv(text: string): ParsedFeed {
  const format: FeedFormat = 'phishtank-csv';
  const feed = new FeedCollector(format);
  const lines = splitFeedLines(text);
  const header = readCsvHeader(format, lines);
  if (header === null) return feed.finish();
  const url = requireCsvColumn(format, header.names, 'url');
  const verified = requireCsvColumn(format, header.names, 'verified');
  const submitted = findCsvColumn(header.names, 'submission_time');
  const target = findCsvColumn(header.names, 'target');
  readCsvRows(feed, lines, header.next, header.names.length, (where, fields) => {
    addRow(feed, where, {
      url: fields[url] ?? '',
      verified: fields[verified] ?? '',
      submissionTime: submitted === -1 ? '' : (fields[submitted] ?? ''),
      target: target === -1 ? '' : (fields[target] ?? ''),
    });
  });
  return feed.finish();
}

/** Parse a PhishTank JSON dump. @throws FeedFormatError when it is not a JSON array. */
export function parsePhishtankJson(text: string): ParsedFeed {
  const format: FeedFormat = 'phishtank-json';
  const rows = parseFeedJson(format, text);
  if (!Array.isArray(rows)) throw new FeedFormatError(format, 'top level is not an array');
  const feed = new FeedCollector(format);
  for (const [index, row] of rows.entries()) {
    const where = `item ${index + 1}`;
    if (!PhishtankJsonRow.Check(row)) {
      const first = [...PhishtankJsonRow.Errors(row)][0];
      feed.skip(where, `${first?.instancePath ?? ''} ${first?.message ?? 'invalid'}`.trim());
      continue;
    }
    addRow(feed, where, {
      url: row.url,
      verified: row.verified === true ? 'yes' : String(row.verified),
      submissionTime: row.submission_time ?? '',
      target: row.target ?? '',
    });
  }
  return feed.finish();
}

/** One PhishTank row, from either dump. */
function addRow(
  feed: FeedCollector,
  where: string,
  row: { url: string; verified: string; submissionTime: string; target: string },
): void {
  if (row.verified.trim().toLowerCase() !== 'yes') {
    feed.drop();
    return;
  }
  const url = row.url.replaceAll('&amp;', '&');
  const target = row.target.trim();
  const firstSeen = parseFeedDate(row.submissionTime);
  const read = readFeedUrl(url);
  if (read.ok && firstSeen === null && row.submissionTime.trim() !== '') {
    feed.note(where, `unreadable submission_time ${quoteValue(row.submissionTime)}`);
  }
  const named = target === '' || target.toLowerCase() === NO_TARGET ? null : target;
  feed.add(where, 'deny', read, row.url, named, firstSeen);
}
