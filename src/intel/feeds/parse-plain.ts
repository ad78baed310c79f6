/**
 * @module intel/feeds/parse-plain
 * Format `plain`: one host or URL per line, the lowest common denominator of block lists
 * (e.g. Discord-AntiScam `list.txt`, https://github.com/Discord-AntiScam/scam-links; hosts-file
 * lists such as https://github.com/StevenBlack/hosts, whose format is hosts(5):
 * https://man7.org/linux/man-pages/man5/hosts.5.html).
 *
 * - blank lines and lines starting with `#` or `!` (Adblock-style headers) are skipped;
 *   text after whitespace + `#` is a trailing comment;
 * - `0.0.0.0 host …` / `127.0.0.1 host …` (hosts-file sink lines) give each host on the line;
 *   hosts-file boilerplate (`127.0.0.1 localhost`, `::1 ip6-localhost`, `255.255.255.255
 *   broadcasthost`) is ignored; a hosts line mapping names to any other address is skipped,
 *   since it redirects rather than blocks;
 * - otherwise the line is one value: a URL when it contains `://` or a path, query, fragment or
 *   port after the host, else a host (see `readFeedValue`).
 *
 * Every entry is `deny`; plain lists carry no dates or targets.
 */
import { FeedCollector } from './feed-collector.js';
import type { ParsedFeed } from './raw-feed-entry.js';
import { readFeedHost, readFeedValue } from './read-feed-value.js';
import { splitFeedLines } from './split-feed-lines.js';

/** Addresses a hosts file maps a name to in order to block it. */
const SINK_ADDRESSES = new Set(['0.0.0.0', '127.0.0.1']);

/** Names in the standard hosts-file preamble, never feed entries. */
const HOSTS_BOILERPLATE = new Set([
  'localhost',
  'localhost.localdomain',
  'local',
  'broadcasthost',
  'ip6-localhost',
  'ip6-loopback',
  'ip6-localnet',
  'ip6-mcastprefix',
  'ip6-allnodes',
  'ip6-allrouters',
  'ip6-allhosts',
  '0.0.0.0',
]);

/** An IPv4 or IPv6 literal (with an optional `%zone`), as the first field of a hosts line. */
const ADDRESS_PATTERN = /^(?:\d{1,3}(?:\.\d{1,3}){3}|[0-9a-f]*:[0-9a-f:.]*(?:%\w+)?)$/i;

/** Parse a plain host / URL list. Never throws except when no line at all is readable. */
export function parsePlain(text: string): ParsedFeed {
  const feed = new FeedCollector('plain');
  const lines = splitFeedLines(text);
  for (const [index, rawLine] of lines.entries()) {
    const line = stripComment(rawLine);
    if (line === '') continue;
    const where = `line ${index + 1}`;
    const fields = line.split(/\s+/);
    const address = fields[0] ?? '';
    if (fields.length > 1 && ADDRESS_PATTERN.test(address)) {
      readHostsLine(feed, where, address, fields.slice(1));
    } else {
      feed.add(where, 'deny', readFeedValue(line), line);
    }
  }
  return feed.finish();
}

/** The line without its comment and surrounding blanks; '' for blank and comment lines. */
function stripComment(rawLine: string): string {
  const line = rawLine.trim();
  if (line.startsWith('#') || line.startsWith('!')) return '';
  const comment = line.search(/\s#/);
  return comment === -1 ? line : line.slice(0, comment).trim();
}

/** One `address name …` line of a hosts file. */
function readHostsLine(
  feed: FeedCollector,
  where: string,
  address: string,
  names: readonly string[],
): void {
  const entries = names.filter((name) => !HOSTS_BOILERPLATE.has(name.toLowerCase()));
  if (entries.length === 0) return;
  if (!SINK_ADDRESSES.has(address)) {
    feed.skip(where, `hosts line maps to ${address}, not to 0.0.0.0 / 127.0.0.1`);
    return;
  }
  for (const name of entries) feed.add(where, 'deny', readFeedHost(name), name);
}
