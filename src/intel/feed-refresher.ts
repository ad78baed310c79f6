/**
 * @module intel/feed-refresher
 * Feeds with a URL — configured in `FEEDS` or registered from the catalog with `linkguard feeds
 * add` (`feed-refresh-plan.ts` lists them) — downloaded on a schedule through the SSRF-safe
 * client with conditional GET (`If-None-Match` / `If-Modified-Since` from the last download): a
 * 304 costs no parsing and changes nothing. Each feed is downloaded at most once per its own
 * interval, counted from its last attempt as the store records it, so a restart or a second
 * instance does not ask a provider again sooner than its stated limit. A failed download or a
 * body that is not the feed's format keeps the previous entries and records the error (`linkguard
 * feeds status`). Refreshing runs beside the service and never blocks a request; servers pick up
 * new entries through the store's feed version.
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
  /** The feed's URL as stored and shown (a catalog URL keeps its `{key}` placeholder). */
  url: string;
  threat: ThreatType | null;
  /**
   * The URL downloaded when it differs from `url`: a catalog URL with its key filled in. Holds a
   * secret: never stored, logged or put in an error.
   */
  fetchUrl?: string;
  /** Why the feed cannot be downloaded now (its key is not configured): recorded, nothing fetched. */
  unavailable?: string;
  /** Shortest interval between two downloads of this feed, ms (at least the schedule's). */
  intervalMs?: number;
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
    // Only the name and format go back to the store with the URL as given: never `fetchUrl`.
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

  if (feed.unavailable !== undefined) return fail(feed.unavailable);
  let response;
  try {
    response = await http.fetch(feed.fetchUrl ?? feed.url, {
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

/** How often the schedule looks for feeds that are due (a minute: intervals are ≥ 5 minutes). */
export const FEED_SCHEDULE_TICK_MS = 60_000;

/**
 * Keep feeds fresh: now, then every `tickMs`, refresh each feed whose last attempt (`checkedAt`
 * in the store) is at least its interval old — `max(intervalMs, feed.intervalMs)` — or that was
 * never tried or changed its URL or format. Feeds are read again from `feeds()` every tick, so a
 * feed registered while the server runs (`linkguard feeds add`) is picked up without a restart.
 * One feed at a time.
 *
 * @param feeds the feeds to keep fresh, read at every tick.
 * @param options `intervalMs` the least interval of every feed (FEEDS_REFRESH_MINUTES), `tickMs`
 *   (default {@link FEED_SCHEDULE_TICK_MS}), `onError` for a tick that could not list the feeds.
 * @returns a function that stops the schedule (a refresh in progress finishes, no other starts).
 */
export function scheduleFeedRefresh(
  deps: { http: HttpClient; store: IntelStore; clock: Clock },
  feeds: () => Promise<readonly ConfiguredFeed[]>,
  options: { intervalMs: number; tickMs?: number; onError?: (error: unknown) => void },
  onOutcome: (feed: ConfiguredFeed, outcome: RefreshOutcome) => void,
): () => void {
  const tickMs = options.tickMs ?? FEED_SCHEDULE_TICK_MS;
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  const due = async (): Promise<ConfiguredFeed[]> => {
    const list = await feeds();
    const known = new Map((await deps.store.listFeeds()).map((f) => [f.name, f]));
    const now = deps.clock.now();
    return list.filter((feed) => {
      const record = known.get(feed.name);
      if (record === undefined || record.checkedAt === null) return true;
      if (record.url !== feed.url || record.format !== feed.format) return true;
      const interval = Math.max(options.intervalMs, feed.intervalMs ?? 0);
      return now - record.checkedAt >= interval;
    });
  };
  const round = async (): Promise<void> => {
    let list: ConfiguredFeed[] = [];
    try {
      list = await due();
    } catch (error) {
      // Stopped meanwhile: the store may be closing; nothing to report.
      if (!stopped) options.onError?.(error);
    }
    for (const feed of list) {
      if (stopped) return;
      const outcome = await refreshFeed(deps, feed).catch((error: unknown): RefreshOutcome => ({
        status: 'failed',
        error: error instanceof Error ? error.message : 'refresh failed',
      }));
      onOutcome(feed, outcome);
    }
    if (!stopped) timer = setTimeout(() => void round(), tickMs).unref();
  };
  void round();
  return () => {
    stopped = true;
    if (timer !== null) clearTimeout(timer);
  };
}
