/**
 * Layer 3 end to end through the detection service: every page of the corpus served from a real
 * loopback server under its realistic host name, fetched through the SSRF-safe client, analysed,
 * scored. Malicious pages must come back with their category, signals and page evidence; benign
 * look-alikes must stay `safe`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type PageFixtureServer, servePageFixtures } from '../helpers/page-fixture-server.js';
import { BENIGN_FIXTURES, MALICIOUS_FIXTURES, type PageFixture } from '../helpers/page-fixtures.js';
import { pageService, type PageServiceHarness } from '../helpers/page-service.js';

let server: PageFixtureServer;
let h: PageServiceHarness;

beforeAll(async () => {
  server = await servePageFixtures();
  h = await pageService({ NET_RESOLVE: server.netResolve });
});
afterAll(async () => {
  await h.close();
  await server.close();
});

const verdictOf = (fixture: PageFixture) => h.verdictOf(server.url(fixture));

describe('malicious pages', { timeout: 15_000 }, () => {
  it.each(MALICIOUS_FIXTURES.map((f) => [f.id, f] as const))(
    '%s: verdict, threat types, signals and page evidence',
    async (_id, fixture) => {
      const verdict = await verdictOf(fixture);
      expect(verdict.verdict).toBe(fixture.expect.verdict);
      expect(verdict.threat_types).toEqual(expect.arrayContaining(fixture.expect.threat_types));
      for (const signal of fixture.expect.signals) {
        expect(verdict.signals, signal).toHaveProperty(signal, true);
      }
      // Evidence from the page itself, not only from the URL.
      // (A page reached through a redirect shows its codes as `redirect:<code>`.)
      const evidence = verdict.details.matched_patterns.filter((p) =>
        /^(redirect:)?page:[a-z0-9_]+=./.test(p),
      );
      expect(evidence.length).toBeGreaterThan(0);
      expect(verdict.reason).not.toMatch(/not analysed|page content not checked|URL only/i);
    },
  );
});

describe('benign look-alikes', { timeout: 15_000 }, () => {
  it.each(BENIGN_FIXTURES.map((f) => [f.id, f] as const))('%s stays safe', async (_id, fixture) => {
    const verdict = await verdictOf(fixture);
    expect(verdict.verdict).toBe('safe');
    expect(verdict.threat_types).toEqual([]);
  });
});

describe('page language', { timeout: 15_000 }, () => {
  it.each(
    MALICIOUS_FIXTURES.filter((f) => f.redirect === undefined).map((f) => [f.id, f] as const),
  )('%s', async (_id, fixture) => {
    const verdict = await verdictOf(fixture);
    // The primary language subtag; the region is `target_country`'s business.
    expect(verdict.details.page_language).toBe(fixture.language.split('-')[0]);
  });
});
