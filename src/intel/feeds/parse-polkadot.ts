/**
 * @module intel/feeds/parse-polkadot
 * Format `polkadot-json`: polkadot-js/phishing `all.json`
 * (https://github.com/polkadot-js/phishing/blob/master/all.json, served at
 * https://polkadot.js.org/phishing/all.json): `{"allow": [host, …], "deny": [host, …]}`. `deny`
 * holds scam hosts (apex or subdomain, some Unicode / xn--); `allow` holds platforms that must not
 * be blocked wholesale (`vercel.app`, `*.fleek.co`, …). Upstream matches a host when it equals an
 * entry or is a subdomain of one. No dates (those are in the repository's `meta/` files), no target.
 */
import { addJsonList } from './add-json-list.js';
import { FeedCollector } from './feed-collector.js';
import { FeedFormatError } from './feed-format-error.js';
import { parseFeedJson } from './parse-feed-json.js';
import type { ParsedFeed } from './raw-feed-entry.js';

/**
 * Parse polkadot-js/phishing all.json.
 *
 * @throws FeedFormatError unless the top level is an object with a `deny` array (and `allow`, if
 *   present, an array).
 */
export function parsePolkadotJson(text: string): ParsedFeed {
  const value = parseFeedJson('polkadot-json', text);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new FeedFormatError(
      'polkadot-json',
      'top level is not an object with allow / deny arrays',
    );
  }
  const { allow, deny } = value as { allow?: unknown; deny?: unknown };
  if (!Array.isArray(deny) || (allow !== undefined && !Array.isArray(allow))) {
    throw new FeedFormatError('polkadot-json', '"deny" (and "allow", if present) must be arrays');
  }
  const feed = new FeedCollector('polkadot-json');
  if (Array.isArray(allow)) addJsonList(feed, 'allow', allow, 'allow');
  addJsonList(feed, 'deny', deny, 'deny');
  return feed.finish();
}
