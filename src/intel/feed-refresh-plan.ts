/**
 * @module intel/feed-refresh-plan
 * Which feeds `serve` keeps fresh: those configured in `FEEDS`, and every feed in the store that
 * has a URL (registered from the catalog with `linkguard feeds add`, or put there by an earlier
 * `FEEDS`). `FEEDS` wins when both name a feed. A catalog feed is downloaded from its catalog URL
 * with its key filled in from the environment, at most once per the catalog's
 * `min_refresh_minutes` (docs/decisions.md, decisions 177–178).
 */
import { THREAT_TYPES, type ThreatType } from '../engine/verdict.js';
import type { FeedRecord } from '../store/ports/intel-store.js';
import { type CatalogFeed, downloadUrl, type FeedKeys, KEY_PLACEHOLDER } from './feed-catalog.js';
import type { ConfiguredFeed } from './feed-refresher.js';
import { type FeedFormat, isFeedFormat } from './feeds/parse-feed.js';

const MINUTE_MS = 60_000;

function threatOf(value: string | null): ThreatType | null {
  return (THREAT_TYPES as readonly string[]).includes(value ?? '') ? (value as ThreatType) : null;
}

/**
 * The feeds to keep fresh now.
 *
 * @param input `configured`: the `FEEDS` items; `stored`: the store's feeds (those without a URL
 *   were imported from a file and are left alone, as are formats no parser reads any more);
 *   `catalog`: the feed catalog; `keys`: catalog keys from the environment.
 * @returns one entry per feed name, `FEEDS` first. A catalog feed whose key is not set comes back
 *   `unavailable` (the refresher records that as its error without a request), as does a stored
 *   URL with a `{key}` placeholder that no longer matches its catalog entry.
 */
export function feedsToRefresh(input: {
  configured: readonly { name: string; format: FeedFormat; url: string }[];
  stored: readonly FeedRecord[];
  catalog: readonly CatalogFeed[];
  keys: FeedKeys;
}): ConfiguredFeed[] {
  const byName = new Map(input.catalog.map((entry) => [entry.name, entry]));
  const plan: ConfiguredFeed[] = input.configured.map((feed) => {
    const entry = byName.get(feed.name);
    return {
      name: feed.name,
      format: feed.format,
      url: feed.url,
      threat: null,
      // A FEEDS item that is a catalog feed still respects its provider's interval.
      ...(entry?.url === feed.url ? { intervalMs: entry.min_refresh_minutes * MINUTE_MS } : {}),
    };
  });
  const taken = new Set(plan.map((feed) => feed.name));
  for (const record of input.stored) {
    if (record.url === null || taken.has(record.name)) continue;
    // A format no parser reads any more, or `csv` (it needs column names), cannot be refreshed.
    if (!isFeedFormat(record.format) || record.format === 'csv') continue;
    const base = {
      name: record.name,
      format: record.format,
      url: record.url,
      threat: threatOf(record.threat),
    };
    const entry = byName.get(record.name);
    if (entry?.url === record.url) {
      const source = downloadUrl(entry, input.keys);
      plan.push({
        ...base,
        intervalMs: entry.min_refresh_minutes * MINUTE_MS,
        ...('url' in source
          ? source.url === record.url
            ? {}
            : { fetchUrl: source.url }
          : { unavailable: `needs ${source.missing} in the environment of serve` }),
      });
    } else if (record.url.includes(KEY_PLACEHOLDER)) {
      plan.push({
        ...base,
        unavailable: `its catalog entry changed: run linkguard feeds add ${record.name} again`,
      });
    } else {
      plan.push(base);
    }
  }
  return plan;
}
