/**
 * Overrides as every door serves them, through the detection service over real stores: SQLite
 * (two connections to one file) and PostgreSQL (two stores on one fresh database, the NOTIFY
 * path), each pair standing for the serving instance and the operator's CLI (or a second
 * instance). An override added, removed or expiring on one is served by the other on its next
 * request, over a verdict already in the cache; the report service records the verdict as served.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import type { Clock } from '../../src/clock.js';
import {
  addOverride,
  removeOverride,
  resolveReport,
} from '../../src/corrections/operator-actions.js';
import { DetectionService } from '../../src/service/detection-service.js';
import { ReportService } from '../../src/service/report-service.js';
import type { Store } from '../../src/store/ports/store.js';
import { openPostgresStore } from '../../src/store/postgres/open-postgres-store.js';
import { openSqliteStore } from '../../src/store/sqlite/open-sqlite-store.js';
import { usePostgresDatabase } from '../helpers/postgres.js';
import { rulesEngine } from '../helpers/rules-engine.js';

const PHISH = 'https://metamask-restore-wallet.com/connect';
const BENIGN = 'https://shop.example.com/cart';

/** A clock the test moves. */
function testClock(start: number): Clock & { set(ms: number): void } {
  let now = start;
  return { now: () => now, set: (ms) => (now = ms) };
}

