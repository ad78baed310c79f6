/**
 * @module intel/feed-refresher
 * Feeds configured by URL (`FEEDS`), downloaded on a schedule through the SSRF-safe client with
 * conditional GET (`If-None-Match` / `If-Modified-Since` from the last download): a 304 costs no
 * parsing and changes nothing. A failed download or a body that is not the feed's format keeps
 * the previous entries and records the error (`linkguard feeds status`). Refreshing runs beside
 * the service and never blocks a request; servers pick up new entries through the store's feed
 * version.
 */
import type { Clock } from '../clock.js';
import type { ThreatType } from '../engine/verdict.js';
import { type HttpClient, isNetError } from '../net/index.js';
import type { IntelStore } from '../store/ports/intel-store.js';
import { importFeed } from './feed-import.js';
import type { FeedFormat } from './feeds/parse-feed.js';

/** A feed to keep fresh. */
export interface ConfiguredFeed {
  name: string;
  format: FeedFormat;
  url: string;
  threat: ThreatType | null;
}

/** Largest feed accepted (the ScamSniffer list is ~15 MB; PhishTank's JSON ~60 MB). */
const MAX_FEED_BYTES = 100 * 1024 * 1024;
/** Budget of one download. */
const FEED_TIMEOUT_MS = 120_000;

export type RefreshOutcome =
  | { status: 'updated'; entries: number; skipped: number }
  | { status: 'not_modified' }
  | { status: 'failed'; error: string };

/**
 * Download one feed and import it when it changed.
 *
 * @returns what happened; never throws for network or format problems (they are recorded on
 *   the feed and returned as `failed`).
 */
export async function refreshFeed(
  deps: { http: HttpClient; store: IntelStore; clock: Clock },
  feed: ConfiguredFeed,
): Promise<RefreshOutcome> {
  const { http, store, clock } = deps;
  const known = (await store.listFeeds()).find((f) => f.name === feed.name);
  const sameSource = known?.url === feed.url && known.format === feed.format;
  const headers: Record<string, string> = {};
  if (sameSource && known.etag !== null) headers['if-none-match'] = known.etag;
  if (sameSource && known.lastModified !== null) headers['if-modified-since'] = known.lastModified;

  const fail = async (error: string): Promise<RefreshOutcome> => {
    const record =
      known ??
      (await store.upsertFeed({
        name: feed.name,
        format: feed.format,
        url: feed.url,
        threat: feed.threat,
      }));
    await store.recordCheck(record.id, { checkedAt: clock.now(), error });
    return { status: 'failed', error };
  };

  let response;
  try {
    response = await http.fetch(feed.url, {
      headers,
      timeoutMs: FEED_TIMEOUT_MS,
      maxBytes: MAX_FEED_BYTES,
      maxRedirects: 5,
    });
  } catch (error) {
    return fail(isNetError(error) ? `download failed: ${error.code}` : 'download failed');
  }
  if (response.status === 304 && known !== undefined) {
    await store.recordCheck(known.id, { checkedAt: clock.now(), error: null });
    return { status: 'not_modified' };
  }
  if (response.status !== 200) return fail(`download answered HTTP ${response.status}`);
  try {
    const result = await importFeed(
      store,
      { name: feed.name, format: feed.format, url: feed.url, threat: feed.threat },
      response.body.toString('utf8'),
      {
        at: clock.now(),
        etag: response.headers.etag ?? null,
        lastModified: response.headers['last-modified'] ?? null,
      },
    );
    return { status: 'updated', entries: result.entries, skipped: result.skipped };
  } catch (error) {
    return fail(error instanceof Error ? error.message.slice(0, 200) : 'import failed');
  }
}

/**
 * Refresh every configured feed now, then every `intervalMs`, one feed at a time.
 *
 * @returns a function that stops the schedule.
 */
export function scheduleFeedRefresh(
  deps: { http: HttpClient; store: IntelStore; clock: Clock },
  feeds: readonly ConfiguredFeed[],
  intervalMs: number,
  onOutcome: (feed: ConfiguredFeed, outcome: RefreshOutcome) => void,
): () => void {
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  const round = async (): Promise<void> => {
    for (const feed of feeds) {
      if (stopped) return;
      const outcome = await refreshFeed(deps, feed).catch((error: unknown): RefreshOutcome => ({
        status: 'failed',
        error: error instanceof Error ? error.message : 'refresh failed',
      }));
      onOutcome(feed, outcome);
    }
    if (!stopped) timer = setTimeout(() => void round(), intervalMs).unref();
  };
  void round();
  return () => {
    stopped = true;
    if (timer !== null) clearTimeout(timer);
  };
}
