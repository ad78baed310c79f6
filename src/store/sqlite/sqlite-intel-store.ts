/**
 * @module store/sqlite/sqlite-intel-store
 * {@link IntelStore} on better-sqlite3: threat feeds, their entries, the change counter servers
 * poll, and the per-domain history of non-safe verdicts.
 *
 * History events arrive on the request path, so they are buffered and merged in one transaction
 * per batch (like usage rows, see sqlite-usage-store.ts): every {@link HISTORY_FLUSH_MS} ms or
 * {@link HISTORY_BATCH} events. Reads flush first.
 */

import type Database from 'better-sqlite3';

import type {
  DomainHistory,
  FeedRecord,
  HistoryEvent,
  IntelStore,
  StoredFeedEntry,
} from '../ports/intel-store.js';
import { asPromise } from './as-promise.js';

const HISTORY_FLUSH_MS = 250;
const HISTORY_BATCH = 256;
/** Events kept while writes fail; beyond, the oldest are dropped (history is best effort). */
const MAX_BUFFERED_EVENTS = 50_000;

interface HistoryRow {
  domain: string;
  firstSeen: number;
  lastSeen: number;
  count: number;
  worstVerdict: 'caution' | 'danger';
  threatTypes: string;
  sources: string;
}

const FEED_COLUMNS = `id, name, format, url, threat, entry_count AS entryCount,
  imported_at AS importedAt, checked_at AS checkedAt, etag, last_modified AS lastModified,
  last_error AS lastError`;

export class SqliteIntelStore implements IntelStore {
  readonly #db: Database.Database;
  readonly #findFeed: Database.Statement<[string], FeedRecord>;
  readonly #upsertFeed: Database.Statement<
    [{ name: string; format: string; url: string | null; threat: string | null }]
  >;
  readonly #listFeeds: Database.Statement<[], FeedRecord>;
  readonly #bump: Database.Statement<[]>;
  readonly #version: Database.Statement<[], { version: number }>;
  readonly #replace: Database.Transaction<
    (
      feedId: number,
      entries: readonly StoredFeedEntry[],
      meta: { importedAt: number; etag?: string | null; lastModified?: string | null },
    ) => void
  >;
  readonly #check: Database.Statement<[{ id: number; checkedAt: number; error: string | null }]>;
  readonly #remove: Database.Transaction<(name: string) => boolean>;
  readonly #entries: Database.Statement<
    [number, number],
    {
      id: number;
      feedId: number;
      list: StoredFeedEntry['list'];
      kind: StoredFeedEntry['kind'];
      value: string;
      target: string | null;
      firstSeen: number | null;
    }
  >;
  readonly #history: Database.Statement<[string], HistoryRow>;
  readonly #writeHistory: Database.Transaction<(events: readonly HistoryEvent[]) => void>;
  #buffer: HistoryEvent[] = [];
  #timer: NodeJS.Timeout | null = null;

