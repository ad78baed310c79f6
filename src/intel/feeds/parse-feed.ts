/**
 * @module intel/feeds/parse-feed
 * Entry point of the feed parsers: feed text in, raw entries out. Pure (no I/O, no clock), and
 * nothing from a feed is ever evaluated. One module per format, each documenting its upstream
 * format and source:
 *
 * | format | module | upstream |
 * |---|---|---|
 * | `plain` | parse-plain | one host / URL per line, hosts-file lines |
 * | `csv` | parse-csv | any CSV with a header row, columns named by the caller |
 * | `phishtank-csv`, `phishtank-json` | parse-phishtank | PhishTank verified_online dumps |
 * | `openphish` | parse-openphish | OpenPhish community feed.txt |
 * | `urlhaus-csv` | parse-urlhaus | URLhaus csv_recent / csv_online |
 * | `polkadot-json` | parse-polkadot | polkadot-js/phishing all.json |
 * | `metamask-json` | parse-metamask | MetaMask eth-phishing-detect config.json |
 * | `scamsniffer-json` | parse-scamsniffer | ScamSniffer blacklist/domains.json |
 * | `cryptoscamdb-yaml` | parse-cryptoscamdb | CryptoScamDB data/urls.yaml |
 */
import { parseCryptoscamdbYaml } from './parse-cryptoscamdb.js';
import { parseCsv } from './parse-csv.js';
import { parseMetamaskJson } from './parse-metamask.js';
import { parseOpenphish } from './parse-openphish.js';
import { parsePhishtankCsv, parsePhishtankJson } from './parse-phishtank.js';
import { parsePlain } from './parse-plain.js';
import { parsePolkadotJson } from './parse-polkadot.js';
import { parseScamsnifferJson } from './parse-scamsniffer.js';
import { parseUrlhausCsv } from './parse-urlhaus.js';
import {
  FEED_FORMATS,
  type FeedFormat,
  type ParsedFeed,
  type ParseFeedOptions,
} from './raw-feed-entry.js';

export { FeedFormatError } from './feed-format-error.js';
export type {
  CsvColumns,
  FeedFormat,
  FeedList,
  ParsedFeed,
  ParseFeedOptions,
  RawFeedEntry,
} from './raw-feed-entry.js';
export { FEED_FORMATS } from './raw-feed-entry.js';

/** True when `name` is a feed format (for formats named in configuration or on a command line). */
export function isFeedFormat(name: string): name is FeedFormat {
  return (FEED_FORMATS as readonly string[]).includes(name);
}

/**
 * Parse the text of one feed file.
 *
 * Rows that cannot be read are skipped and counted (`skipped`), with up to 20 messages naming
 * their line (`problems`); entries are de-duplicated by (list, kind, value), keeping the earliest
 * firstSeen. A leading byte-order mark is ignored. Linear in the text size (about 1 s for the
 * 340k-row ScamSniffer CSV on a small VM).
 *
 * @param format which upstream format `text` is in (see {@link FEED_FORMATS}).
 * @param text the whole file, decoded (UTF-8).
 * @param options `csv` names the columns for format `csv` (required there).
 * @throws FeedFormatError when the text is not that format at all: not JSON / YAML, wrong
 *   top-level shape, missing header or column, or rows of which not one is readable.
 * @throws TypeError when `format` is unknown or format `csv` comes without `options.csv` (caller
 *   bugs; check run-time names with {@link isFeedFormat}).
 */
export function parseFeed(
  format: FeedFormat,
  text: string,
  options: ParseFeedOptions = {},
): ParsedFeed {
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  switch (format) {
    case 'plain':
      return parsePlain(body);
    case 'csv':
      if (options.csv === undefined) throw new TypeError('format "csv" needs options.csv');
      return parseCsv(body, options.csv);
    case 'phishtank-csv':
      return parsePhishtankCsv(body);
    case 'phishtank-json':
      return parsePhishtankJson(body);
    case 'openphish':
      return parseOpenphish(body);
    case 'urlhaus-csv':
      return parseUrlhausCsv(body);
    case 'polkadot-json':
      return parsePolkadotJson(body);
    case 'metamask-json':
      return parseMetamaskJson(body);
    case 'scamsniffer-json':
      return parseScamsnifferJson(body);
    case 'cryptoscamdb-yaml':
      return parseCryptoscamdbYaml(body);
    default:
      return unknownFormat(format);
  }
}

/** Formats named at run time (configuration, CLI) can be anything; the types cannot promise. */
function unknownFormat(format: never): never {
  const name = JSON.stringify(format);
  throw new TypeError(`unknown feed format ${name}; known: ${FEED_FORMATS.join(', ')}`);
}
