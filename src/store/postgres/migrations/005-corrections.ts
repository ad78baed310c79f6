/**
 * @module store/postgres/migrations/005-corrections
 * Verdict corrections (issue 16): reports filed by users against a verdict, and the operator's
 * overrides. Same tables as the SQLite migration 008, in PostgreSQL types: times in epoch ms
 * (`bigint`), `seq` identity columns for insertion order, the verdict as `json` (kept as served,
 * key order included). Overrides are never deleted, only marked removed.
 *
 * Every change to `verdict_overrides` notifies channel `linkguard_credentials` with payload
 * `verdict_overrides` (the trigger function of migration 002 sends the table's name), so each
 * instance drops its cached snapshot of the overrides in force and applies a new or removed
 * override on its next request (`store/postgres/credential-cache.ts`).
 *
 * `reports.override_id` is checked at commit (DEFERRABLE INITIALLY DEFERRED) because a
 * resolution first claims the report with a conditional UPDATE, then inserts the override, in
 * one transaction.
 */

import type { PostgresMigration } from '../migrate.js';

export const migration005: PostgresMigration = {
  version: 5,
  name: 'corrections',
  sql: `
CREATE TABLE reports (
  id text PRIMARY KEY,
  seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
  created_at bigint NOT NULL,
  url text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('false_positive', 'false_negative')),
  comment text,
  contact text,
  source text NOT NULL CHECK (source IN ('key', 'connector', 'anonymous', 'page')),
  source_id text,
  verdict json NOT NULL,
  engine_version text NOT NULL,
  data_version text NOT NULL,
  status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'accepted', 'rejected')),
  resolved_at bigint,
  resolved_by text,
  resolution_note text,
  override_id text,
  -- Open reports carry no resolution; resolved ones say when and by whom.
  CHECK ((status = 'open') = (resolved_at IS NULL)),
  CHECK ((status = 'open') = (resolved_by IS NULL)),
  CHECK (status <> 'open' OR (resolution_note IS NULL AND override_id IS NULL))
);
-- listReports: newest first, all or by status.
CREATE INDEX reports_created ON reports (created_at, seq);
CREATE INDEX reports_status_created ON reports (status, created_at, seq);

CREATE TABLE verdict_overrides (
  id text PRIMARY KEY,
  seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
  action text NOT NULL CHECK (action IN ('allow', 'deny')),
  scope text NOT NULL CHECK (scope IN ('domain', 'host', 'url_prefix')),
  target text NOT NULL CHECK (length(target) > 0),
  reason text NOT NULL,
  created_by text NOT NULL,
  created_at bigint NOT NULL,
  expires_at bigint,
  removed_at bigint,
  removed_by text,
  report_id text REFERENCES reports (id),
  CHECK ((removed_at IS NULL) = (removed_by IS NULL))
);
-- activeOverrides: the ones not removed, oldest first.
CREATE INDEX verdict_overrides_active ON verdict_overrides (created_at, seq)
  WHERE removed_at IS NULL;
CREATE INDEX verdict_overrides_report ON verdict_overrides (report_id)
  WHERE report_id IS NOT NULL;

ALTER TABLE reports ADD FOREIGN KEY (override_id) REFERENCES verdict_overrides (id)
  DEFERRABLE INITIALLY DEFERRED;

CREATE TRIGGER verdict_overrides_notify
  AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON verdict_overrides
  FOR EACH STATEMENT EXECUTE FUNCTION linkguard_notify_credentials();
`,
};
