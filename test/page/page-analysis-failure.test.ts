/**
 * An analyzer that throws on a page must not turn the verdict into an error (an attacker could
 * otherwise shield a kit by breaking the analysis): layers 1–2 answer, the reason says the page
 * was not analysed, and the error is reported. The analysis is replaced by one that throws.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

import type * as AnalyzePageModule from '../../src/engine/page/analyze-page.js';
import {
  MISBEHAVING_HOSTS,
  type PageFixtureServer,
  servePageFixtures,
} from '../helpers/page-fixture-server.js';
import { pageService } from '../helpers/page-service.js';

vi.mock('../../src/engine/page/analyze-page.js', async (importOriginal) => ({
  ...(await importOriginal<typeof AnalyzePageModule>()),
  analyzePage: () => {
    throw new TypeError('analyzer bug');
  },
}));

let server: PageFixtureServer;
beforeAll(async () => {
  server = await servePageFixtures();
});
afterAll(async () => {
  await server.close();
});

describe('an analyzer that throws', { timeout: 10_000 }, () => {
  it('leaves the verdict to layers 1–2, says so, and reports the error', async () => {
    const errors: unknown[] = [];
    const h = await pageService(
      { NET_RESOLVE: server.netResolve },
      { onPageError: (error) => errors.push(error) },
    );
    try {
      const verdict = await h.verdictOf(`http://${MISBEHAVING_HOSTS.plain}:${server.port}/`);
      expect(verdict.verdict).toBe('safe');
      expect(verdict.reason).toMatch(/Page not analysed: the page could not be analysed\./);
      expect(verdict.details.matched_patterns).toContain('page_not_analysed:analysis_failed');
      expect(errors).toHaveLength(1);
      expect(String(errors[0])).toContain('analyzer bug');
    } finally {
      await h.close();
    }
  });
});
