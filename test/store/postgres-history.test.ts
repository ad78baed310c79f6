/**
 * The domain history on PostgreSQL: recording events for a domain already on record merges them
 * (count, first and last seen, worst verdict, threat types and sources as a sorted union). The
 * merge used a `SELECT DISTINCT … ORDER BY v COLLATE "C"` that PostgreSQL refuses, so every
 * history write failed there.
 */
import { describe, expect, it } from 'vitest';

import { openPostgresStore } from '../../src/store/postgres/open-postgres-store.js';
import { usePostgresDatabase } from '../helpers/postgres.js';

const databaseUrl = usePostgresDatabase();

describe('PostgreSQL domain history', () => {
  it('merges events into an existing record', async () => {
    const store = await openPostgresStore(databaseUrl());
    try {
      await store.intel.recordHistory([
        {
          domain: 'evil.example',
          at: 1000,
          verdict: 'caution',
          threatTypes: ['phishing'],
          sources: ['b'],
        },
      ]);
      await store.intel.recordHistory([
        {
          domain: 'evil.example',
          at: 2000,
          verdict: 'danger',
          threatTypes: ['brand_impersonation', 'phishing'],
          sources: ['a'],
        },
      ]);
      expect(await store.intel.domainHistory('evil.example')).toEqual({
        domain: 'evil.example',
        firstSeen: 1000,
        lastSeen: 2000,
        count: 2,
        worstVerdict: 'danger',
        threatTypes: ['brand_impersonation', 'phishing'],
        sources: ['a', 'b'],
      });
    } finally {
      await store.close();
    }
  });
});
