/**
 * The LLM judge inside a verdict: asked only for ambiguous pages, within the page budget, adding
 * evidence that can raise a verdict but never lower one, and changing nothing when it is down.
 * The endpoint is a real loopback server speaking the chat-completions protocol.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import type { LlmVerdict } from '../../src/engine/page/llm-verdict.js';
import {
  type ChatAnswer,
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
const SAFE_VERDICT: LlmVerdict = {
  ...SCAM_VERDICT,
  page_purpose: 'a support page',
  asks_for: [],
  threat_types: [],
  urgency: false,
  evidence: [],
  verdict: 'safe',
  confidence: 0.95,
};

let pages: PageFixtureServer;
let llm: ChatCompletionsServer;
let answer: ChatAnswer = { kind: 'verdict', verdict: SCAM_VERDICT };
let h: PageServiceHarness | undefined;

beforeAll(async () => {
  pages = await servePageFixtures();
  llm = await startChatCompletionsServer(() => answer);
});
afterAll(async () => {
  await llm.close();
  await pages.close();
});
afterEach(async () => {
  await h?.close();
  h = undefined;
});

let reported: unknown[] = [];

async function harness(withLlm: boolean): Promise<PageServiceHarness> {
  reported = [];
  h = await pageService(
    {
      NET_RESOLVE: `${pages.netResolve},llm.linkguard-test.net:${llm.port}:127.0.0.1`,
      PAGE_BUDGET_MS: '3000',
      ...(withLlm
        ? {
            LLM_BASE_URL: `http://llm.linkguard-test.net:${llm.port}/v1`,
            LLM_MODEL: 'judge-test',
            LLM_API_KEY: 'sk-test-0123456789abcdef',
            LLM_TIMEOUT_MS: '1000',
          }
        : {}),
    },
    { onPageError: (error) => reported.push(error) },
  );
  return h;
}

const AMBIGUOUS = 'tech-support-text-only-ja';

describe('the LLM judge in a verdict', { timeout: 10_000 }, () => {
  it('an ambiguous page is sent to the judge; a corroborated scam answer raises caution to danger', async () => {
    const without = await (await harness(false)).verdictOf(pages.url(pageFixture(AMBIGUOUS)));
    await h?.close();
    h = undefined;
    answer = { kind: 'verdict', verdict: SCAM_VERDICT };
    const before = llm.requests.length;
    const withJudge = await (await harness(true)).verdictOf(pages.url(pageFixture(AMBIGUOUS)));
    expect(without.verdict).toBe('caution');
    expect(llm.requests.length).toBe(before + 1);
    expect(withJudge.verdict).toBe('danger');
    expect(withJudge.details.matched_patterns).toContain('page:llm_judge');
    expect(withJudge.threat_types).toContain('tech_support_scam');
  });

  it('a safe answer lowers nothing', async () => {
    answer = { kind: 'verdict', verdict: SAFE_VERDICT };
    const verdict = await (await harness(true)).verdictOf(pages.url(pageFixture(AMBIGUOUS)));
    expect(verdict.verdict).toBe('caution');
    expect(verdict.details.matched_patterns).not.toContain('page:llm_judge');
  });

  it('a page a hard rule already decides is not sent', async () => {
    answer = { kind: 'verdict', verdict: SAFE_VERDICT };
    const before = llm.requests.length;
    const verdict = await (
      await harness(true)
    ).verdictOf(pages.url(pageFixture('fake-captcha-winhttp-vbs')));
    expect(verdict.verdict).toBe('danger');
    expect(llm.requests.length).toBe(before);
  });

  const failures: [string, ChatAnswer][] = [
    ['down (500)', { kind: 'raw', status: 500, body: '{"error":{"message":"x"}}' }],
    ['hanging', { kind: 'hang' }],
    ['answering garbage', { kind: 'message', content: 'not json' }],
  ];
  it.each(failures)('a judge that is %s changes nothing', async (_what, failing) => {
    answer = failing;
    const verdict = await (await harness(true)).verdictOf(pages.url(pageFixture(AMBIGUOUS)));
    expect(verdict.verdict).toBe('caution');
    expect(verdict.details.matched_patterns).not.toContain('page:llm_judge');
    // Dropped, not hidden: the failure reaches the operator's log hook, without the key.
    expect(reported).toHaveLength(1);
    expect(String(reported[0])).not.toContain('sk-test-0123456789abcdef');
  });
});
