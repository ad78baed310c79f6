/**
 * @module intel/feeds/parse-metamask
 * Format `metamask-json`: MetaMask eth-phishing-detect `src/config.json`
 * (https://github.com/MetaMask/eth-phishing-detect/blob/main/src/config.json):
 * `{"version": 2, "tolerance": 2, "fuzzylist": […], "whitelist": […], "blacklist": […]}`. The
 * repository and its docs now call the lists allowlist / blocklist (doc/lists-ref.md, the
 * `update-config` CLI, @metamask/phishing-controller's `PhishingDetectorConfiguration`), so both
 * spellings are read: `blacklist` / `blocklist` → deny, `whitelist` / `allowlist` → allow,
 * `fuzzylist` → fuzzy (hosts of often-impersonated sites, matched upstream by Levenshtein
 * distance ≤ `tolerance` after stripping `www.` and the last label). `version` and `tolerance`
 * are not entries and are ignored. No dates, no target.
 */
import { addJsonList } from './add-json-list.js';
import { FeedCollector } from './feed-collector.js';
import { FeedFormatError } from './feed-format-error.js';
import { parseFeedJson } from './parse-feed-json.js';
import type { FeedList, ParsedFeed } from './raw-feed-entry.js';

/** Config keys, old and new spellings, in the order they are read. */
const LIST_KEYS: readonly (readonly [key: string, list: FeedList])[] = [
  ['fuzzylist', 'fuzzy'],
  ['whitelist', 'allow'],
  ['allowlist', 'allow'],
  ['blacklist', 'deny'],
  ['blocklist', 'deny'],
];

/**
 * Parse eth-phishing-detect config.json.
 *
 * @throws FeedFormatError unless the top level is an object with at least one of the list keys,
 *   each present one an array.
 */
export function parseMetamaskJson(text: string): ParsedFeed {
  const format = 'metamask-json';
  const value = parseFeedJson(format, text);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new FeedFormatError(format, 'top level is not an object');
  }
  const config = value as Record<string, unknown>;
  const present = LIST_KEYS.filter(([key]) => config[key] !== undefined);
  if (present.length === 0) {
    throw new FeedFormatError(
      format,
      'none of fuzzylist, whitelist / allowlist, blacklist / blocklist is present',
    );
  }
  const feed = new FeedCollector(format);
  for (const [key, list] of present) {
    const items = config[key];
    if (!Array.isArray(items)) throw new FeedFormatError(format, `"${key}" is not an array`);
    addJsonList(feed, list, items, key);
  }
  return feed.finish();
}
