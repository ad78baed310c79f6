/**
 * @module intel/feeds/add-json-list
 * The JSON host-list formats (polkadot-js, MetaMask, ScamSniffer) are arrays of host strings;
 * this reads one such array into a collector.
 */
import { type FeedCollector, quoteValue } from './feed-collector.js';
import type { FeedList } from './raw-feed-entry.js';
import { readFeedValue } from './read-feed-value.js';

/**
 * Add every item of a JSON array to `list`: strings are read as host or URL (`readFeedValue`),
 * other items are skipped as `<label> item N` (1-based; JSON.parse keeps no line numbers).
 *
 * @param label prefix of the item position in messages, e.g. `deny`; '' for a top-level array.
 */
export function addJsonList(
  feed: FeedCollector,
  list: FeedList,
  items: readonly unknown[],
  label: string,
): void {
  const prefix = label === '' ? '' : `${label} `;
  for (const [index, item] of items.entries()) {
    const where = `${prefix}item ${index + 1}`;
    if (typeof item === 'string') {
      feed.add(where, list, readFeedValue(item), item);
    } else {
      feed.skip(where, `not a string: ${quoteValue(item)}`);
    }
  }
}
