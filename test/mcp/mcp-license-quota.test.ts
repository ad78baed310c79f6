/**
 * The connector's Premium quota (spec §8: 1,000 checks per calendar month per license, each URL
 * of a batch counting one; DESIGN §4.13: exhaustion is an `isError` result asking for a human).
 * The tools are called with a license grant directly: the OAuth exchange that produces one from
 * an access token is not in this version.
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
import type { Store } from '../../src/store/ports/store.js';
import { openSqliteStore } from '../../src/store/sqlite/open-sqlite-store.js';
import { createPremiumLicense } from '../helpers/oauth-app.js';
import { testClock } from '../helpers/test-app.js';

let dir: string;
let store: Store;
let deps: ToolDeps;
let grant: McpGrant;
let month: string;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'linkguard-license-quota-'));
  store = openSqliteStore(join(dir, 'lg.db'));
  const engine = defaultEngine();
  const clock = testClock();
  month = monthOf(clock.now());
  deps = {
    service: new DetectionService(engine, store, clock),
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
  rmSync(dir, { recursive: true, force: true });
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

describe('Premium license quota on the connector', () => {
  it('each checked URL spends one check; a refused URL spends nothing', async () => {
    const result = await callTool(deps, grant, 'check_urls_batch', {
      urls: ['https://paypal-login-verify.top/', 'not a url', 'github.com'],
    });
    expect(result.isError).toBe(false);
    expect(await used()).toBe(2);
  });

  it('a batch that runs past the quota: checks until it is spent, then ask_human entries', async () => {
    await spend(PREMIUM_MONTHLY_CHECKS - 2);
    const result = await callTool(deps, grant, 'check_urls_batch', {
      urls: ['github.com', 'paypal.com', 'example.com'],
    });
    const results = (result.structuredContent as { results: Record<string, unknown>[] }).results;
    expect(results[0]).toMatchObject({ verdict: 'safe' });
    expect(results[1]).toMatchObject({ verdict: 'safe' });
    expect(results[2]).toMatchObject({
      url: 'example.com',
      error: { code: 'rate_limited' },
      agent_action: 'ask_human',
    });
    expect((results[2]?.error as { message: string }).message).toContain('1,000 checks');
    expect(await used()).toBe(PREMIUM_MONTHLY_CHECKS);
  });

  it('check_url with the quota spent is an isError result asking for a human', async () => {
    await spend(PREMIUM_MONTHLY_CHECKS);
    const result = await callTool(deps, grant, 'check_url', { url: 'github.com' });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    const text = (result.content as { text: string }[])[0]?.text ?? '';
    expect(text).toMatch(/1,000 checks of \d{4}-\d{2} are used up/);
    expect(text).toContain('ask_human');
    expect(await used()).toBe(PREMIUM_MONTHLY_CHECKS);
  });
});
