/**
 * The page layer's metrics (issue 15): a verdict with its page fetched from loopback, analysed,
 * and sent to the LLM judge (a loopback chat-completions server) is recorded by the real
 * `ServiceMetrics` — a duration for each step, the verdict under the layer it rests on — and a
 * second request for the same URL is a cache hit that times nothing. The HTTP-level scrape by
 * Prometheus is test/http/metrics-prometheus.test.ts.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import type { LlmVerdict } from '../../src/engine/page/llm-verdict.js';
import { ServiceMetrics } from '../../src/observability/metrics.js';
import {
  type ChatCompletionsServer,
  startChatCompletionsServer,
} from '../helpers/chat-completions-server.js';
import { type PageFixtureServer, servePageFixtures } from '../helpers/page-fixture-server.js';
import { pageFixture } from '../helpers/page-fixtures.js';
import { pageService, type PageServiceHarness } from '../helpers/page-service.js';

const SCAM_VERDICT: LlmVerdict = {
  impersonated_brand: null,
  brand_confidence: 0,
  page_purpose: 'fake virus alert asking the visitor to call a support number',
  asks_for: ['phone_call'],
  threat_types: ['tech_support_scam'],
  urgency: true,
  too_good_offer: false,
  evidence: ['ウイルスに感染しています'],
  verdict: 'danger',
  confidence: 0.9,
};

let pages: PageFixtureServer;
let llm: ChatCompletionsServer;
let h: PageServiceHarness | undefined;

beforeAll(async () => {
  pages = await servePageFixtures();
  llm = await startChatCompletionsServer(() => ({ kind: 'verdict', verdict: SCAM_VERDICT }));
});
afterAll(async () => {
  await llm.close();
  await pages.close();
});
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** The value of one series of `name` whose labels include `labels` (0 when absent). */
async function sample(
  metrics: ServiceMetrics,
  name: string,
  labels: Record<string, string>,
): Promise<number> {
  const family = name.replace(/_(count|sum|bucket)$/, '');
  const metric = metrics.registry.getSingleMetric(family);
  if (metric === undefined) throw new Error(`no metric ${family}`);
  // Histogram values name their series (`_bucket`, `_sum`, `_count`) in `metricName`.
  const values = (await metric.get()).values as {
    labels: Record<string, string | number>;
    value: number;
    metricName?: string;
  }[];
  const found = values.filter(
    (v) =>
      (v.metricName ?? family) === name &&
      Object.entries(labels).every(([key, value]) => v.labels[key] === value),
  );
  expect(found.length, `${name} ${JSON.stringify(labels)}`).toBeLessThanOrEqual(1);
  return found[0]?.value ?? 0;
}

describe('page layer metrics', { timeout: 10_000 }, () => {
  it('times the page fetch, its analysis and the LLM judge, and attributes the verdict to the judge', async () => {
    const metrics = new ServiceMetrics();
    h = await pageService(
      {
        NET_RESOLVE: `${pages.netResolve},llm.linkguard-test.net:${llm.port}:127.0.0.1`,
        PAGE_BUDGET_MS: '3000',
        LLM_BASE_URL: `http://llm.linkguard-test.net:${llm.port}/v1`,
        LLM_MODEL: 'judge-test',
        LLM_API_KEY: 'sk-test-0123456789abcdef',
        LLM_TIMEOUT_MS: '1000',
      },
      { observer: metrics },
    );
    const url = pages.url(pageFixture('tech-support-text-only-ja'));
    const verdict = await h.verdictOf(url);
    expect(verdict.verdict).toBe('danger');
    expect(verdict.details.matched_patterns).toContain('page:llm_judge');

    for (const layer of ['url_rules', 'page_fetch', 'page_analysis', 'llm_judge']) {
      expect(
        await sample(metrics, 'linkguard_layer_duration_seconds_count', { layer }),
        layer,
      ).toBe(1);
    }
    const total = await sample(metrics, 'linkguard_layer_duration_seconds_sum', {
      layer: 'page_fetch',
    });
    expect(total).toBeGreaterThan(0);
    expect(await sample(metrics, 'linkguard_verdicts_total', { layer: 'llm_judge' })).toBe(1);

    // A page-fetched verdict is cached on first sight: the repeat is a hit and times nothing.
    await h.verdictOf(url);
    expect(await sample(metrics, 'linkguard_verdict_cache_lookups_total', { result: 'hit' })).toBe(
      1,
    );
    expect(
      await sample(metrics, 'linkguard_layer_duration_seconds_count', { layer: 'page_fetch' }),
    ).toBe(1);
    expect(
      await sample(metrics, 'linkguard_verdicts_total', { verdict: 'danger', layer: 'llm_judge' }),
    ).toBe(2);
  });

  it('a verdict a page rule decides rests on the page', async () => {
    const metrics = new ServiceMetrics();
    h = await pageService(
      { NET_RESOLVE: pages.netResolve, PAGE_BUDGET_MS: '3000' },
      { observer: metrics },
    );
    const verdict = await h.verdictOf(pages.url(pageFixture('fake-captcha-winhttp-vbs')));
    expect(verdict.verdict).toBe('danger');
    expect(
      await sample(metrics, 'linkguard_verdicts_total', { verdict: 'danger', layer: 'page' }),
    ).toBe(1);
    expect(
      await sample(metrics, 'linkguard_layer_duration_seconds_count', { layer: 'llm_judge' }),
    ).toBe(0);
  });
});
