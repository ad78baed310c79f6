/**
 * A fresh PostgreSQL database per test file (see `postgres-server.ts` for the server side).
 */
import { afterAll, beforeAll } from 'vitest';

import { createTestDatabase, dropTestDatabase, postgresUrl } from './postgres-server.js';

export {
  createTestDatabase,
  dropTestDatabase,
  emptyLinkguardTables,
  ensurePostgres,
  POSTGRES_ADMIN_URL,
  postgresUrl,
  queryDatabase,
} from './postgres-server.js';

/**
 * A fresh database for the tests of the calling file or `describe`: created in `beforeAll`,
 * dropped in `afterAll`. The returned function gives its URL inside a test.
 */
export function usePostgresDatabase(): () => string {
  let name: string | undefined;
  beforeAll(async () => {
    name = await createTestDatabase();
  });
  afterAll(async () => {
    if (name !== undefined) await dropTestDatabase(name);
    name = undefined;
  });
  return () => {
    if (name === undefined) throw new Error('PostgreSQL test database used outside its tests');
    return postgresUrl(name);
  };
}
