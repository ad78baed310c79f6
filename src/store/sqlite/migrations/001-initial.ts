/**
 * @module store/sqlite/migrations/001-initial
 * First schema of the embedded store: enterprise keys, their usage log and monthly counters, and
 * x402 payment nonces. Tables are STRICT so a wrong type is an error instead of a silent affinity
 * conversion. Times are epoch milliseconds (UTC) and months `YYYY-MM`, as in `store/ports/`.
 * Migration 002 adds `payment_claims`.
 */

import type { Migration } from '../migrate.js';

export const migration001: Migration = {
  version: 1,
  name: 'initial',
  sql: `
CREATE TABLE api_keys (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  prefix TEXT NOT NULL,
  -- SHA-256 of the raw key; the raw key is never stored (DESIGN §4.16).
  hash BLOB NOT NULL UNIQUE CHECK (length(hash) = 32),
  created_at INTEGER NOT NULL,
  expires_at INTEGER,
  revoked_at INTEGER,
  rate_limit_per_minute INTEGER CHECK (rate_limit_per_minute > 0),
  monthly_allowance INTEGER CHECK (monthly_allowance >= 0),
  hard_cap INTEGER NOT NULL DEFAULT 0 CHECK (hard_cap IN (0, 1))
) STRICT;

-- One row per served enterprise request; the URL only as a truncated hash (DESIGN §8).
CREATE TABLE usage_events (
  key_id TEXT NOT NULL REFERENCES api_keys (id),
  at INTEGER NOT NULL,
  url_hash TEXT NOT NULL,
  verdict TEXT NOT NULL CHECK (verdict IN ('safe', 'caution', 'danger')),
  -- REAL: callers measure with performance.now(), and sub-millisecond latencies matter.
  latency_ms REAL NOT NULL CHECK (latency_ms >= 0)
) STRICT;

CREATE INDEX usage_events_key_at ON usage_events (key_id, at);

-- Monthly request counters spent atomically by reserveMonthly (DESIGN §4.15).
CREATE TABLE usage_monthly (
  key_id TEXT NOT NULL REFERENCES api_keys (id),
  month TEXT NOT NULL CHECK (
    month GLOB '[0-9][0-9][0-9][0-9]-[01][0-9]' AND substr(month, 6, 2) BETWEEN '01' AND '12'
  ),
  count INTEGER NOT NULL CHECK (count >= 0),
  PRIMARY KEY (key_id, month)
) STRICT, WITHOUT ROWID;

-- x402 nonces (DESIGN §4.6): bound to the URL hash, single use, short-lived.
CREATE TABLE payment_nonces (
  nonce TEXT PRIMARY KEY,
  url_hash TEXT NOT NULL,
  issued_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  consumed_at INTEGER
) STRICT;

CREATE INDEX payment_nonces_expires_at ON payment_nonces (expires_at);
`,
};
