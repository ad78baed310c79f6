/**
 * The `GET /report` page over PostgreSQL (the scale-out store): two app instances share one
 * database, as two instances behind a load balancer do. A report filed on one instance's page is
 * in the store with source `page`; the operator's override added afterwards is the verdict the
 * other instance's page shows on the next look-up. Needs the PostgreSQL server of the test
 * machine (127.0.0.1:5432, `test/helpers/postgres-server.ts`); a fresh database for this file.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';

import { EXAMPLE_URLS } from '../../src/api/example-urls.js';
import { loadConfig } from '../../src/config/config.js';
import { addOverride } from '../../src/corrections/operator-actions.js';
import type { Engine } from '../../src/engine/create-engine.js';
import { REPORT_CSRF_COOKIE } from '../../src/http/report-page/report-page-csrf.js';
import { createLogger } from '../../src/observability/logger.js';
import { buildApp } from '../../src/server/build-app.js';
import { openStore } from '../../src/store/open-store.js';
import type { Store } from '../../src/store/ports/store.js';
import { emptyLinkguardTables, usePostgresDatabase } from '../helpers/postgres.js';
import { logCapture, NO_CHAIN_RPC, sharedEngine, testClock } from '../helpers/test-app.js';

const databaseUrl = usePostgresDatabase();
let engine: Engine;
const open: { app: Awaited<ReturnType<typeof buildApp>>; store: Store }[] = [];

beforeAll(() => {
  engine = sharedEngine();
});

afterEach(async () => {
  for (const { app, store } of open.splice(0)) {
    await app.close();
    await store.close();
  }
  await emptyLinkguardTables(databaseUrl());
});

/** One instance: its own store connection to the shared database, its own rate limits. */
async function instance() {
  const config = loadConfig({
    ...NO_CHAIN_RPC,
    PAGE_ANALYSIS: 'off',
    DATABASE_URL: databaseUrl(),
  });
  const store = await openStore(config.store);
  const clock = testClock();
  const logs = logCapture();
  const app = await buildApp({ config, store, engine, clock, logger: createLogger('info', logs) });
  open.push({ app, store });
  return { app, store, clock, logs };
}

type App = Awaited<ReturnType<typeof instance>>['app'];

/** Open the page and post one form with the token and cookie it gave. */
async function postForm(app: App, path: string, fields: Record<string, string>) {
  const page = await app.inject({ method: 'GET', url: '/report' });
  const token = /name="csrf_token" value="([0-9A-Za-z]{43})"/.exec(page.body)?.[1] ?? '';
  return app.inject({
    method: 'POST',
    url: path,
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      cookie: `${REPORT_CSRF_COOKIE}=${token}`,
    },
    payload: new URLSearchParams({ csrf_token: token, ...fields }).toString(),
  });
}

describe('report page over PostgreSQL, two instances', { timeout: 30_000 }, () => {
  it('files on one instance; the override added afterwards is shown by the other', async () => {
    const a = await instance();
    const b = await instance();

    const filed = await postForm(a.app, '/report/file', {
      url: EXAMPLE_URLS.danger,
      kind: 'false_positive',
      comment: 'Our own support site.',
      contact: 'owner@example.com',
    });
    expect(filed.statusCode).toBe(200);
    const id = /id="report-id">(rpt_[0-9A-Za-z]{16})</.exec(filed.body)?.[1] ?? '';
    const stored = await b.store.reports.findReport(id);
    expect(stored).toMatchObject({
      url: 'https://metamask-restore-wallet.com/',
      kind: 'false_positive',
      comment: 'Our own support site.',
      contact: 'owner@example.com',
      source: 'page',
      sourceId: null,
      status: 'open',
    });
    expect(stored?.verdict.verdict).toBe('danger');

    // Before the override, instance b says danger (and caches the layers' verdict).
    const before = await postForm(b.app, '/report/check', { url: EXAMPLE_URLS.danger });
    expect(before.body).toContain('class="verdict verdict-danger"');

    const override = await addOverride(a.store, a.clock, {
      action: 'allow',
      target: 'metamask-restore-wallet.com',
      reason: 'Owner verified by email',
      by: 'ops',
      expiresAt: null,
    });
    // Instance b learns of the change by PostgreSQL's NOTIFY, delivered just after the commit
    // (store/postgres/notified-snapshot-cache.ts): wait, within a bound, until its store sees it.
    await expect
      .poll(async () => (await b.store.overrides.activeOverrides()).overrides.map((o) => o.id), {
        timeout: 5000,
        interval: 10,
      })
      .toContain(override.id);
    const after = await postForm(b.app, '/report/check', { url: EXAMPLE_URLS.danger });
    expect(after.statusCode).toBe(200);
    expect(after.body).toContain('class="verdict verdict-safe"');
    expect(after.body).toContain(override.id);
    expect(after.body).toContain('Owner verified by email');
    expect(a.logs.text()).not.toContain('owner@example.com');
    expect(a.logs.text()).not.toContain('metamask-restore-wallet');
  });
});
