/**
 * @module intel/feeds/parse-cryptoscamdb
 * Format `cryptoscamdb-yaml`: CryptoScamDB blacklist `data/urls.yaml`
 * (https://github.com/CryptoScamDB/blacklist/blob/master/data/urls.yaml): a `---` document holding
 * one YAML list of entries such as
 *
 *     - name: xn--myetherwallt-leb.com
 *       url: http://xn--myetherwallt-leb.com
 *       category: Phishing
 *       subcategory: MyEtherWallet
 *       description: Google reports site as insecure
 *       addresses:
 *         ETH:
 *         - "0x…"
 *       reporter: CryptoScamDB
 *
 * Entries: `deny`; value = `url` when it is a URL (has `scheme://`), else `name` read as host (or
 * URL when it has a path); target = `subcategory` (the impersonated brand, e.g. MyEtherWallet, or
 * a scam type such as Trust-Trading); no dates (the file has none).
 *
 * Safety: parsed with the YAML failsafe schema (every scalar a string, no tags resolved, no type
 * coercion), and aliases are never expanded, so a feed cannot make the parser build objects,
 * run code or blow up memory with alias chains.
 */
import { isMap, isNode, isScalar, isSeq, LineCounter, parseDocument, type YAMLMap } from 'yaml';

import { FeedCollector, quoteValue } from './feed-collector.js';
import { FeedFormatError } from './feed-format-error.js';
import type { ParsedFeed } from './raw-feed-entry.js';
import { readFeedUrl, readFeedValue } from './read-feed-value.js';

const FORMAT = 'cryptoscamdb-yaml';

/**
 * Parse CryptoScamDB urls.yaml.
 *
 * @throws FeedFormatError when the text is JSON, is not valid YAML, or its top level is not a list.
 */
export function parseCryptoscamdbYaml(text: string): ParsedFeed {
  const start = text.trimStart();
  if (start.startsWith('{') || start.startsWith('[')) {
    throw new FeedFormatError(
      FORMAT,
      'looks like JSON; expected a YAML list of "- name: …" entries',
    );
  }
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { schema: 'failsafe', uniqueKeys: false, lineCounter });
  const [error] = document.errors;
  if (error !== undefined) {
    // First line of the message: "<what> at line L, column C:"; an excerpt follows.
    const detail = (error.message.split('\n', 1)[0] ?? error.code).replace(/:$/, '');
    throw new FeedFormatError(FORMAT, `not valid YAML: ${detail}`, { cause: error });
  }
  const feed = new FeedCollector(FORMAT);
  const root = document.contents;
  // An empty document (`---` alone) is an empty scalar: an empty list, not another format.
  const empty = root === null || (isScalar(root) && (root.value === null || root.value === ''));
  if (empty) return feed.finish();
  if (!isSeq(root)) throw new FeedFormatError(FORMAT, 'top level is not a YAML list');

  for (const item of root.items) {
    const offset = isNode(item) ? item.range[0] : undefined;
    const where =
      offset === undefined ? 'an empty item' : `line ${lineCounter.linePos(offset).line}`;
    if (!isMap(item)) {
      feed.skip(where, 'list item is not a mapping');
      continue;
    }
    const url = stringField(item, 'url');
    const name = stringField(item, 'name');
    const subcategory = stringField(item, 'subcategory')?.trim() ?? '';
    const target = subcategory === '' ? null : subcategory;
    if (url?.includes('://')) {
      feed.add(where, 'deny', readFeedUrl(url), url, target);
    } else if (name !== undefined) {
      feed.add(where, 'deny', readFeedValue(name), name, target);
    } else {
      feed.skip(where, `no name and no URL${url === undefined ? '' : ` (url ${quoteValue(url)})`}`);
    }
  }
  return feed.finish();
}

/** A string scalar field of a mapping; undefined when absent or not a scalar (an alias, a list …). */
function stringField(item: YAMLMap, key: string): string | undefined {
  const node = item.get(key, true);
  return isScalar(node) && typeof node.value === 'string' ? node.value : undefined;
}
