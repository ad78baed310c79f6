/**
 * Layer 2 end to end through `POST /v1/detect`: feeds imported into a real SQLite store (real
 * fixture files), the intel layer with a real RDAP client against an RFC 9083 server on loopback
 * (through the SSRF-safe client and a resolve override), and the verdicts that come out: a feed
 * hit is `danger` with `known_threat`, an allow entry wins, a feed target names the brand, a
 * fresh lookalike is `danger`, history records non-safe verdicts, and a feed imported while the
 * service runs is picked up by a refresh.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { loadConfig } from '../../src/config/config.js';
import { createEngine, type Engine } from '../../src/engine/create-engine.js';
import type { Verdict } from '../../src/engine/verdict.js';
import { loadEngineData } from '../../src/engine-data/load-engine-data.js';
import { importFeed } from '../../src/intel/feed-import.js';
import { IntelLayer } from '../../src/intel/intel-layer.js';
import { createRdapBootstrap } from '../../src/intel/rdap/rdap-bootstrap.js';
import { createRdapClient } from '../../src/intel/rdap/rdap-client.js';
import { createWebRiskClient } from '../../src/intel/web-risk/web-risk-client.js';
import { createHttpClient, type HttpClient } from '../../src/net/index.js';
import { createLogger } from '../../src/observability/logger.js';
import { buildApp } from '../../src/server/build-app.js';
import type { Store } from '../../src/store/ports/store.js';
import { openSqliteStore } from '../../src/store/sqlite/open-sqlite-store.js';
import { detectWithKey } from '../helpers/detect-request.js';
import { createEnterpriseKey } from '../helpers/enterprise-key.js';
import { type ScriptedServer, startScriptedServer } from '../helpers/scripted-http-server.js';
import { logCapture, T0, testClock } from '../helpers/test-app.js';

const FIXTURES = join(import.meta.dirname, '../fixtures/feeds');
const DAY = 24 * 60 * 60 * 1000;

/** Registration dates the loopback registry knows (domains under .xyz and .top). */
const REGISTERED: Record<string, number> = {
  'metamask-wallet-restore.xyz': T0 - 5 * DAY,
  'metamask-support-desk.top': T0 - 4000 * DAY,
  'quiet-garden-notes.xyz': T0 - 2 * DAY,
};

