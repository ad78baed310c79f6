/**
 * @module intel/feeds/parse-scamsniffer
 * Format `scamsniffer-json`: ScamSniffer scam-database `blacklist/domains.json`
 * (https://github.com/scamsniffer/scam-database/blob/main/blacklist/domains.json, published with
 * a 7-day delay): a JSON array of host strings, e.g. `["lrfarmy.xyz", "poll-okxvote-516.pages.dev",
 * "64.7.198.20", …]` (wallet drainers, fake claims; IPv4 addresses occur). All `deny`, no dates
 * (those are in `blacklist/archive/YYYY-MM-DD.json`), no target.
 */
import { addJsonList } from './add-json-list.js';
import { FeedCollector } from './feed-collector.js';
import { FeedFormatError } from './feed-format-error.js';
import { parseFeedJson } from './parse-feed-json.js';
import type { ParsedFeed } from './raw-feed-entry.js';

/** Parse ScamSniffer domains.json. @throws FeedFormatError unless it is a JSON array. */
export function parseScamsnifferJson(text: string): ParsedFeed {
  const value = parseFeedJson('scamsniffer-json', text);
  if (!Array.isArray(value)) {
    throw new FeedFormatError('scamsniffer-json', 'top level is not an array of host names');
  }
  const feed = new FeedCollector('scamsniffer-json');
  addJsonList(feed, 'deny', value, '');
  return feed.finish();
}
