/**
 * @module store/sqlite/migrations/003-threat-intel
 * Layer 2: threat-intelligence feeds and their entries (as the feeds give them; classified into
 * host and URL-prefix entries when the in-memory index is built), a change counter the server
 * polls to rebuild its index when another process imports a feed, and the per-domain history of
 * non-safe verdicts (registrable domains only, never URLs).
 */

import type { Migration } from '../migrate.js';

export const migration003: Migration = {
  version: 3,
  name: 'threat-intel',
  sql: `
CREATE TABLE intel_feeds (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  format TEXT NOT NULL,
  url TEXT,
  threat TEXT,
  entry_count INTEGER NOT NULL DEFAULT 0,
  imported_at INTEGER,
  checked_at INTEGER,
  etag TEXT,
  last_modified TEXT,
  last_error TEXT
) STRICT;

CREATE TABLE intel_entries (
  feed_id INTEGER NOT NULL REFERENCES intel_feeds (id) ON DELETE CASCADE,
  list TEXT NOT NULL CHECK (list IN ('deny', 'allow', 'fuzzy')),
  kind TEXT NOT NULL CHECK (kind IN ('host', 'url')),
  value TEXT NOT NULL,
  target TEXT,
  first_seen INTEGER
) STRICT;

CREATE INDEX intel_entries_feed ON intel_entries (feed_id);

-- One row; bumped by every change to feeds or entries, polled by servers to rebuild the index.
CREATE TABLE intel_version (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  version INTEGER NOT NULL
) STRICT;
INSERT INTO intel_version (id, version) VALUES (1, 0);

CREATE TABLE domain_history (
  domain TEXT PRIMARY KEY,
  first_seen INTEGER NOT NULL,
  last_seen INTEGER NOT NULL,
  count INTEGER NOT NULL CHECK (count > 0),
  worst_verdict TEXT NOT NULL CHECK (worst_verdict IN ('caution', 'danger')),
  -- Comma-separated, sorted, de-duplicated.
  threat_types TEXT NOT NULL,
  sources TEXT NOT NULL
) STRICT, WITHOUT ROWID;
`,
};
