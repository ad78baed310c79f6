/**
 * The metrics' store decorator (`timedStore()`, docs/decisions.md, decision 169): the whole store
 * contract passes through it unchanged on SQLite and PostgreSQL (a fresh database of the machine's
 * server, as in postgres-store.test.ts), and each port method it forwards is counted
 * under its port and name, with its failures, in the real `ServiceMetrics`.
 */
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { ServiceMetrics } from '../../src/observability/metrics.js';
import { openPostgresStore } from '../../src/store/postgres/open-postgres-store.js';
import { openSqliteStore } from '../../src/store/sqlite/open-sqlite-store.js';
import { timedStore } from '../../src/store/timed-store.js';
import { newKey } from '../helpers/enterprise-key.js';
import { emptyLinkguardTables, usePostgresDatabase } from '../helpers/postgres.js';
import { useTempDir } from '../helpers/use-temp-dir.js';
import { describeCorrectionStoreContract } from './correction-store-contract.js';
import { describeLicenseStoreContract } from './license-store-contract.js';
import { describeStoreContract } from './store-contract.js';

const timedSqlite = () =>
  Promise.resolve(timedStore(openSqliteStore(':memory:'), new ServiceMetrics()));

describeStoreContract('timed sqlite :memory:', timedSqlite);
describeLicenseStoreContract('timed sqlite :memory:', timedSqlite);

describe('timed SQLite correction store', () => {
  const dir = useTempDir('linkguard-timed-');
  let files = 0;
  describeCorrectionStoreContract('timed sqlite file', () => {
    files += 1;
    const path = join(dir(), `store-${String(files)}.db`);
    const a = timedStore(openSqliteStore(path), new ServiceMetrics());
    const b = timedStore(openSqliteStore(path), new ServiceMetrics());
    return Promise.resolve({
      a,
      b,
      seenOnNextCall: true,
      close: async () => {
        await a.close();
        await b.close();
      },
    });
  });
});

const databaseUrl = usePostgresDatabase();
async function timedPostgres() {
  const store = await openPostgresStore(databaseUrl());
  await emptyLinkguardTables(databaseUrl());
  return timedStore(store, new ServiceMetrics());
}
describeStoreContract('timed postgres', timedPostgres);
describeLicenseStoreContract('timed postgres', timedPostgres);
describeCorrectionStoreContract('timed postgres', async () => {
  const a = await timedPostgres();
  const b = timedStore(await openPostgresStore(databaseUrl()), new ServiceMetrics());
  return {
    a,
    b,
    seenOnNextCall: false,
    close: async () => {
      await a.close();
      await b.close();
    },
  };
});

/** The `_count` of the duration histogram and the error counter of one operation. */
async function counts(
  metrics: ServiceMetrics,
  port: string,
  operation: string,
): Promise<{ calls: number; errors: number }> {
  const text = await metrics.registry.metrics();
  const read = (name: string): number => {
    const prefix = `${name}{port="${port}",operation="${operation}"} `;
    const line = text.split('\n').find((l) => l.startsWith(prefix));
    return line === undefined ? 0 : Number(line.slice(prefix.length));
  };
  return {
    calls: read('linkguard_store_operation_duration_seconds_count'),
    errors: read('linkguard_store_operation_errors_total'),
  };
}

describe('timedStore', () => {
  it('counts each operation under its port and method, and its failures', async () => {
    const metrics = new ServiceMetrics();
    const store = timedStore(openSqliteStore(':memory:'), metrics);
    try {
      const key = newKey();
      await store.keys.createKey(key);
      // The same id again violates the primary key: the error reaches the caller and is counted.
      await expect(store.keys.createKey(key)).rejects.toThrow();
      expect((await store.keys.findKeyById(key.id))?.id).toBe(key.id);
      await store.ping();
      expect(await counts(metrics, 'keys', 'createKey')).toEqual({ calls: 2, errors: 1 });
      expect(await counts(metrics, 'keys', 'findKeyById')).toEqual({ calls: 1, errors: 0 });
      expect(await counts(metrics, 'store', 'ping')).toEqual({ calls: 1, errors: 0 });
      expect(await counts(metrics, 'keys', 'listKeys')).toEqual({ calls: 0, errors: 0 });
    } finally {
      await store.close();
    }
  });
});
