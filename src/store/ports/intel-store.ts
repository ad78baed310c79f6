/**
 * @module store/ports/intel-store
 * Threat feeds, their entries, and the domain history of layer 2. Part of the persistence ports:
 * services depend on these interfaces only; `store/sqlite/` implements them. Every operation that
 * must happen exactly once is a single atomic statement in the adapter, never a read-then-write in
 * application code; all methods are async for that reason. Times are epoch milliseconds (UTC),
 * months `YYYY-MM` (UTC).
 */

/** A threat-intelligence feed (layer 2): where its entries came from and how fresh they are. */
export interface FeedRecord {
  id: number;
  /** Unique, chosen at import (`--source`), shown in verdicts: `intel:<name>`. */
  name: string;
  /** Parser of `src/intel/feeds/` that reads it. */
  format: string;
  /** Refreshed from this URL on a schedule, or null for a file imported by hand. */
  url: string | null;
  /** Threat type a hit on this feed implies (a `threat_types` value), or null when it implies none. */
  threat: string | null;
  entryCount: number;
  /** Last successful import (epoch ms), or null before the first. */
  importedAt: number | null;
  /** Last refresh attempt (epoch ms), successful or not. */
  checkedAt: number | null;
  /** HTTP validators of the last download, for conditional GET. */
  etag: string | null;
  lastModified: string | null;
  /** Why the last refresh failed, or null. */
  lastError: string | null;
}

/** One feed entry as stored: a host or a URL as the feed gave it (classified when indexed). */
export interface StoredFeedEntry {
  list: 'deny' | 'allow' | 'fuzzy';
  kind: 'host' | 'url';
  value: string;
  target: string | null;
  /** When the feed first saw it (epoch ms), or null. */
  firstSeen: number | null;
}

/** A non-safe verdict (or feed hit) on a registrable domain, as the history records it. */
export interface HistoryEvent {
  /** Registrable domain only, never a URL: submitted URLs are not stored. */
  domain: string;
  at: number;
  verdict: 'caution' | 'danger';
  threatTypes: readonly string[];
  /** Feeds that listed it (`intel:` names without the prefix), possibly empty. */
  sources: readonly string[];
}

/** What linkguard has seen of one registrable domain. */
export interface DomainHistory {
  domain: string;
  firstSeen: number;
  lastSeen: number;
  count: number;
  worstVerdict: 'caution' | 'danger';
  threatTypes: string[];
  sources: string[];
}

export interface IntelStore {
  /** Create a feed, or update its format, URL and threat when the name exists. */
  upsertFeed(feed: {
    name: string;
    format: string;
    url: string | null;
    threat: string | null;
  }): Promise<FeedRecord>;
  /**
   * Replace every entry of a feed in one transaction (readers see the old or the new set, never
   * a mix), and record the import time and HTTP validators.
   */
  replaceEntries(
    feedId: number,
    entries: readonly StoredFeedEntry[],
    meta: { importedAt: number; etag?: string | null; lastModified?: string | null },
  ): Promise<void>;
  /** Record a refresh attempt that changed no entries (304, or a failure with its error). */
  recordCheck(feedId: number, check: { checkedAt: number; error: string | null }): Promise<void>;
  listFeeds(): Promise<FeedRecord[]>;
  /** Delete a feed and its entries; false when no feed has that name. */
  removeFeed(name: string): Promise<boolean>;
  /**
   * A page of entries of all feeds in storage order, after the entry with id `afterId` (0 for
   * the first page): the index is built page by page so a rebuild never blocks requests long.
   */
  readEntries(
    afterId: number,
    limit: number,
  ): Promise<{ id: number; feedId: number; entry: StoredFeedEntry }[]>;
  /** A number that changes whenever feeds or entries change (any process). */
  feedsVersion(): Promise<number>;
  /**
   * Add events to the per-domain history. Adapters may buffer briefly (like usage rows);
   * `domainHistory` sees every recorded event.
   */
  recordHistory(events: readonly HistoryEvent[]): Promise<void>;
  /** The history of a registrable domain, or null when nothing was recorded. */
  domainHistory(domain: string): Promise<DomainHistory | null>;
}
