/**
 * @module intel/feeds/feed-format-error
 * The one error the feed parsers throw: the file is not the format it was said to be (not JSON,
 * wrong top-level shape, no header, or not one row readable). Bad rows inside a file of the right
 * format are skipped and counted instead, never thrown. A caller that loads feeds from a config
 * reports this error with the file name; it is an operator mistake or a changed upstream format.
 */
import type { FeedFormat } from './raw-feed-entry.js';

/** The upstream file each format reads, for messages. */
const UPSTREAM_FILE: Readonly<Record<FeedFormat, string>> = {
  plain: 'a plain host / URL list',
  csv: 'a CSV file with a header row',
  'phishtank-csv': 'PhishTank verified_online.csv',
  'phishtank-json': 'PhishTank verified_online.json',
  openphish: 'the OpenPhish community feed.txt',
  'urlhaus-csv': 'a URLhaus csv_recent / csv_online export',
  'polkadot-json': 'polkadot-js/phishing all.json',
  'metamask-json': 'MetaMask eth-phishing-detect config.json',
  'scamsniffer-json': 'ScamSniffer blacklist/domains.json',
  'cryptoscamdb-yaml': 'CryptoScamDB data/urls.yaml',
};

/**
 * The text given as `format` is not that format at all.
 *
 * @example new FeedFormatError('polkadot-json', 'top level is an array, expected an object')
 *   // message: "not a polkadot-json feed (polkadot-js/phishing all.json): top level is an array, …"
 */
export class FeedFormatError extends Error {
  override readonly name = 'FeedFormatError';
  /** The format the text was parsed as. */
  readonly format: FeedFormat;

  constructor(format: FeedFormat, detail: string, options: { cause?: unknown } = {}) {
    super(`not a ${format} feed (${UPSTREAM_FILE[format]}): ${detail}`, { cause: options.cause });
    this.format = format;
  }
}
