/**
 * @module intel/feeds/parse-openphish
 * Format `openphish`: the OpenPhish Community feed, https://openphish.com/feed.txt (described at
 * https://openphish.com/phishing_feeds.html): plain text, one phishing URL per line, no header,
 * no dates, no brand (the free feed has none). Every line is read as a URL (`http://` is added if
 * a line has no scheme); blank lines and `#` comment lines are skipped. All entries are `deny`.
 */
import { FeedCollector } from './feed-collector.js';
import type { ParsedFeed } from './raw-feed-entry.js';
import { readFeedUrl } from './read-feed-value.js';
import { splitFeedLines } from './split-feed-lines.js';

/** Parse an OpenPhish community feed.txt. */
export function parseOpenphish(text: string): ParsedFeed {
  const feed = new FeedCollector('openphish');
  for (const [index, rawLine] of splitFeedLines(text).entries()) {
    const line = rawLine.trim();
    if (line === '' || line.startsWith('#')) continue;
    feed.add(`line ${index + 1}`, 'deny', readFeedUrl(line), line);
  }
  return feed.finish();
}