/** Poll until `check` holds (the PostgreSQL NOTIFY takes a millisecond or so). */
async function eventually(check: () => Promise<boolean>, limitMs = 2000): Promise<void> {
  const started = performance.now();
  while (!(await check())) {
    if (performance.now() - started > limitMs) throw new Error(`not true within ${limitMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

interface Pair {
  serving: Store;
  operator: Store;
  /** True when a change is seen on the very next call (SQLite); false: after a NOTIFY. */
  immediate: boolean;
  close(): Promise<void>;
}

const databaseUrl = usePostgresDatabase();

const stores: Record<'sqlite' | 'postgres', () => Promise<Pair>> = {
  sqlite: () => {
    const dir = mkdtempSync(join(tmpdir(), 'lg-overrides-'));
    const path = join(dir, 'store.db');
    const serving = openSqliteStore(path);
    const operator = openSqliteStore(path);
    return Promise.resolve({
      serving,
      operator,
      immediate: true,
      close: async () => {
        await serving.close();
        await operator.close();
        rmSync(dir, { recursive: true, force: true });
      },
    });
  },
  postgres: async () => {
    const serving = await openPostgresStore(databaseUrl());
    const operator = await openPostgresStore(databaseUrl());
    return {
      serving,
      operator,
      immediate: false,
      close: async () => {
        await serving.close();
        await operator.close();
      },
    };
  },
};

describe.each(['sqlite', 'postgres'] as const)('overrides served over %s', (kind) => {
  let pair: Pair;
  const clock = testClock(Date.UTC(2026, 10, 27));
  let service: DetectionService;

  beforeAll(async () => {
    pair = await stores[kind]();
  });
  afterAll(async () => {
    await pair.close();
  });
  beforeEach(() => {
    service = new DetectionService(rulesEngine(), pair.serving, clock);
  });
  afterEach(async () => {
    for (const o of await pair.operator.overrides.listOverrides()) {
      if (o.removedAt === null)
        await pair.operator.overrides.removeOverride(o.id, clock.now(), 't');
    }
  });

  /** The verdict the serving instance gives `url` now. */
  const served = (url: string) => service.judge(service.parse(url));

  /** Wait until the serving instance serves `expected` for `url` (at once on SQLite). */
  async function servedAs(url: string, expected: string): Promise<void> {
    if (pair.immediate) expect((await served(url)).verdict).toBe(expected);
    else await eventually(async () => (await served(url)).verdict === expected);
  }

  it('an allow added by the operator is served on the next request, over the cached verdict', async () => {
    const before = await served(PHISH);
    expect(before.verdict).toBe('danger');
    const allow = await addOverride(pair.operator, clock, {
      action: 'allow',
      target: 'metamask-restore-wallet.com',
      reason: 'Our customer',
      by: 'ops',
      expiresAt: null,
    });
    await servedAs(PHISH, 'safe');
    const after = await served(PHISH);
    expect(after.details.matched_patterns.slice(0, 2)).toEqual([
      `override:allow:${allow.id}`,
      'override_of:danger',
    ]);
    expect(after.reason).toContain('Our customer');
    // Removing it restores the layers' verdict on the next request.
    await removeOverride(pair.operator, clock, allow.id, 'ops');
    await servedAs(PHISH, 'danger');
    expect((await served(PHISH)).details.matched_patterns[0]).not.toMatch(/^override:/);
  });

  it('a deny covers the hosts under its domain and stops at its expiry', async () => {
    expect((await served(BENIGN)).verdict).toBe('safe');
    await addOverride(pair.operator, clock, {
      action: 'deny',
      target: 'example.com',
      reason: 'Compromised, serving a drainer',
      by: 'ops',
      expiresAt: clock.now() + 3_600_000,
    });
    await servedAs(BENIGN, 'danger');
    expect((await served('http://example.com/')).verdict).toBe('danger');
    expect((await served('https://example.org/')).verdict).toBe('safe');
    clock.set(clock.now() + 3_600_000);
    expect((await served(BENIGN)).verdict).toBe('safe');
  });

  it('a more specific allow inside a denied domain wins', async () => {
    await addOverride(pair.operator, clock, {
      action: 'deny',
      target: 'example.net',
      reason: 'Campaign',
      by: 'ops',
      expiresAt: null,
    });
    await addOverride(pair.operator, clock, {
      action: 'allow',
      target: 'https://example.net/status/',
      reason: 'Status page stays reachable',
      by: 'ops',
      expiresAt: null,
    });
    await servedAs('https://example.net/status/today', 'safe');
    expect((await served('https://example.net/login')).verdict).toBe('danger');
  });

  it('an overridden verdict is not written to the domain history', async () => {
    await addOverride(pair.operator, clock, {
      action: 'deny',
      target: 'history-test.org',
      reason: 'Test',
      by: 'ops',
      expiresAt: null,
    });
    await servedAs('https://history-test.org/', 'danger');
    // The control: the layers' own danger verdict is recorded (written in the background).
    expect((await served(PHISH)).verdict).toBe('danger');
    await eventually(
      async () => (await pair.serving.intel.domainHistory('metamask-restore-wallet.com')) !== null,
    );
    expect(await pair.serving.intel.domainHistory('history-test.org')).toBeNull();
  });

  it('a report records the verdict as served, and resolving it creates its override in one step', async () => {
    const reports = new ReportService(service, pair.serving, clock, () => ({
      engineVersion: '9.9.9',
      dataVersion: 'digest',
    }));
    const filed = await reports.file(
      { url: PHISH, kind: 'false_positive', comment: ' It is ours ', contact: 'owner@example.org' },
      { source: 'page', sourceId: null },
    );
    expect(filed.id).toMatch(/^rpt_[0-9A-Za-z]{16}$/);
    const stored = await pair.operator.reports.findReport(filed.id);
    expect(stored).toMatchObject({
      url: PHISH,
      kind: 'false_positive',
      comment: 'It is ours',
      contact: 'owner@example.org',
      source: 'page',
      sourceId: null,
      engineVersion: '9.9.9',
      dataVersion: 'digest',
      status: 'open',
    });
    expect(stored?.verdict.verdict).toBe('danger');
    const { report, override } = await resolveReport(pair.operator, clock, filed.id, {
      status: 'accepted',
      by: 'ops',
      note: 'Checked the registrant',
      override: {
        action: 'allow',
        target: 'metamask-restore-wallet.com',
        reason: 'Report accepted',
        expiresAt: null,
      },
    });
    expect(report.status).toBe('accepted');
    expect(report.overrideId).toBe(override?.id);
    expect(override?.reportId).toBe(filed.id);
    await servedAs(PHISH, 'safe');
  });
});
