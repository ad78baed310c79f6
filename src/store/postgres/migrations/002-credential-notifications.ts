/**
 * @module store/postgres/migrations/002-credential-notifications
 * Every change to enterprise keys or licenses (created, revoked, by any instance, the CLI or by
 * hand) notifies channel `linkguard_credentials` with the table's name, delivered to listeners
 * when the transaction commits. Instances cache look-ups by hash and drop the cache on
 * notification (`store/postgres/credential-cache.ts`), so a revocation is refused on every
 * instance's next request after the notification arrives.
 */

import type { PostgresMigration } from '../migrate.js';

export const migration002: PostgresMigration = {
  version: 2,
  name: 'credential-notifications',
  sql: `
CREATE FUNCTION linkguard_notify_credentials() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('linkguard_credentials', TG_TABLE_NAME);
  RETURN NULL;
END;
$$;

CREATE TRIGGER api_keys_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON api_keys
  FOR EACH STATEMENT EXECUTE FUNCTION linkguard_notify_credentials();
CREATE TRIGGER licenses_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON licenses
  FOR EACH STATEMENT EXECUTE FUNCTION linkguard_notify_credentials();
`,
};
