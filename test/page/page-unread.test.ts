/**
 * Pages that cannot be read leave the verdict to layers 1–2, whose reason says so and whose
 * confidence is lower (DESIGN §5 "unknown is not safe"); and the service around layer 3: the
 * verdict cache (identical answers, one fetch, lifetimes by verdict), shared in-flight fetches,
 * and the URL a redirect lands on judged by layers 1–2.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { importFeed } from '../../src/intel/feed-import.js';
import {
  MISBEHAVING_HOSTS,
  type PageFixtureServer,
  servePageFixtures,
} from '../helpers/page-fixture-server.js';
import { pageFixture } from '../helpers/page-fixtures.js';
import { pageService, type PageServiceHarness } from '../helpers/page-service.js';
import { T0 } from '../helpers/test-app.js';

let server: PageFixtureServer;
let h: PageServiceHarness | undefined;

beforeAll(async () => {
  server = await servePageFixtures();
});
afterAll(async () => {
  await server.close();
});
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function harness(env: Record<string, string> = {}): Promise<PageServiceHarness> {
  // Port 9 (discard) is closed on loopback: connecting there is refused.
  h = await pageService({
    NET_RESOLVE: `${server.netResolve},refused.linkguard-test.net:9:127.0.0.1`,
    PAGE_BUDGET_MS: '1000',
    ...env,
  });
  return h;
}
const at = (host: string, path = '/'): string => `http://${host}:${server.port}${path}`;

describe('a page that cannot be read', { timeout: 10_000 }, () => {
  it.each([
    ['timeout', () => at(MISBEHAVING_HOSTS.hang), /did not answer in time/],
    ['unreachable', () => 'http://refused.linkguard-test.net:9/', /could not be reached/],
    ['too_large', () => at(MISBEHAVING_HOSTS.huge), /too large/],
    ['not_html', () => at(MISBEHAVING_HOSTS.json), /does not serve a web page/],
    ['too_many_redirects', () => at(MISBEHAVING_HOSTS.loop), /redirects too many times/],
  ])('%s: layers 1–2 decide, the reason says so, confidence drops', async (code, urlOf, words) => {
    const s = await harness();
    const url = urlOf();
    const read = await s.verdictOf(at(MISBEHAVING_HOSTS.plain));
    const started = performance.now();
    const unread = await s.verdictOf(url);
    // The budget (1 s here) bounds the whole verdict.
    expect(performance.now() - started).toBeLessThan(2500);
    expect(read.reason).not.toMatch(/not analysed/);
    expect(unread.reason).toMatch(/Page not analysed: /);
    expect(unread.reason).toMatch(words);
    expect(unread.details.matched_patterns).toContain(`page_not_analysed:${code}`);
    expect(unread.verdict).toBe(read.verdict);
    expect(unread.confidence).toBeLessThan(read.confidence);
    expect(unread.details.page_language).toBeNull();
  });
});

describe('the verdict cache with page analysis', { timeout: 10_000 }, () => {
  it('a second request is answered from the cache with the identical verdict and no fetch', async () => {
    const s = await harness();
    const url = server.url(pageFixture('fake-captcha-recaptcha-b64-iex'));
    const first = await s.verdictOf(url);
    const fetched = server.requests.length;
    const second = await s.verdictOf(url);
    expect(second).toStrictEqual(first);
    expect(server.requests.length).toBe(fetched);
  });

  it('concurrent requests for a fresh URL share one page fetch', async () => {
    const s = await harness();
    const fixture = pageFixture('seed-phrase-metamask-restore');
    const before = server.requests.filter((r) => r.startsWith(fixture.host)).length;
    const verdicts = await Promise.all(
      Array.from({ length: 8 }, () => s.verdictOf(server.url(fixture))),
    );
    expect(new Set(verdicts.map((v) => JSON.stringify(v))).size).toBe(1);
    const after = server.requests.filter((r) => r.startsWith(fixture.host)).length;
    expect(after - before).toBe(1);
  });

  it('lifetimes follow the verdict: a safe verdict expires before a danger one', async () => {
    const s = await harness({ VERDICT_TTL_SAFE_SECONDS: '30', VERDICT_TTL_DANGER_SECONDS: '300' });
    const safeUrl = at(MISBEHAVING_HOSTS.plain, '/ttl');
    const dangerUrl = server.url(pageFixture('fake-captcha-winhttp-vbs'));
    expect((await s.verdictOf(safeUrl)).verdict).toBe('safe');
    expect((await s.verdictOf(dangerUrl)).verdict).toBe('danger');
    const count = (path: string) => server.requests.filter((r) => r.endsWith(path)).length;
    const danger = pageFixture('fake-captcha-winhttp-vbs');
    const dangerPath = danger.host + (danger.path.split('?')[0] ?? '');
    s.clock.advance(31_000);
    await s.verdictOf(safeUrl);
    await s.verdictOf(dangerUrl);
    expect(count('/ttl')).toBe(2);
    expect(count(dangerPath)).toBe(1);
    s.clock.advance(300_000);
    await s.verdictOf(dangerUrl);
    expect(count(dangerPath)).toBe(2);
  });

  it('an unread page is re-judged soon (VERDICT_TTL_INCOMPLETE_SECONDS)', async () => {
    const s = await harness({ VERDICT_TTL_INCOMPLETE_SECONDS: '5' });
    const url = at(MISBEHAVING_HOSTS.json, '/incomplete');
    await s.verdictOf(url);
    await s.verdictOf(url);
    s.clock.advance(6_000);
    await s.verdictOf(url);
    expect(server.requests.filter((r) => r.endsWith('/incomplete')).length).toBe(2);
  });
});

describe('where the page lands', { timeout: 10_000 }, () => {
  it('a redirect to a listed host takes the listed verdict (layer 2 judges the final URL)', async () => {
    const s = await harness();
    const landing = pageFixture('delivery-usps-redelivery').host;
    await importFeed(
      s.store.intel,
      { name: 'test-feed', format: 'plain', url: null, threat: null },
      `${landing}\n`,
      { at: T0 },
    );
    await s.intel.refresh();
    const verdict = await s.verdictOf(server.url(pageFixture('delivery-usps-shortlink')));
    expect(verdict.verdict).toBe('danger');
    expect(verdict.signals.known_threat).toBe(true);
    expect(verdict.reason).toContain(`forwards to ${landing}`);
    expect(verdict.details.matched_patterns).toContain('redirect:intel:test-feed');
  });

  it('a listed URL is not fetched at all (layer 2 is conclusive)', async () => {
    const s = await harness();
    const fixture = pageFixture('gov-dgt-multa-es');
    await importFeed(
      s.store.intel,
      { name: 'test-feed', format: 'plain', url: null, threat: null },
      `${fixture.host}\n`,
      { at: T0 },
    );
    await s.intel.refresh();
    const before = server.requests.length;
    const verdict = await s.verdictOf(server.url(fixture));
    expect(verdict.signals.known_threat).toBe(true);
    expect(server.requests.length).toBe(before);
    expect(verdict.reason).not.toMatch(/not analysed|not checked/);
  });

  it("a brand's official site is not fetched (layer 1 is conclusive)", async () => {
    const s = await harness();
    const fixture = pageFixture('benign-paypal-signin');
    const before = server.requests.length;
    const verdict = await s.verdictOf(server.url(fixture));
    expect(verdict.verdict).toBe('safe');
    expect(server.requests.length).toBe(before);
  });
});
