/**
 * @module store/postgres/pg-intel-store
 * {@link IntelStore} on PostgreSQL: threat feeds, their entries, the change counter servers poll,
 * and the per-domain history of non-safe verdicts.
 *
 * A feed's entries are replaced in one transaction (readers see the old or the new set: MVCC),
 * inserted {@link INSERT_CHUNK} at a time through `unnest`. History events arrive on the request
 * path, so they are buffered ({@link HISTORY_FLUSH_MS} ms or {@link HISTORY_BATCH} events),
 * merged per domain, and written with one UPSERT whose `ON CONFLICT` arm merges with what other
 * instances recorded (least/greatest of the instants, sum of the counts, union of the sets), so
 * concurrent writers never lose each other's events.
 */

import type {
  DomainHistory,
  FeedRecord,
  HistoryEvent,
  IntelStore,
  StoredFeedEntry,
} from '../ports/intel-store.js';
import type { PgDatabase } from './pg-database.js';

const HISTORY_FLUSH_MS = 250;
const HISTORY_BATCH = 256;
/** Events kept while writes fail; beyond, the oldest are dropped (history is best effort). */
const MAX_BUFFERED_EVENTS = 50_000;
/** Entries per INSERT: bounded statement size, few round trips for a 100,000-entry feed. */
const INSERT_CHUNK = 5000;

const FEED_COLUMNS = `id::int AS id, name, format, url, threat, entry_count AS "entryCount",
  imported_at AS "importedAt", checked_at AS "checkedAt", etag, last_modified AS "lastModified",
  last_error AS "lastError"`;

const BUMP = 'UPDATE intel_version SET version = version + 1 WHERE id = 1';

const RANK = { caution: 1, danger: 2 } as const;

/** Events of one batch merged per domain (one UPSERT row may not touch a domain twice). */
interface MergedEvent {
  domain: string;
  firstSeen: number;
  lastSeen: number;
  count: number;
  worst: 'caution' | 'danger';
  threatTypes: Set<string>;
  sources: Set<string>;
}

function mergeBatch(events: readonly HistoryEvent[]): MergedEvent[] {
  const byDomain = new Map<string, MergedEvent>();
  for (const event of events) {
    const seen = byDomain.get(event.domain);
    if (seen === undefined) {
      byDomain.set(event.domain, {
        domain: event.domain,
        firstSeen: event.at,
        lastSeen: event.at,
        count: 1,
        worst: event.verdict,
        threatTypes: new Set(event.threatTypes),
        sources: new Set(event.sources),
      });
      continue;
    }
    seen.firstSeen = Math.min(seen.firstSeen, event.at);
    seen.lastSeen = Math.max(seen.lastSeen, event.at);
    seen.count += 1;
    if (RANK[event.verdict] > RANK[seen.worst]) seen.worst = event.verdict;
    for (const t of event.threatTypes) seen.threatTypes.add(t);
    for (const s of event.sources) seen.sources.add(s);
  }
  return [...byDomain.values()];
}

/**
 * Union of two text arrays, de-duplicated and sorted in byte order (as the SQLite adapter). The
 * DISTINCT sits in a subquery: PostgreSQL refuses `SELECT DISTINCT v … ORDER BY v COLLATE "C"`
 * (the ORDER BY expression is not in the select list).
 */
const UNION = (a: string, b: string) =>
  `ARRAY(SELECT v FROM (SELECT DISTINCT v FROM unnest(${a} || ${b}) AS v) AS d ORDER BY v COLLATE "C")`;

export class PgIntelStore implements IntelStore {
  #buffer: HistoryEvent[] = [];
  #timer: NodeJS.Timeout | null = null;
  #writing: Promise<void> = Promise.resolve();

  constructor(private readonly db: PgDatabase) {}

  upsertFeed(feed: {
    name: string;
    format: string;
    url: string | null;
    threat: string | null;
  }): Promise<FeedRecord> {
    return this.db.transaction(async (client) => {
      const { rows } = await client.query<FeedRecord>(
        `INSERT INTO intel_feeds (name, format, url, threat) VALUES ($1, $2, $3, $4)
          ON CONFLICT (name) DO UPDATE SET format = excluded.format, url = excluded.url,
            threat = excluded.threat
          RETURNING ${FEED_COLUMNS}`,
        [feed.name, feed.format, feed.url, feed.threat],
      );
      await client.query(BUMP);
      const row = rows[0];
      if (row === undefined) throw new Error(`feed ${feed.name} vanished after its upsert`);
      return row;
    });
  }

  async replaceEntries(
    feedId: number,
    entries: readonly StoredFeedEntry[],
    meta: { importedAt: number; etag?: string | null; lastModified?: string | null },
  ): Promise<void> {
    await this.db.transaction(async (client) => {
      await client.query('DELETE FROM intel_entries WHERE feed_id = $1', [feedId]);
      for (let start = 0; start < entries.length; start += INSERT_CHUNK) {
        const chunk = entries.slice(start, start + INSERT_CHUNK);
        await client.query(
          `INSERT INTO intel_entries (feed_id, list, kind, value, target, first_seen)
            SELECT $1, * FROM unnest($2::text[], $3::text[], $4::text[], $5::text[],
              $6::bigint[])`,
          [
            feedId,
            chunk.map((e) => e.list),
            chunk.map((e) => e.kind),
            chunk.map((e) => e.value),
            chunk.map((e) => e.target),
            chunk.map((e) => e.firstSeen),
          ],
        );
      }
      await client.query(
        `UPDATE intel_feeds SET entry_count = $2, imported_at = $3, checked_at = $3, etag = $4,
          last_modified = $5, last_error = NULL WHERE id = $1`,
        [feedId, entries.length, meta.importedAt, meta.etag ?? null, meta.lastModified ?? null],
      );
      await client.query(BUMP);
    });
  }

