/**
 * @module store/postgres/migrations/004-oauth-sources
 * Per-source caps of the connector's open OAuth endpoints (issue 14): registrations and pending
 * sign-ins record the SHA-256 of their source address group (an IPv4 address or an IPv6 /64), so
 * the live ones of one source can be counted. A registration's source is cleared once the cap's
 * window has passed; a pending sign-in's goes with the row when it expires. `authorized_at` marks
 * a client's first grant: clients without one are pruned a day after registering (existing
 * clients with a grant are marked by this migration). Same schema as the
 * SQLite migration 006.
 */

import type { PostgresMigration } from '../migrate.js';

export const migration004: PostgresMigration = {
  version: 4,
  name: 'oauth-sources',
  sql: `
ALTER TABLE oauth_clients ADD COLUMN source_hash bytea
  CHECK (source_hash IS NULL OR octet_length(source_hash) = 32);
CREATE INDEX oauth_clients_source ON oauth_clients (source_hash, created_at)
  WHERE source_hash IS NOT NULL;
ALTER TABLE oauth_clients ADD COLUMN authorized_at bigint;
UPDATE oauth_clients SET authorized_at = created_at
  WHERE id IN (SELECT client_id FROM oauth_grants);
CREATE INDEX oauth_clients_unauthorized ON oauth_clients (created_at)
  WHERE authorized_at IS NULL;
CREATE INDEX oauth_grants_client ON oauth_grants (client_id);
CREATE INDEX oauth_codes_client ON oauth_codes (client_id);
CREATE INDEX oauth_pending_client ON oauth_pending (client_id);
ALTER TABLE oauth_pending ADD COLUMN source_hash bytea
  CHECK (source_hash IS NULL OR octet_length(source_hash) = 32);
CREATE INDEX oauth_pending_source ON oauth_pending (source_hash, expires_at)
  WHERE source_hash IS NOT NULL;
`,
};