let engine: Engine;
let registry: ScriptedServer;
beforeAll(async () => {
  // Layer 2 is tested with the URL rules alone: the learned model's own rules have their tests
  // in test/engine, and its weights must not decide what these invented hosts show.
  engine = createEngine(loadEngineData(undefined, { urlModel: false }));
  registry = await startScriptedServer(async (request) => {
    const name = request.path.replace(/^\/domain\//, '');
    if (name === 'slow-registry-answer.xyz') {
      // A registry that stalls past the RDAP budget (800 ms).
      await new Promise((resolve) => setTimeout(resolve, 1500));
    }
    const at = REGISTERED[name];
    if (at === undefined) return { status: 404, body: '{"errorCode":404}' };
    return {
      status: 200,
      headers: { 'content-type': 'application/rdap+json' },
      body: JSON.stringify({
        objectClassName: 'domain',
        ldhName: name,
        events: [{ eventAction: 'registration', eventDate: new Date(at).toISOString() }],
      }),
    };
  });
});
afterAll(async () => {
  await registry.close();
});

interface Harness {
  app: Awaited<ReturnType<typeof buildApp>>;
  store: Store;
  intel: IntelLayer;
  http: HttpClient;
  bearer: string;
}

let dir = '';
let current: Harness | undefined;
afterEach(async () => {
  await current?.app.close();
  await current?.http.close();
  await current?.store.close();
  rmSync(dir, { recursive: true, force: true });
  current = undefined;
});

async function harness(
  feeds: [string, Parameters<typeof importFeed>[1]['format']][],
  webRiskPort: number | null = null,
): Promise<Harness> {
  dir = mkdtempSync(join(tmpdir(), 'linkguard-intel-'));
  const store = openSqliteStore(join(dir, 'lg.db'));
  for (const [file, format] of feeds) {
    await importFeed(
      store.intel,
      { name: file.split('.')[0] ?? file, format, url: null, threat: null },
      readFileSync(join(FIXTURES, file), 'utf8'),
      { at: T0 },
    );
  }
  const clock = testClock();
  const http = createHttpClient({
    userAgent: 'linkguard-test',
    resolveOverrides: [
      { host: 'rdap.test.example', port: registry.port, address: '127.0.0.1' },
      ...(webRiskPort === null
        ? []
        : [{ host: 'webrisk.test.example', port: webRiskPort, address: '127.0.0.1' }]),
    ],
  });
  const bootstrap = createRdapBootstrap({
    version: '1.0',
    publication: '2026-01-01T00:00:00Z',
    services: [[['xyz', 'top'], [`http://rdap.test.example:${registry.port}/`]]],
  });
  const intel = new IntelLayer({
    engine,
    store: store.intel,
    domainAge: createRdapClient({ http, bootstrap, clock }),
    webRisk:
      webRiskPort === null
        ? null
        : createWebRiskClient({
            http,
            apiKey: 'test-key',
            clock,
            baseUrl: `http://webrisk.test.example:${webRiskPort}`,
          }),
  });
  const app = await buildApp({
    // Layers 1–2 only: page analysis would leave loopback (test/page/ covers layer 3).
    config: loadConfig({ DATABASE_URL: `sqlite:${join(dir, 'lg.db')}`, PAGE_ANALYSIS: 'off' }),
    store,
    engine,
    clock,
    logger: createLogger('error', logCapture()),
    intel,
  });
  const key = await createEnterpriseKey(store);
  current = { app, store, intel, http, bearer: key.bearer };
  return current;
}

async function verdictOf(h: Harness, url: string): Promise<Verdict> {
  const response = await detectWithKey(h.app, url, h.bearer);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<Verdict>();
}

describe('feed hits', () => {
  it('a host on a deny list is danger with known_threat, the feed named in patterns and reason', async () => {
    const h = await harness([['polkadot-all.json', 'polkadot-json']]);
    const listed = JSON.parse(readFileSync(join(FIXTURES, 'polkadot-all.json'), 'utf8')) as {
      deny: unknown[];
    };
    const host = listed.deny.find(
      (v): v is string => typeof v === 'string' && /^[a-z0-9.-]+$/.test(v),
    );
    expect(host).toBeDefined();
    const verdict = await verdictOf(h, `https://${host ?? ''}/connect`);
    expect(verdict).toMatchObject({ verdict: 'danger', signals: { known_threat: true } });
    expect(verdict.details.matched_patterns).toContain('intel:polkadot-all');
    expect(verdict.threat_types).toContain('crypto_scam');
    expect(verdict.reason).toMatch(/^Known threat: .*polkadot-all/);
    // Layer 2 ran: the reason names only the layer that did not.
    expect(verdict.reason).toMatch(/Page content not checked\.$/);
    expect(verdict.reason).not.toMatch(/URL only/);
    expect(verdict.trust_score).toBeLessThan(20);
    // Recorded in the domain history, with the feed as source.
    const history = await h.store.intel.domainHistory(host ?? '');
    expect(history).toMatchObject({ worstVerdict: 'danger', count: 1, sources: ['polkadot-all'] });
  });

  it('an allow entry wins over a deny entry; an allowed platform apex never covers its tenants', async () => {
    const h = await harness([['polkadot-all.json', 'polkadot-json']]);
    await importFeed(
      h.store.intel,
      { name: 'web3-lists', format: 'polkadot-json', url: null, threat: null },
      JSON.stringify({ allow: ['wallet-tools.io'], deny: ['wallet-tools.io'] }),
      { at: T0 },
    );
    await h.intel.refresh();
    const allowed = await verdictOf(h, 'https://wallet-tools.io/');
    expect(allowed.verdict).toBe('safe');
    expect(allowed.signals.known_threat).toBe(false);
    expect(allowed.details.matched_patterns).toContain('allowlist:web3-lists');
    // polkadot-all allows the platform apex github.io: its tenants are still judged.
    const tenant = await verdictOf(h, 'https://metamask-wallet-claim.github.io/');
    expect(tenant.verdict).not.toBe('safe');
    expect(tenant.details.matched_patterns.some((p) => p.startsWith('allowlist:'))).toBe(false);
  });

  it('a PhishTank target names the brand when the URL itself does not', async () => {
    const h = await harness([['phishtank-verified-online.csv', 'phishtank-csv']]);
    const rows = readFileSync(join(FIXTURES, 'phishtank-verified-online.csv'), 'utf8').split('\n');
    // A row whose target is a catalog brand (PhishTank spells it e.g. "PayPal" or "Facebook").
    const row = rows.find((line) =>
      /,(PayPal|Facebook|Microsoft|Amazon\.com|eBay, Inc\.)$/.test(line.trim()),
    );
    expect(row).toBeDefined();
    const url = (row ?? '').split(',')[1] ?? '';
    const verdict = await verdictOf(h, url.replace(/&amp;/g, '&'));
    expect(verdict).toMatchObject({ verdict: 'danger', signals: { known_threat: true } });
    expect(verdict.brand).not.toBeNull();
    expect(verdict.threat_types).toEqual(expect.arrayContaining(['credential_phishing']));
  });

  it('a feed imported while the service runs is picked up by a refresh', async () => {
    const h = await harness([]);
    const url = 'https://fresh-import-example.top/login';
    expect((await verdictOf(h, url)).signals.known_threat).toBe(false);
    await importFeed(
      h.store.intel,
      { name: 'late', format: 'plain', url: null, threat: 'credential_phishing' },
      'fresh-import-example.top\n',
      { at: T0 },
    );
    expect(await h.intel.refresh()).toBe(true);
    // The cached verdict was dropped with the swap.
    expect(await verdictOf(h, url)).toMatchObject({
      verdict: 'danger',
      signals: { known_threat: true },
    });
    expect(await h.intel.refresh()).toBe(false);
  });
});

describe('domain age', () => {
  it('a lookalike registered 5 days ago is danger; fresh_domain and domain_age_days are set', async () => {
    const h = await harness([]);
    const verdict = await verdictOf(h, 'https://metamask-wallet-restore.xyz/');
    expect(verdict).toMatchObject({
      verdict: 'danger',
      signals: { fresh_domain: true, known_threat: false },
      details: { domain_age_days: 5 },
    });
    expect(verdict.threat_types).toContain('fresh_domain');
  });

  it('an old domain: fresh_domain false and its age; a domain the registry does not know: null', async () => {
    const h = await harness([]);
    const old = await verdictOf(h, 'https://metamask-support-desk.top/');
    expect(old.signals.fresh_domain).toBe(false);
    expect(old.details.domain_age_days).toBe(4000);
    const unknown = await verdictOf(h, 'https://never-registered-anywhere.xyz/');
    expect(unknown.signals.fresh_domain).toBeNull();
    expect(unknown.details.domain_age_days).toBeNull();
  });

  it('a fresh domain without other evidence keeps its verdict and only reports the age', async () => {
    const h = await harness([]);
    const verdict = await verdictOf(h, 'https://quiet-garden-notes.xyz/');
    expect(verdict.signals.fresh_domain).toBe(true);
    expect(verdict.details.domain_age_days).toBe(2);
    expect(verdict.signals.known_threat).toBe(false);
  });

  it('is never asked for hosting tenants, brand domains or IP hosts', async () => {
    const h = await harness([]);
    const before = registry.requests.length;
    for (const url of [
      'https://metamask-restore.pages.dev/',
      'https://metamask.io/',
      'https://8.8.8.8/',
    ]) {
      const verdict = await verdictOf(h, url);
      expect(verdict.signals.fresh_domain).toBeNull();
    }
    expect(registry.requests.length).toBe(before);
  });

  it('a registry that stalls: the verdict comes within the budget, with the age unknown', async () => {
    const h = await harness([]);
    const started = performance.now();
    const verdict = await verdictOf(h, 'https://slow-registry-answer.xyz/');
    expect(performance.now() - started).toBeLessThan(1400);
    expect(verdict.signals.fresh_domain).toBeNull();
    expect(verdict.details.domain_age_days).toBeNull();
  });
});

describe('Google Web Risk', () => {
  it('a listed URL is danger with known_threat; extended coverage alone is caution; not listed changes nothing', async () => {
    const webRisk = await startScriptedServer((request) => {
      const uri = new URLSearchParams(request.query).get('uri') ?? '';
      const listed = uri.includes('listed-by-google');
      const extended = uri.includes('maybe-deceptive');
      const body = listed
        ? { threat: { threatTypes: ['SOCIAL_ENGINEERING'], expireTime: '2030-01-01T00:00:00Z' } }
        : extended
          ? {
              threat: {
                threatTypes: ['SOCIAL_ENGINEERING_EXTENDED_COVERAGE'],
                expireTime: '2030-01-01T00:00:00Z',
              },
            }
          : {};
      return {
        status: 200,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      };
    });
    try {
      const h = await harness([], webRisk.port);
      const listed = await verdictOf(h, 'https://listed-by-google.com/login');
      expect(listed).toMatchObject({ verdict: 'danger', signals: { known_threat: true } });
      expect(listed.details.matched_patterns).toContain('intel:web_risk:social_engineering');
      expect(listed.reason).toMatch(/Google Web Risk/);
      const extended = await verdictOf(h, 'https://maybe-deceptive.com/');
      expect(extended.verdict).toBe('caution');
      expect(extended.signals.known_threat).toBe(false);
      const clean = await verdictOf(h, 'https://ordinary-bakery-site.com/');
      expect(clean.verdict).toBe('safe');
      // Brand and popular domains are not sent to Google.
      await verdictOf(h, 'https://paypal.com/');
      expect(webRisk.requests.map((r) => new URLSearchParams(r.query).get('uri'))).not.toContain(
        'https://paypal.com/',
      );
    } finally {
      await webRisk.close();
    }
  });
});