  async recordCheck(
    feedId: number,
    check: { checkedAt: number; error: string | null },
  ): Promise<void> {
    await this.db.query('UPDATE intel_feeds SET checked_at = $2, last_error = $3 WHERE id = $1', [
      feedId,
      check.checkedAt,
      check.error,
    ]);
  }

  async listFeeds(): Promise<FeedRecord[]> {
    const { rows } = await this.db.query<FeedRecord>(
      `SELECT ${FEED_COLUMNS} FROM intel_feeds ORDER BY name COLLATE "C"`,
    );
    return rows;
  }

  removeFeed(name: string): Promise<boolean> {
    return this.db.transaction(async (client) => {
      // Entries go with the feed (ON DELETE CASCADE).
      const removed = await client.query('DELETE FROM intel_feeds WHERE name = $1', [name]);
      if (removed.rowCount !== 1) return false;
      await client.query(BUMP);
      return true;
    });
  }

  async readEntries(
    afterId: number,
    limit: number,
  ): Promise<{ id: number; feedId: number; entry: StoredFeedEntry }[]> {
    const { rows } = await this.db.query<{
      id: number;
      feedId: number;
      list: StoredFeedEntry['list'];
      kind: StoredFeedEntry['kind'];
      value: string;
      target: string | null;
      firstSeen: number | null;
    }>(
      `SELECT id, feed_id AS "feedId", list, kind, value, target, first_seen AS "firstSeen"
        FROM intel_entries WHERE id > $1 ORDER BY id LIMIT $2`,
      [afterId, limit],
    );
    return rows.map((row) => ({
      id: row.id,
      feedId: row.feedId,
      entry: {
        list: row.list,
        kind: row.kind,
        value: row.value,
        target: row.target,
        firstSeen: row.firstSeen,
      },
    }));
  }

  async feedsVersion(): Promise<number> {
    const { rows } = await this.db.query<{ version: number }>(
      'SELECT version FROM intel_version WHERE id = 1',
    );
    return rows[0]?.version ?? 0;
  }

  recordHistory(events: readonly HistoryEvent[]): Promise<void> {
    this.#buffer.push(...events);
    if (this.#buffer.length > MAX_BUFFERED_EVENTS) {
      this.#buffer.splice(0, this.#buffer.length - MAX_BUFFERED_EVENTS);
    }
    if (this.#buffer.length >= HISTORY_BATCH) {
      this.flushHistory().catch(() => undefined);
    } else {
      this.#timer ??= setTimeout(() => {
        this.#timer = null;
        // Failed batches go back to the buffer and are retried with the next one.
        this.flushHistory().catch(() => undefined);
      }, HISTORY_FLUSH_MS).unref();
    }
    return Promise.resolve();
  }

  async domainHistory(domain: string): Promise<DomainHistory | null> {
    await this.flushHistory();
    const { rows } = await this.db.query<DomainHistory>(
      `SELECT domain, first_seen AS "firstSeen", last_seen AS "lastSeen", count,
        worst_verdict AS "worstVerdict", threat_types AS "threatTypes", sources
        FROM domain_history WHERE domain = $1`,
      [domain],
    );
    return rows[0] ?? null;
  }

  /** Write buffered history events now (after any write under way). */
  flushHistory(): Promise<void> {
    if (this.#timer !== null) {
      clearTimeout(this.#timer);
      this.#timer = null;
    }
    this.#writing = this.#writing.catch(() => undefined).then(() => this.#writeBuffered());
    return this.#writing;
  }

  async #writeBuffered(): Promise<void> {
    if (this.#buffer.length === 0) return;
    const batch = this.#buffer;
    this.#buffer = [];
    const merged = mergeBatch(batch);
    try {
      await this.db.query(
        `INSERT INTO domain_history AS h
          (domain, first_seen, last_seen, count, worst_verdict, threat_types, sources)
          SELECT d, f, l, c, w,
            CASE WHEN t = '' THEN '{}'::text[] ELSE string_to_array(t, E'\\x1f') END,
            CASE WHEN s = '' THEN '{}'::text[] ELSE string_to_array(s, E'\\x1f') END
          FROM unnest($1::text[], $2::bigint[], $3::bigint[], $4::bigint[], $5::text[],
            $6::text[], $7::text[]) AS e (d, f, l, c, w, t, s)
          ON CONFLICT (domain) DO UPDATE SET
            first_seen = least(h.first_seen, excluded.first_seen),
            last_seen = greatest(h.last_seen, excluded.last_seen),
            count = h.count + excluded.count,
            worst_verdict = CASE WHEN 'danger' IN (h.worst_verdict, excluded.worst_verdict)
              THEN 'danger' ELSE 'caution' END,
            threat_types = ${UNION('h.threat_types', 'excluded.threat_types')},
            sources = ${UNION('h.sources', 'excluded.sources')}`,
        [
          merged.map((m) => m.domain),
          merged.map((m) => m.firstSeen),
          merged.map((m) => m.lastSeen),
          merged.map((m) => m.count),
          merged.map((m) => m.worst),
          // Unit separator: never part of a threat type or a feed name.
          merged.map((m) => [...m.threatTypes].sort().join('\u001f')),
          merged.map((m) => [...m.sources].sort().join('\u001f')),
        ],
      );
    } catch (error) {
      this.#buffer = batch.concat(this.#buffer);
      throw error;
    }
  }
}
