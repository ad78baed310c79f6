/**
 * @module store/postgres/migrations/003-server-secrets
 * Secrets the server generates for itself and keeps in the shared database, so every instance
 * uses the same ones (docs/decisions.md, "Hardening (issue 14)"): today the key that binds a
 * payment nonce to its URL (HMAC-SHA256, when LINKGUARD_SECRET is unset). The first instance to
 * need it inserts it (`ON CONFLICT DO NOTHING`) and every instance reads back the one stored.
 * A nonce row held the plain SHA-256 of its URL before; the old digests go: consumed nonces keep
 * their row (their claim refers to it) with the digest cleared, unconsumed ones (10 minutes of
 * life, no longer checkable) are deleted.
 */

import type { PostgresMigration } from '../migrate.js';

export const migration003: PostgresMigration = {
  version: 3,
  name: 'server-secrets',
  sql: `
CREATE TABLE server_secrets (
  name text PRIMARY KEY,
  value text NOT NULL,
  created_at bigint NOT NULL
);

UPDATE payment_nonces SET url_hash = '' WHERE consumed_at IS NOT NULL;
DELETE FROM payment_nonces WHERE consumed_at IS NULL;
`,
};