  constructor(db: Database.Database) {
    this.#db = db;
    this.#findFeed = db.prepare(`SELECT ${FEED_COLUMNS} FROM intel_feeds WHERE name = ?`);
    this.#upsertFeed = db.prepare(`INSERT INTO intel_feeds (name, format, url, threat)
      VALUES (@name, @format, @url, @threat)
      ON CONFLICT (name) DO UPDATE SET format = excluded.format, url = excluded.url,
        threat = excluded.threat`);
    this.#listFeeds = db.prepare(`SELECT ${FEED_COLUMNS} FROM intel_feeds ORDER BY name`);
    this.#bump = db.prepare('UPDATE intel_version SET version = version + 1 WHERE id = 1');
    this.#version = db.prepare('SELECT version FROM intel_version WHERE id = 1');
    const deleteEntries = db.prepare('DELETE FROM intel_entries WHERE feed_id = ?');
    const insertEntry = db.prepare<[number, string, string, string, string | null, number | null]>(
      'INSERT INTO intel_entries (feed_id, list, kind, value, target, first_seen) VALUES (?, ?, ?, ?, ?, ?)',
    );
    const markImport = db.prepare<
      [{ id: number; count: number; at: number; etag: string | null; modified: string | null }]
    >(`UPDATE intel_feeds SET entry_count = @count, imported_at = @at, checked_at = @at,
        etag = @etag, last_modified = @modified, last_error = NULL WHERE id = @id`);
    this.#replace = db.transaction((feedId, entries, meta) => {
      deleteEntries.run(feedId);
      for (const e of entries) {
        insertEntry.run(feedId, e.list, e.kind, e.value, e.target, e.firstSeen);
      }
      markImport.run({
        id: feedId,
        count: entries.length,
        at: meta.importedAt,
        etag: meta.etag ?? null,
        modified: meta.lastModified ?? null,
      });
      this.#bump.run();
    });
    this.#check = db.prepare(
      'UPDATE intel_feeds SET checked_at = @checkedAt, last_error = @error WHERE id = @id',
    );
    const deleteFeed = db.prepare('DELETE FROM intel_feeds WHERE name = ?');
    this.#remove = db.transaction((name: string): boolean => {
      const feed = this.#findFeed.get(name);
      if (feed === undefined) return false;
      deleteEntries.run(feed.id);
      deleteFeed.run(name);
      this.#bump.run();
      return true;
    });
    this.#entries = db.prepare(`SELECT rowid AS id, feed_id AS feedId, list, kind, value, target,
      first_seen AS firstSeen FROM intel_entries WHERE rowid > ? ORDER BY rowid LIMIT ?`);
    this.#history = db.prepare(`SELECT domain, first_seen AS firstSeen, last_seen AS lastSeen,
      count, worst_verdict AS worstVerdict, threat_types AS threatTypes, sources
      FROM domain_history WHERE domain = ?`);
    const putHistory = db.prepare<[HistoryRow]>(`INSERT OR REPLACE INTO domain_history
      (domain, first_seen, last_seen, count, worst_verdict, threat_types, sources)
      VALUES (@domain, @firstSeen, @lastSeen, @count, @worstVerdict, @threatTypes, @sources)`);
    // Read-merge-write under the transaction's write lock: no other writer can interleave.
    this.#writeHistory = db.transaction((events: readonly HistoryEvent[]) => {
      for (const event of events) {
        putHistory.run(merge(this.#history.get(event.domain), event));
      }
    });
  }

  upsertFeed(feed: {
    name: string;
    format: string;
    url: string | null;
    threat: string | null;
  }): Promise<FeedRecord> {
    return asPromise(() => {
      this.#upsertFeed.run(feed);
      this.#bump.run();
      const row = this.#findFeed.get(feed.name);
      if (row === undefined) throw new Error(`feed ${feed.name} vanished after its upsert`);
      return row;
    });
  }

  replaceEntries(
    feedId: number,
    entries: readonly StoredFeedEntry[],
    meta: { importedAt: number; etag?: string | null; lastModified?: string | null },
  ): Promise<void> {
    return asPromise(() => {
      this.#replace.immediate(feedId, entries, meta);
    });
  }

  recordCheck(feedId: number, check: { checkedAt: number; error: string | null }): Promise<void> {
    return asPromise(() => {
      this.#check.run({ id: feedId, ...check });
    });
  }

  listFeeds(): Promise<FeedRecord[]> {
    return asPromise(() => this.#listFeeds.all());
  }

  removeFeed(name: string): Promise<boolean> {
    return asPromise(() => this.#remove.immediate(name));
  }

  readEntries(
    afterId: number,
    limit: number,
  ): Promise<{ id: number; feedId: number; entry: StoredFeedEntry }[]> {
    return asPromise(() =>
      this.#entries.all(afterId, limit).map((row) => ({
        id: row.id,
        feedId: row.feedId,
        entry: {
          list: row.list,
          kind: row.kind,
          value: row.value,
          target: row.target,
          firstSeen: row.firstSeen,
        },
      })),
    );
  }

  feedsVersion(): Promise<number> {
    return asPromise(() => this.#version.get()?.version ?? 0);
  }

  recordHistory(events: readonly HistoryEvent[]): Promise<void> {
    this.#buffer.push(...events);
    if (this.#buffer.length > MAX_BUFFERED_EVENTS) {
      this.#buffer.splice(0, this.#buffer.length - MAX_BUFFERED_EVENTS);
    }
    if (this.#buffer.length >= HISTORY_BATCH) this.flushHistory();
    else
      this.#timer ??= setTimeout(() => {
        this.flushHistory();
      }, HISTORY_FLUSH_MS).unref();
    return Promise.resolve();
  }

  domainHistory(domain: string): Promise<DomainHistory | null> {
    return asPromise(() => {
      this.flushHistory();
      const row = this.#history.get(domain);
      return row === undefined ? null : toHistory(row);
    });
  }

  /**
   * Write buffered history events now. A failure keeps them for the next attempt (history is
   * best effort: it must never fail a request).
   */
  flushHistory(): void {
    if (this.#timer !== null) {
      clearTimeout(this.#timer);
      this.#timer = null;
    }
    if (this.#buffer.length === 0 || !this.#db.open) return;
    const batch = this.#buffer;
    this.#buffer = [];
    try {
      this.#writeHistory.immediate(batch);
    } catch {
      this.#buffer = batch.concat(this.#buffer);
    }
  }
}

const RANK = { caution: 1, danger: 2 } as const;

function merge(row: HistoryRow | undefined, event: HistoryEvent): HistoryRow {
  if (row === undefined) {
    return {
      domain: event.domain,
      firstSeen: event.at,
      lastSeen: event.at,
      count: 1,
      worstVerdict: event.verdict,
      threatTypes: joinSet(event.threatTypes),
      sources: joinSet(event.sources),
    };
  }
  return {
    domain: row.domain,
    firstSeen: Math.min(row.firstSeen, event.at),
    lastSeen: Math.max(row.lastSeen, event.at),
    count: row.count + 1,
    worstVerdict: RANK[event.verdict] > RANK[row.worstVerdict] ? event.verdict : row.worstVerdict,
    threatTypes: joinSet([...splitSet(row.threatTypes), ...event.threatTypes]),
    sources: joinSet([...splitSet(row.sources), ...event.sources]),
  };
}

function splitSet(text: string): string[] {
  return text === '' ? [] : text.split(',');
}

function joinSet(values: readonly string[]): string {
  return [...new Set(values)].sort().join(',');
}

function toHistory(row: HistoryRow): DomainHistory {
  return {
    domain: row.domain,
    firstSeen: row.firstSeen,
    lastSeen: row.lastSeen,
    count: row.count,
    worstVerdict: row.worstVerdict,
    threatTypes: splitSet(row.threatTypes),
    sources: splitSet(row.sources),
  };
}
