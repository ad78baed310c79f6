/**
 * @module store/sqlite/migrations/005-oauth
 * The connector's OAuth 2.1 authorization server (DESIGN §7, guides/mcp.md §4): clients registered
 * through RFC 7591 (kept durably: clients cache their `client_id`), authorization requests waiting
 * for the user, one-time codes, grants and their access and refresh tokens. Every secret is
 * stored as its SHA-256 only (DESIGN §4.16).
 */

import type { Migration } from '../migrate.js';

export const migration005: Migration = {
  version: 5,
  name: 'oauth',
  sql: `
CREATE TABLE oauth_clients (
  id TEXT PRIMARY KEY,
  secret_hash BLOB CHECK (secret_hash IS NULL OR length(secret_hash) = 32),
  auth_method TEXT NOT NULL
    CHECK (auth_method IN ('none', 'client_secret_post', 'client_secret_basic')),
  redirect_uris TEXT NOT NULL,
  grant_types TEXT NOT NULL,
  name TEXT,
  metadata TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  -- A public client has no secret; a confidential one always has one.
  CHECK ((auth_method = 'none') = (secret_hash IS NULL))
) STRICT;

CREATE TABLE oauth_pending (
  hash BLOB PRIMARY KEY CHECK (length(hash) = 32),
  client_id TEXT NOT NULL REFERENCES oauth_clients (id),
  redirect_uri TEXT NOT NULL,
  redirect_uri_given INTEGER NOT NULL CHECK (redirect_uri_given IN (0, 1)),
  code_challenge TEXT NOT NULL,
  state TEXT,
  resource TEXT NOT NULL,
  scope TEXT NOT NULL,
  csrf_hash BLOB NOT NULL CHECK (length(csrf_hash) = 32),
  expires_at INTEGER NOT NULL,
  failed_attempts INTEGER NOT NULL DEFAULT 0
) STRICT, WITHOUT ROWID;
CREATE INDEX oauth_pending_expiry ON oauth_pending (expires_at);

CREATE TABLE oauth_grants (
  id TEXT PRIMARY KEY,
  client_id TEXT NOT NULL REFERENCES oauth_clients (id),
  subject_kind TEXT NOT NULL CHECK (subject_kind IN ('license', 'enterprise')),
  subject_id TEXT NOT NULL,
  resource TEXT NOT NULL,
  scope TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  revoked_at INTEGER
) STRICT;
CREATE INDEX oauth_grants_subject ON oauth_grants (subject_kind, subject_id);

CREATE TABLE oauth_codes (
  hash BLOB PRIMARY KEY CHECK (length(hash) = 32),
  client_id TEXT NOT NULL REFERENCES oauth_clients (id),
  redirect_uri TEXT NOT NULL,
  redirect_uri_given INTEGER NOT NULL CHECK (redirect_uri_given IN (0, 1)),
  code_challenge TEXT NOT NULL,
  resource TEXT NOT NULL,
  scope TEXT NOT NULL,
  subject_kind TEXT NOT NULL CHECK (subject_kind IN ('license', 'enterprise')),
  subject_id TEXT NOT NULL,
  expires_at INTEGER NOT NULL,
  used_at INTEGER,
  -- Set when a spent code is presented again; a grant still being created from it is revoked.
  reused_at INTEGER,
  grant_id TEXT REFERENCES oauth_grants (id)
) STRICT, WITHOUT ROWID;
CREATE INDEX oauth_codes_expiry ON oauth_codes (expires_at);

CREATE TABLE oauth_tokens (
  hash BLOB PRIMARY KEY CHECK (length(hash) = 32),
  kind TEXT NOT NULL CHECK (kind IN ('access', 'refresh')),
  grant_id TEXT NOT NULL REFERENCES oauth_grants (id),
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  rotated_at INTEGER
) STRICT, WITHOUT ROWID;
CREATE INDEX oauth_tokens_grant ON oauth_tokens (grant_id);
CREATE INDEX oauth_tokens_expiry ON oauth_tokens (expires_at);
`,
};
