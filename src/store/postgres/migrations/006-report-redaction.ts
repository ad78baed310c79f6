/**
 * @module store/postgres/migrations/006-report-redaction
 * Erasure of a reporter's personal data (issue 16, README "Verdict corrections"): the operator
 * can clear a report's `comment` and `contact` (`linkguard reports redact`); the report records
 * when and by whom. URL, kind, verdict at filing and resolution stay: they are the service's
 * record, not the reporter's data. A redacted report holds neither comment nor contact. Same
 * schema as the SQLite migration 009.
 */

import type { PostgresMigration } from '../migrate.js';

export const migration006: PostgresMigration = {
  version: 6,
  name: 'report-redaction',
  sql: `
ALTER TABLE reports ADD COLUMN redacted_at bigint;
ALTER TABLE reports ADD COLUMN redacted_by text;
ALTER TABLE reports ADD CONSTRAINT reports_redacted_who_when
  CHECK ((redacted_at IS NULL) = (redacted_by IS NULL));
ALTER TABLE reports ADD CONSTRAINT reports_redacted_erased
  CHECK (redacted_at IS NULL OR (comment IS NULL AND contact IS NULL));
`,
};
