/**
 * @module store/sqlite/migrations/004-licenses
 * Premium licenses of the MCP connector (spec §5, §8) and their monthly check counters. As for
 * enterprise keys, only the SHA-256 of a license is stored, and counters are spent atomically
 * (`reserveChecks`), one check per URL.
 */

import type { Migration } from '../migrate.js';

export const migration004: Migration = {
  version: 4,
  name: 'licenses',
  sql: `
CREATE TABLE licenses (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  prefix TEXT NOT NULL,
  -- SHA-256 of the raw license; the raw license is never stored (DESIGN §4.16).
  hash BLOB NOT NULL UNIQUE CHECK (length(hash) = 32),
  created_at INTEGER NOT NULL,
  revoked_at INTEGER
) STRICT;

-- Connector checks spent per license and month (spec §8: 1,000 per month).
CREATE TABLE license_usage (
  license_id TEXT NOT NULL REFERENCES licenses (id),
  month TEXT NOT NULL CHECK (
    month GLOB '[0-9][0-9][0-9][0-9]-[01][0-9]' AND substr(month, 6, 2) BETWEEN '01' AND '12'
  ),
  checks INTEGER NOT NULL CHECK (checks >= 0),
  PRIMARY KEY (license_id, month)
) STRICT, WITHOUT ROWID;
`,
};
