/**
 * @module store/sqlite/migrations/008-corrections
 * Verdict corrections (issue 16): reports filed by users against a verdict, and the operator's
 * overrides. A report keeps the URL (a deliberate submission, README "Verdict corrections") and
 * the verdict served for it as JSON text, whole (`matched_patterns` and `reason` included), with
 * the engine and data versions that produced it; never headers or addresses. Overrides are never
 * deleted, only marked removed, so who set or removed one, when and why stays on record.
 *
 * The two tables name each other: an override created by resolving a report names the report,
 * and the report names that override. `reports.override_id` is checked at commit (DEFERRABLE
 * INITIALLY DEFERRED) because a resolution first claims the report with a conditional UPDATE,
 * then inserts the override, in one transaction.
 */

import type { Migration } from '../migrate.js';

export const migration008: Migration = {
  version: 8,
  name: 'corrections',
  sql: `
CREATE TABLE reports (
  id TEXT PRIMARY KEY,
  created_at INTEGER NOT NULL,
  url TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('false_positive', 'false_negative')),
  comment TEXT,
  contact TEXT,
  source TEXT NOT NULL CHECK (source IN ('key', 'connector', 'anonymous', 'page')),
  source_id TEXT,
  -- The verdict served when the report was filed, as JSON text (engine/verdict.ts).
  verdict TEXT NOT NULL CHECK (json_valid(verdict)),
  engine_version TEXT NOT NULL,
  data_version TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'accepted', 'rejected')),
  resolved_at INTEGER,
  resolved_by TEXT,
  resolution_note TEXT,
  override_id TEXT REFERENCES verdict_overrides (id) DEFERRABLE INITIALLY DEFERRED,
  -- Open reports carry no resolution; resolved ones say when and by whom.
  CHECK ((status = 'open') = (resolved_at IS NULL)),
  CHECK ((status = 'open') = (resolved_by IS NULL)),
  CHECK (status <> 'open' OR (resolution_note IS NULL AND override_id IS NULL))
) STRICT;
-- listReports: newest first, all or by status.
CREATE INDEX reports_created ON reports (created_at);
CREATE INDEX reports_status_created ON reports (status, created_at);

CREATE TABLE verdict_overrides (
  id TEXT PRIMARY KEY,
  action TEXT NOT NULL CHECK (action IN ('allow', 'deny')),
  scope TEXT NOT NULL CHECK (scope IN ('domain', 'host', 'url_prefix')),
  target TEXT NOT NULL CHECK (length(target) > 0),
  reason TEXT NOT NULL,
  created_by TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER,
  removed_at INTEGER,
  removed_by TEXT,
  report_id TEXT REFERENCES reports (id),
  CHECK ((removed_at IS NULL) = (removed_by IS NULL))
) STRICT;
-- activeOverrides: the ones not removed, oldest first.
CREATE INDEX verdict_overrides_active ON verdict_overrides (created_at) WHERE removed_at IS NULL;
CREATE INDEX verdict_overrides_report ON verdict_overrides (report_id) WHERE report_id IS NOT NULL;
`,
};
