/**
 * @module store/sqlite/migrations/009-report-redaction
 * Erasure of a reporter's personal data (issue 16, README "Verdict corrections"): the operator
 * can clear a report's `comment` and `contact` (`linkguard reports redact`); the report records
 * when and by whom. URL, kind, verdict at filing and resolution stay: they are the service's
 * record, not the reporter's data. A redacted report holds neither comment nor contact.
 */

import type { Migration } from '../migrate.js';

export const migration009: Migration = {
  version: 9,
  name: 'report-redaction',
  sql: `
ALTER TABLE reports ADD COLUMN redacted_at INTEGER;
ALTER TABLE reports ADD COLUMN redacted_by TEXT
  CHECK ((redacted_at IS NULL) = (redacted_by IS NULL))
  CHECK (redacted_at IS NULL OR (comment IS NULL AND contact IS NULL));
`,
};
