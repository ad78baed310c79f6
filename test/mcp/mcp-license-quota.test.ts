/**
 * The connector's Premium quota (spec §8: 1,000 checks per calendar month per license, each URL
 * of a batch counting one; README "MCP connector": exhaustion is an `isError` result asking for a
 * human),
 * on the embedded SQLite store and on PostgreSQL. A batch is reserved whole: one that does not
 * fit what is left of the month is refused whole and spends nothing (README "Premium licenses").
 * Every error result carries `agent_action: "ask_human"` in `structuredContent` too. The tools are
 * called with a license grant directly (the OAuth flow that yields one is tested elsewhere).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { PREMIUM_MONTHLY_CHECKS } from '../../src/access/license.js';
import { monthOf } from '../../src/clock.js';
import { defaultEngine } from '../../src/engine-data/load-engine-data.js';
import type { McpGrant } from '../../src/mcp/mcp-grant.js';
import { callTool, type ToolDeps } from '../../src/mcp/mcp-tools.js';
import { RateLimits } from '../../src/ratelimit/rate-limits.js';
import { DetectionService } from '../../src/service/detection-service.js';
import { ReportService } from '../../src/service/report-service.js';
import type { Store } from '../../src/store/ports/store.js';
import { openPostgresStore } from '../../src/store/postgres/open-postgres-store.js';
import { openSqliteStore } from '../../src/store/sqlite/open-sqlite-store.js';
import { SERVICE_VERSION } from '../../src/version.js';
import { createPremiumLicense } from '../helpers/oauth-app.js';
import { emptyLinkguardTables, usePostgresDatabase } from '../helpers/postgres.js';
import { testClock } from '../helpers/test-app.js';

const databaseUrl = usePostgresDatabase();

const STORES: [string, () => Promise<{ store: Store; cleanup: () => void }>][] = [
  [
    'SQLite',
    () => {
      const dir = mkdtempSync(join(tmpdir(), 'linkguard-license-quota-'));
      return Promise.resolve({
        store: openSqliteStore(join(dir, 'lg.db')),
        cleanup: () => {
          rmSync(dir, { recursive: true, force: true });
        },
      });
    },
  ],
  [
    'PostgreSQL',
    async () => {
      const store = await openPostgresStore(databaseUrl());
      await emptyLinkguardTables(databaseUrl());
      return { store, cleanup: () => undefined };
    },
  ],
];

describe.each(STORES)('Premium license quota on the connector (%s)', (_name, open) => {
  let store: Store;
  let cleanup: () => void;
  let deps: ToolDeps;
  let grant: McpGrant;
  let month: string;

  beforeEach(async () => {
    ({ store, cleanup } = await open());
    const engine = defaultEngine();
    const clock = testClock();
    month = monthOf(clock.now());
    const service = new DetectionService(engine, store, clock);
    deps = {
      service,
      reports: new ReportService(service, store, clock, () => ({
        engineVersion: SERVICE_VERSION,
        dataVersion: 'test',
      })),
      engine,
      store,
      clock,
      limits: new RateLimits(60, 10_000),
    };
    const license = await createPremiumLicense(store, clock.now());
    grant = { kind: 'license', licenseId: license.id };
  });
  afterEach(async () => {
    await store.close();
    cleanup();
  });

  const used = async (): Promise<number> => {
    if (grant.kind !== 'license') throw new Error('license grant expected');
    const rows = await store.licenses.licenseUsage(month, grant.licenseId);
    return rows[0]?.checks ?? 0;
  };
  const spend = async (checks: number): Promise<void> => {
    if (grant.kind !== 'license') throw new Error('license grant expected');
    const done = await store.licenses.reserveChecks(
      grant.licenseId,
      month,
      checks,
      PREMIUM_MONTHLY_CHECKS,
    );
    expect(done.ok).toBe(true);
  };
  const textOf = (result: { content: unknown }): string =>
    (result.content as { text: string }[])[0]?.text ?? '';

  it('each checked URL spends one check; a refused URL spends nothing', async () => {
    const result = await callTool(deps, grant, 'check_urls_batch', {
      urls: ['https://paypal-login-verify.top/', 'not a url', 'github.com'],
    });
    expect(result.isError).toBe(false);
    const results = (result.structuredContent as { results: Record<string, unknown>[] }).results;
    expect(results[1]).toMatchObject({
      url: 'not a url',
      error: { code: 'invalid_url' },
      agent_action: 'ask_human',
    });
    expect(await used()).toBe(2);
  });

  it('a batch that does not fit what is left is refused whole and spends nothing', async () => {
    await spend(PREMIUM_MONTHLY_CHECKS - 2);
    const result = await callTool(deps, grant, 'check_urls_batch', {
      urls: ['github.com', 'paypal.com', 'example.com'],
    });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({
      error: { code: 'rate_limited', reason: 'monthly_allowance' },
      agent_action: 'ask_human',
    });
    const error = (result.structuredContent as { error: { message: string; retry_after: number } })
      .error;
    expect(error.message).toContain('2 of its 1,000 checks');
    expect(error.retry_after).toBeGreaterThan(0);
    expect(textOf(result)).toContain('agent_action: ask_human');
    expect(await used()).toBe(PREMIUM_MONTHLY_CHECKS - 2);

    // What is left still serves a batch that fits it exactly; URLs the service refuses do not
    // count towards the fit.
    const fitting = await callTool(deps, grant, 'check_urls_batch', {
      urls: ['github.com', 'not a url', 'paypal.com'],
    });
    expect(fitting.isError).toBe(false);
    expect(await used()).toBe(PREMIUM_MONTHLY_CHECKS);
  });

  it('a batch of only refused URLs is answered with the quota spent', async () => {
    await spend(PREMIUM_MONTHLY_CHECKS);
    const result = await callTool(deps, grant, 'check_urls_batch', { urls: ['not a url'] });
    expect(result.isError).toBe(false);
    expect(await used()).toBe(PREMIUM_MONTHLY_CHECKS);
  });

  it('check_url with the quota spent is an isError result asking for a human, in both forms', async () => {
    await spend(PREMIUM_MONTHLY_CHECKS);
    const result = await callTool(deps, grant, 'check_url', { url: 'github.com' });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({
      error: { code: 'rate_limited', reason: 'monthly_allowance' },
      agent_action: 'ask_human',
    });
    const text = textOf(result);
    expect(text).toMatch(/1,000 checks of \d{4}-\d{2} are used up/);
    expect(text).toContain('ask_human');
    expect(await used()).toBe(PREMIUM_MONTHLY_CHECKS);
  });

  it('check_url of a refused URL and domain_history of a non-domain carry agent_action in structuredContent', async () => {
    const refused = await callTool(deps, grant, 'check_url', { url: 'http://127.0.0.1/' });
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent).toMatchObject({
      error: { code: 'invalid_url' },
      agent_action: 'ask_human',
    });
    const history = await callTool(deps, grant, 'domain_history', { domain: 'not a domain' });
    expect(history.isError).toBe(true);
    expect(history.structuredContent).toMatchObject({
      error: { code: 'invalid_url' },
      agent_action: 'ask_human',
    });
    expect(await used()).toBe(0);
  });
});
