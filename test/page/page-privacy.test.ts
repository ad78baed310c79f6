/**
 * Privacy of layer 3 (spec §1, DESIGN §8): page content is analysed in memory and never logged or
 * stored. Pages are fetched through the HTTP app at debug level; neither the logs nor the store
 * file then contain text of the pages (the store keeps the site's verdict history, which names the
 * host — layer 2's own history — and never page text).
 */
import { readFileSync } from 'node:fs';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { detectWithKey } from '../helpers/detect-request.js';
import { createEnterpriseKey } from '../helpers/enterprise-key.js';
import { type PageFixtureServer, servePageFixtures } from '../helpers/page-fixture-server.js';
import { pageFixture } from '../helpers/page-fixtures.js';
import { useTestApp } from '../helpers/test-app.js';

let server: PageFixtureServer;
beforeAll(async () => {
  server = await servePageFixtures();
});
afterAll(async () => {
  await server.close();
});
const start = useTestApp();

/** Strings only the page holds (its title and a line of its lure), per fixture. */
const PAGES: [string, string[]][] = [
  ['seed-phrase-metamask-restore', ['Secret Recovery Phrase']],
  ['credential-m365-clone', ['next.php']],
  ['delivery-dhl-de', ['Zollgebühren']],
];

describe('page content never reaches logs or the store', { timeout: 15_000 }, () => {
  it('after judging malicious pages at debug level', async () => {
    const { app, store, logs, dbPath } = await start({
      logLevel: 'debug',
      env: { PAGE_ANALYSIS: 'on', NET_RESOLVE: server.netResolve },
    });
    const key = await createEnterpriseKey(store);
    for (const [id] of PAGES) {
      const response = await detectWithKey(app, server.url(pageFixture(id)), key.bearer);
      expect(response.statusCode).toBe(200);
      expect(response.json<{ verdict: string }>().verdict).toBe('danger');
    }
    await store.close();
    const stored = readFileSync(dbPath).toString('latin1');
    const text = logs.text();
    expect(logs.records().length).toBeGreaterThan(0);
    for (const [id, strings] of PAGES) {
      const fixture = pageFixture(id);
      for (const secret of strings) {
        expect(text, `${id}: ${secret} in logs`).not.toContain(secret);
        expect(stored, `${id}: ${secret} in the store`).not.toContain(secret);
      }
      // The host is in the per-domain history by design (layer 2), never in the logs.
      expect(text).not.toContain(fixture.host);
    }
  });
});
