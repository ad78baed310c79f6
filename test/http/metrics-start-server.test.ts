/**
 * The composition root's metrics wiring (docs/decisions.md, decision 163): `startServer()` with
 * METRICS_TOKEN builds the metrics before the detection pipeline and times the store before
 * either is built, so a served verdict, the cache, layer 1's duration and the store operations of
 * the start-up index load are all in its `/metrics` — over real HTTP on loopback.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { loadConfig } from '../../src/config/config.js';
import { createLogger } from '../../src/observability/logger.js';
import { type ServerProcess, startServer } from '../../src/server/start-server.js';
import { openStore } from '../../src/store/open-store.js';
import { createEnterpriseKey } from '../helpers/enterprise-key.js';
import { freePorts, httpAgent, postDetect } from '../helpers/server-instances.js';
import { logCapture, NO_CHAIN_RPC } from '../helpers/test-app.js';

const TOKEN = 'metrics-token-for-start-server-0123456789';

describe('startServer() with METRICS_TOKEN', { timeout: 20_000 }, () => {
  let dir = '';
  let server: ServerProcess | undefined;
  let base = '';
  let bearer = '';
  const agent = httpAgent(4);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'linkguard-metrics-root-'));
    const [port = 0] = await freePorts(1);
    const config = loadConfig({
      ...NO_CHAIN_RPC,
      DATABASE_URL: `sqlite:${join(dir, 'lg.db')}`,
      HOST: '127.0.0.1',
      PORT: String(port),
      METRICS_TOKEN: TOKEN,
      RDAP_ENABLED: 'false',
      PAGE_ANALYSIS: 'off',
    });
    const store = await openStore(config.store);
    bearer = (await createEnterpriseKey(store)).bearer;
    await store.close();
    server = await startServer(config, createLogger('error', logCapture()));
    await server.listen();
    base = `http://127.0.0.1:${String(port)}`;
  });

  afterAll(async () => {
    try {
      await server?.close();
      await agent.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('records what the pipeline and the store did', async () => {
    const url = 'https://metrics-root-fixture-shop.net/cart';
    for (let i = 0; i < 3; i++) {
      expect((await postDetect(agent, base, url, { authorization: bearer })).status).toBe(200);
    }
    const response = await request(`${base}/metrics`, {
      dispatcher: agent,
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(response.statusCode).toBe(200);
    const lines = (await response.body.text()).split('\n');
    const value = (series: string): number => {
      const line = lines.find((l) => l.startsWith(`${series} `));
      return line === undefined ? 0 : Number(line.slice(series.length + 1));
    };
    const served = lines.filter((l) => l.startsWith('linkguard_verdicts_total{'));
    expect(served.reduce((sum, l) => sum + Number(l.split(' ').pop()), 0)).toBe(3);
    expect(value('linkguard_verdict_cache_lookups_total{level="l1",result="hit"}')).toBe(1);
    expect(value('linkguard_layer_duration_seconds_count{layer="url_rules"}')).toBe(2);
    // Timed from the first read: the index load at start-up went through the timed store.
    expect(
      value(
        'linkguard_store_operation_duration_seconds_count{port="intel",operation="readEntries"}',
      ),
    ).toBeGreaterThanOrEqual(1);
    expect(
      value(
        'linkguard_store_operation_duration_seconds_count{port="usage",operation="recordUsage"}',
      ),
    ).toBe(3);
    expect(
      value(
        'http_request_duration_seconds_count{method="POST",route="/v1/detect",status_code="200"}',
      ),
    ).toBe(3);
  });
});
