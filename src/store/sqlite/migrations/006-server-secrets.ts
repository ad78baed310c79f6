/**
 * @module store/sqlite/migrations/006-server-secrets
 * Secrets the server generates for itself and keeps with its data, so every process on the store
 * uses the same ones (docs/decisions.md, "Hardening (issue 14)"): today the key that binds a
 * payment nonce to its URL (HMAC-SHA256, when LINKGUARD_SECRET is unset). A nonce row held the
 * plain SHA-256 of its URL before, from which a guessable URL can be recovered; from here on it
 * holds the keyed digest. The old digests go: consumed nonces keep their row (their claim refers
 * to it) with the digest cleared, and unconsumed ones are deleted — a nonce lives 10 minutes and
 * its old digest can no longer be checked, so a proof for one is answered `nonce_unknown` with a
 * fresh nonce.
 */

import type { Migration } from '../migrate.js';

export const migration006: Migration = {
  version: 6,
  name: 'server-secrets',
  sql: `
CREATE TABLE server_secrets (
  name TEXT PRIMARY KEY,
  value TEXT NOT NULL,
  created_at INTEGER NOT NULL
) STRICT;

UPDATE payment_nonces SET url_hash = '' WHERE consumed_at IS NOT NULL;
DELETE FROM payment_nonces WHERE consumed_at IS NULL;
`,
};
