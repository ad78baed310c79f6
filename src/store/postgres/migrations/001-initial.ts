/**
 * @module store/postgres/migrations/001-initial
 * The whole schema of the PostgreSQL store as of its first version: the same tables as the
 * SQLite store's migrations 001–005 (keys and usage, payment nonces and claims, threat feeds and
 * history, licenses, the connector's OAuth server), in PostgreSQL types. Times are epoch
 * milliseconds (UTC) in `bigint`, months `YYYY-MM`, as in `store/ports/`. Every secret is stored
 * as its SHA-256 only. `seq` identity columns give insertion order where SQLite used `rowid`.
 */

import type { PostgresMigration } from '../migrate.js';

export const migration001: PostgresMigration = {
  version: 1,
  name: 'initial',
  sql: `
CREATE TABLE api_keys (
  id text PRIMARY KEY,
  seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
  name text NOT NULL,
  prefix text NOT NULL,
  hash bytea NOT NULL UNIQUE CHECK (octet_length(hash) = 32),
  created_at bigint NOT NULL,
  expires_at bigint,
  revoked_at bigint,
  rate_limit_per_minute integer CHECK (rate_limit_per_minute > 0),
  monthly_allowance bigint CHECK (monthly_allowance >= 0),
  hard_cap boolean NOT NULL DEFAULT false
);

CREATE TABLE usage_events (
  key_id text NOT NULL REFERENCES api_keys (id),
  at bigint NOT NULL,
  url_hash text NOT NULL,
  verdict text NOT NULL CHECK (verdict IN ('safe', 'caution', 'danger')),
  latency_ms double precision NOT NULL CHECK (latency_ms >= 0)
);
CREATE INDEX usage_events_key_at ON usage_events (key_id, at);

CREATE TABLE usage_monthly (
  key_id text NOT NULL REFERENCES api_keys (id),
  month text NOT NULL CHECK (month ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'),
  count bigint NOT NULL CHECK (count >= 0),
  PRIMARY KEY (key_id, month)
);

CREATE TABLE payment_nonces (
  nonce text PRIMARY KEY,
  url_hash text NOT NULL,
  issued_at bigint NOT NULL,
  expires_at bigint NOT NULL,
  consumed_at bigint
);
CREATE INDEX payment_nonces_expires_at ON payment_nonces (expires_at);

-- One row per transaction id, kept forever: a transaction pays for exactly one request.
CREATE TABLE payment_claims (
  chain text NOT NULL CHECK (chain IN ('solana', 'base')),
  tx_id text NOT NULL,
  nonce text NOT NULL UNIQUE REFERENCES payment_nonces (nonce),
  payer text NOT NULL,
  amount_atomic numeric(78, 0) NOT NULL CHECK (amount_atomic >= 0),
  claimed_at bigint NOT NULL,
  PRIMARY KEY (chain, tx_id)
);

CREATE TABLE intel_feeds (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  name text NOT NULL UNIQUE,
  format text NOT NULL,
  url text,
  threat text,
  entry_count bigint NOT NULL DEFAULT 0,
  imported_at bigint,
  checked_at bigint,
  etag text,
  last_modified text,
  last_error text
);

CREATE TABLE intel_entries (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  feed_id bigint NOT NULL REFERENCES intel_feeds (id) ON DELETE CASCADE,
  list text NOT NULL CHECK (list IN ('deny', 'allow', 'fuzzy')),
  kind text NOT NULL CHECK (kind IN ('host', 'url')),
  value text NOT NULL,
  target text,
  first_seen bigint
);
CREATE INDEX intel_entries_feed ON intel_entries (feed_id);

-- One row; bumped by every change to feeds or entries, polled by servers to rebuild the index.
CREATE TABLE intel_version (
  id integer PRIMARY KEY CHECK (id = 1),
  version bigint NOT NULL
);
INSERT INTO intel_version (id, version) VALUES (1, 0);

CREATE TABLE domain_history (
  domain text PRIMARY KEY,
  first_seen bigint NOT NULL,
  last_seen bigint NOT NULL,
  count bigint NOT NULL CHECK (count > 0),
  worst_verdict text NOT NULL CHECK (worst_verdict IN ('caution', 'danger')),
  -- Sorted (byte order) and de-duplicated.
  threat_types text[] NOT NULL,
  sources text[] NOT NULL
);

CREATE TABLE licenses (
  id text PRIMARY KEY,
  seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
  name text NOT NULL,
  prefix text NOT NULL,
  hash bytea NOT NULL UNIQUE CHECK (octet_length(hash) = 32),
  created_at bigint NOT NULL,
  revoked_at bigint
);

CREATE TABLE license_usage (
  license_id text NOT NULL REFERENCES licenses (id),
  month text NOT NULL CHECK (month ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'),
  checks bigint NOT NULL CHECK (checks >= 0),
  PRIMARY KEY (license_id, month)
);

CREATE TABLE oauth_clients (
  id text PRIMARY KEY,
  secret_hash bytea CHECK (secret_hash IS NULL OR octet_length(secret_hash) = 32),
  auth_method text NOT NULL
    CHECK (auth_method IN ('none', 'client_secret_post', 'client_secret_basic')),
  redirect_uris jsonb NOT NULL,
  grant_types jsonb NOT NULL,
  name text,
  metadata jsonb NOT NULL,
  created_at bigint NOT NULL,
  -- A public client has no secret; a confidential one always has one.
  CHECK ((auth_method = 'none') = (secret_hash IS NULL))
);

CREATE TABLE oauth_pending (
  hash bytea PRIMARY KEY CHECK (octet_length(hash) = 32),
  client_id text NOT NULL REFERENCES oauth_clients (id),
  redirect_uri text NOT NULL,
  redirect_uri_given boolean NOT NULL,
  code_challenge text NOT NULL,
  state text,
  resource text NOT NULL,
  scope text NOT NULL,
  csrf_hash bytea NOT NULL CHECK (octet_length(csrf_hash) = 32),
  expires_at bigint NOT NULL,
  failed_attempts integer NOT NULL DEFAULT 0
);
CREATE INDEX oauth_pending_expiry ON oauth_pending (expires_at);

CREATE TABLE oauth_grants (
  id text PRIMARY KEY,
  client_id text NOT NULL REFERENCES oauth_clients (id),
  subject_kind text NOT NULL CHECK (subject_kind IN ('license', 'enterprise')),
  subject_id text NOT NULL,
  resource text NOT NULL,
  scope text NOT NULL,
  created_at bigint NOT NULL,
  revoked_at bigint
);
CREATE INDEX oauth_grants_subject ON oauth_grants (subject_kind, subject_id);

CREATE TABLE oauth_codes (
  hash bytea PRIMARY KEY CHECK (octet_length(hash) = 32),
  client_id text NOT NULL REFERENCES oauth_clients (id),
  redirect_uri text NOT NULL,
  redirect_uri_given boolean NOT NULL,
  code_challenge text NOT NULL,
  resource text NOT NULL,
  scope text NOT NULL,
  subject_kind text NOT NULL CHECK (subject_kind IN ('license', 'enterprise')),
  subject_id text NOT NULL,
  expires_at bigint NOT NULL,
  used_at bigint,
  -- Set when a spent code is presented again; a grant still being created from it is revoked.
  reused_at bigint,
  grant_id text REFERENCES oauth_grants (id)
);
CREATE INDEX oauth_codes_expiry ON oauth_codes (expires_at);

CREATE TABLE oauth_tokens (
  hash bytea PRIMARY KEY CHECK (octet_length(hash) = 32),
  kind text NOT NULL CHECK (kind IN ('access', 'refresh')),
  grant_id text NOT NULL REFERENCES oauth_grants (id),
  created_at bigint NOT NULL,
  expires_at bigint NOT NULL,
  rotated_at bigint
);
CREATE INDEX oauth_tokens_grant ON oauth_tokens (grant_id);
CREATE INDEX oauth_tokens_expiry ON oauth_tokens (expires_at);
`,
};
