/**
 * `GET /metrics` read by Prometheus itself (issue 15, metrics): a listening app with a feed, an
 * enterprise key and the public payment flow serves real requests — a safe and a danger verdict,
 * a verdict-cache hit, a 402 challenge, a refused proof, a proof whose chain RPC is down (503), a
 * per-IP 429 — then its exposition is linted by `promtool check metrics` (the official parser) and
 * scraped by a real Prometheus server on loopback configured with the README's scrape config; the
 * values are read back through Prometheus' query API. Without Debian's `prometheus` package the
 * file is skipped on a developer clone and fails when CI is set (`.ci/run` installs it).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { getBase58Decoder } from '@solana/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { loadConfig } from '../../src/config/config.js';
import { importFeed } from '../../src/intel/feed-import.js';
import { createLogger } from '../../src/observability/logger.js';
import { paymentHeaders } from '../../src/payments/payment-proof.js';
import { buildApp } from '../../src/server/build-app.js';
import { openStore } from '../../src/store/open-store.js';
import type { Store } from '../../src/store/ports/store.js';
import { detect, detectWithKey } from '../helpers/detect-request.js';
import { createEnterpriseKey } from '../helpers/enterprise-key.js';
import {
  hasPrometheus,
  PROMETHEUS,
  type PrometheusServer,
  promtoolCheckMetrics,
  startPrometheus,
} from '../helpers/prometheus.js';
import {
  CHAIN_ENV,
  logCapture,
  NO_CHAIN_RPC,
  sharedEngine,
  T0,
  type TestApp,
  testClock,
} from '../helpers/test-app.js';
import type { Challenge } from '../helpers/x402-requests.js';

const IN_CI = (process.env.CI ?? '') !== '' && process.env.CI !== 'false';
/** Without Prometheus a developer clone still passes `npm test`; in CI a missing one fails. */
const SKIP = !hasPrometheus() && !IN_CI;
const TITLE = SKIP
  ? `/metrics scraped by Prometheus — skipped: ${PROMETHEUS} or promtool not found (apt-get install prometheus; with CI set this is a failure)`
  : '/metrics scraped by Prometheus';

const TOKEN = 'metrics-scrape-token-0123456789abcdef';
const FEED = 'metrics-test-feed';
/** Invented addresses (no evaluation data): one listed by the feed, one not. */
const DANGER_URL = 'http://wallet-connect-metrics-fixture.top/claim';
const SAFE_URL = 'https://metrics-fixture-bakery.net/menu';
const HOUR_MS = 3_600_000;
/** A URLhaus csv_recent dump with one dated entry, a day before the test clock's T0. */
const FEED_CSV = [
  '# id,dateadded,url,url_status,last_online,threat,tags,urlhaus_link,reporter',
  `"1","2026-03-14 12:00:00","${DANGER_URL}","online","","malware_download","","",""`,
  '',
].join('\n');
/** What promtool says about prom-client's default process metrics (nodejs_* gauges). */
const PROM_CLIENT_LINT = [
  'nodejs_active_handles_total non-counter metrics should not have "_total" suffix',
  'nodejs_active_requests_total non-counter metrics should not have "_total" suffix',
  'nodejs_active_resources_total non-counter metrics should not have "_total" suffix',
];
/** Public requests per minute: a few challenges and proofs, then a refusal. */
const PUBLIC_PER_MINUTE = 5;

/** The README's scrape config (section "Metrics"), the one operators copy. */
function readmeScrapeConfig(): string {
  const readme = readFileSync(join(import.meta.dirname, '../../README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Metrics'));
  const block = /```yaml\n([\s\S]*?)```/.exec(section)?.[1];
  if (block === undefined) throw new Error('README: no yaml block in the Metrics section');
  return block;
}

/** The README's config with this test's target, scheme and token file; fails if one is missing. */
function scrapeConfig(port: number, tokenFile: string): string {
  const replacements: [string, string][] = [
    ['scheme: https', 'scheme: http'],
    ['/etc/prometheus/linkguard-metrics-token', tokenFile],
    ["'linkguard.example.com:443'", `'127.0.0.1:${port}'`],
  ];
  let config = readmeScrapeConfig();
  for (const [from, to] of replacements) {
    expect(config, `README scrape config should contain ${from}`).toContain(from);
    config = config.replace(from, to);
  }
  // Scrape often so the test waits about a second, not the default minute.
  return `global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\n${config}`;
}

describe.skipIf(SKIP)(TITLE, { timeout: 30_000 }, () => {
  let dir = '';
  let store: Store | undefined;
  let app: TestApp | undefined;
  let prometheus: PrometheusServer | undefined;
  let exposition = '';
  let refusals = 0;

  beforeAll(async () => {
    if (!hasPrometheus()) {
      throw new Error(
        `CI is set but ${PROMETHEUS} or promtool is missing: install Debian's prometheus (.ci/run does) to run this test`,
      );
    }
    dir = mkdtempSync(join(tmpdir(), 'linkguard-metrics-'));
    const config = loadConfig({
      ...NO_CHAIN_RPC,
      ...CHAIN_ENV,
      PAGE_ANALYSIS: 'off',
      METRICS_TOKEN: TOKEN,
      RATE_LIMIT_PUBLIC_PER_MINUTE: String(PUBLIC_PER_MINUTE),
      DATABASE_URL: `sqlite:${join(dir, 'lg.db')}`,
    });
    store = await openStore(config.store);
    await importFeed(
      store.intel,
      { name: FEED, format: 'urlhaus-csv', url: null, threat: null },
      FEED_CSV,
      { at: T0 - HOUR_MS },
    );
    const logger = createLogger('error', logCapture());
    app = await buildApp({ config, store, engine: sharedEngine(), clock: testClock(), logger });
    await app.listen({ host: '127.0.0.1', port: 0 });

    const key = await createEnterpriseKey(store);
    // The verdict cache admits a URL on its second sighting: miss, miss, hit.
    for (const url of [SAFE_URL, DANGER_URL, DANGER_URL, DANGER_URL]) {
      const response = await detectWithKey(app, url, key.bearer);
      expect(response.statusCode, response.body).toBe(200);
    }
    const challenge = await detect(app, { url: DANGER_URL });
    expect(challenge.statusCode).toBe(402);
    const nonce = challenge.json<Challenge>().payment?.nonce ?? '';
    const signature = getBase58Decoder().decode(randomBytes(64));
    const unknown = await detect(
      app,
      { url: DANGER_URL },
      {
        headers: paymentHeaders({
          chain: 'solana',
          txSignature: signature,
          nonce: '00000000-0000-4000-8000-000000000000',
        }),
      },
    );
    expect(unknown.json()).toMatchObject({ error: 'payment_invalid', reason: 'nonce_unknown' });
    // The Solana RPC is a closed loopback port: the verification fails, nothing is consumed.
    const outage = await detect(
      app,
      { url: DANGER_URL },
      { headers: paymentHeaders({ chain: 'solana', txSignature: signature, nonce }) },
    );
    expect(outage.statusCode).toBe(503);
    for (let i = 0; i < PUBLIC_PER_MINUTE; i++) {
      const response = await detect(app, { url: SAFE_URL });
      if (response.statusCode === 429) refusals++;
    }
    expect(refusals).toBeGreaterThan(0);

    const scraped = await app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(scraped.statusCode).toBe(200);
    exposition = scraped.body;

    const address = app.server.address();
    if (address === null || typeof address === 'string') throw new Error('app not listening');
    const tokenFile = join(dir, 'metrics-token');
    writeFileSync(tokenFile, TOKEN, { mode: 0o600 });
    prometheus = await startPrometheus(dir, scrapeConfig(address.port, tokenFile));
  });

  afterAll(async () => {
    try {
      await prometheus?.stop();
      await app?.close();
      await store?.close();
    } finally {
      if (dir !== '') rmSync(dir, { recursive: true, force: true });
    }
  });

  it('passes promtool check metrics and carries no URL, key, token or nonce', async () => {
    const { code, output } = await promtoolCheckMetrics(exposition);
    // Exit 1 is a parse error; 3 means lint findings, of which only prom-client's own default
    // gauges named `*_total` are allowed (their names are prom-client's, not ours).
    expect(code, output).not.toBe(1);
    const findings = output.split('\n').filter((line) => line !== '');
    expect(findings.filter((line) => !PROM_CLIENT_LINT.includes(line))).toEqual([]);
    expect(code).toBe(findings.length === 0 ? 0 : 3);
    for (const secret of ['wallet-connect-metrics-fixture', 'metrics-fixture-bakery', TOKEN]) {
      expect(exposition).not.toContain(secret);
    }
    expect(exposition).not.toMatch(/sk_live_|[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-/);
  });

  it('is scraped by Prometheus with the README scrape config, every family with its values', async () => {
    const server = prometheus;
    if (server === undefined) throw new Error('Prometheus not started');
    /** The value of a query's single sample (0 when it has none). */
    const value = async (promql: string): Promise<number> => {
      const samples = await server.query(promql);
      expect(samples.length, `${promql}: ${JSON.stringify(samples)}`).toBeLessThanOrEqual(1);
      return samples[0]?.value ?? 0;
    };
    // The first scrape after start-up: bounded by the test timeout, polled every 200 ms.
    const deadline = Date.now() + 10_000;
    while ((await value('up{job="linkguard"}')) !== 1) {
      if (Date.now() > deadline) throw new Error(`no successful scrape:\n${server.log()}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }

    expect(await value('sum(linkguard_verdicts_total{verdict="danger",layer="intel"})')).toBe(3);
    expect(await value('sum(linkguard_verdicts_total{verdict="safe"})')).toBe(1);
    expect(await value('sum(linkguard_verdicts_total{verdict="caution"})')).toBe(0);
    expect(await value('linkguard_verdict_cache_lookups_total{level="l1",result="hit"}')).toBe(1);
    expect(await value('linkguard_verdict_cache_lookups_total{level="l1",result="miss"}')).toBe(3);
    expect(await value('linkguard_layer_duration_seconds_count{layer="url_rules"}')).toBe(3);
    expect(await value('linkguard_layer_duration_seconds_count{layer="intel"}')).toBe(3);

    expect(
      await value('linkguard_payments_total{chain="none",outcome="challenged",reason="none"}'),
    ).toBeGreaterThanOrEqual(1);
    expect(
      await value(
        'linkguard_payments_total{chain="solana",outcome="refused",reason="nonce_unknown"}',
      ),
    ).toBe(1);
    expect(
      await value('linkguard_payments_total{chain="solana",outcome="chain_unavailable"}'),
    ).toBe(1);
    expect(await value('linkguard_chain_rpc_errors_total{chain="solana",operation="verify"}')).toBe(
      1,
    );
    expect(
      await value('linkguard_chain_rpc_duration_seconds_count{chain="solana",operation="verify"}'),
    ).toBe(1);

    expect(await value('linkguard_rate_limit_refusals_total{policy="per-ip"}')).toBe(refusals);
    expect(
      await value('http_request_duration_seconds_count{route="/v1/detect",status_code="429"}'),
    ).toBe(refusals);

    // The test clock stands at T0: imported an hour before, newest entry a day before.
    expect(await value(`linkguard_feed_import_age_seconds{feed="${FEED}"}`)).toBe(3600);
    expect(await value(`linkguard_feed_newest_entry_age_seconds{feed="${FEED}"}`)).toBe(86_400);

    expect(
      await value(
        'linkguard_store_operation_duration_seconds_count{port="payments",operation="issueNonce"}',
      ),
    ).toBeGreaterThanOrEqual(1);
    expect(
      await value(
        'linkguard_store_operation_duration_seconds_count{port="usage",operation="recordUsage"}',
      ),
    ).toBe(4);
    expect(await value('sum(linkguard_store_operation_errors_total)')).toBe(0);
    expect(await value('process_resident_memory_bytes{job="linkguard"}')).toBeGreaterThan(0);
  });
});
