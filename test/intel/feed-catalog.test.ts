/**
 * The feed catalog (`data/feeds/catalog.json`): its validation, which feeds `serve` keeps fresh
 * (`feedsToRefresh`), and every catalog entry downloaded and imported from a loopback copy. The
 * copy is the format's sample of test/fixtures/feeds (see SOURCES.md there) served by a node:http
 * server on 127.0.0.1 at the path (and query) of the entry's real URL, reached through the real
 * SSRF-safe client with the test host mapped to that port only; a keyed entry's key is filled in
 * from the keys the plan is given. Nothing leaves the machine.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { Clock } from '../../src/clock.js';
import {
  type CatalogFeed,
  downloadUrl,
  feedCatalog,
  loadFeedCatalog,
} from '../../src/intel/feed-catalog.js';
import { feedsToRefresh } from '../../src/intel/feed-refresh-plan.js';
import { refreshFeed } from '../../src/intel/feed-refresher.js';
import { type FeedFormat, parseFeed } from '../../src/intel/feeds/parse-feed.js';
import { createHttpClient, type HttpClient } from '../../src/net/index.js';
import type { FeedRecord } from '../../src/store/ports/intel-store.js';
import type { Store } from '../../src/store/ports/store.js';
import { openSqliteStore } from '../../src/store/sqlite/open-sqlite-store.js';
import { PACKAGE_ROOT } from '../helpers/run-cli.js';
import { type ScriptedServer, startScriptedServer } from '../helpers/scripted-http-server.js';
import { useTempDir } from '../helpers/use-temp-dir.js';

const FEED_HOST = 'feeds.test.example';
const T0 = Date.UTC(2026, 10, 27, 4);
const FIXTURES = join(PACKAGE_ROOT, 'test', 'fixtures', 'feeds');

/** The sample of each format a catalog entry may use (test/fixtures/feeds/SOURCES.md). */
const SAMPLE: Readonly<Record<Exclude<FeedFormat, 'csv'>, string>> = {
  plain: 'plain-hosts.txt',
  'phishtank-csv': 'phishtank-verified-online.csv',
  'phishtank-json': 'phishtank-verified-online.json',
  openphish: 'openphish-feed.txt',
  'urlhaus-csv': 'urlhaus-csv-recent.csv',
  'polkadot-json': 'polkadot-all.json',
  'metamask-json': 'metamask-config.json',
  'scamsniffer-json': 'scamsniffer-domains.json',
  'cryptoscamdb-yaml': 'cryptoscamdb-urls.yaml',
};

const KEYS = { PHISHTANK_APP_KEY: 'pt-app-key-1234', URLHAUS_AUTH_KEY: 'uh+auth/key=5678' };

const tempDir = useTempDir('linkguard-feed-catalog-');

/** The catalog entry named `name` (of `catalog`, default the shipped one). */
function entryNamed(name: string, catalog: readonly CatalogFeed[] = feedCatalog()): CatalogFeed {
  const entry = catalog.find((f) => f.name === name);
  if (entry === undefined) throw new Error(`no catalog entry ${name}`);
  return entry;
}

describe('the catalog file', () => {
  const catalog = feedCatalog();

  it('lists the feeds the issue names, each with a format a parser reads and its terms', () => {
    expect(catalog.map((f) => f.name)).toEqual(
      expect.arrayContaining([
        'openphish',
        'phishtank',
        'urlhaus',
        'polkadot',
        'scamsniffer',
        'metamask',
        'discord-antiscam',
      ]),
    );
    for (const feed of catalog) {
      expect(Object.keys(SAMPLE)).toContain(feed.format);
      expect(feed.terms_url).toMatch(/^https:\/\//);
      expect(feed.refresh_source).not.toBe('');
    }
  });

  it('registers with --all-free only permissive feeds that need no key', () => {
    const free = catalog.filter((f) => f.all_free);
    expect(free.map((f) => f.name)).toEqual(['polkadot', 'metamask', 'scamsniffer']);
    for (const feed of free) expect(feed).toMatchObject({ key: null, commercial_use: 'allowed' });
    // Terms that restrict commercial use, or keys, keep a feed out of the one command.
    expect(catalog.find((f) => f.name === 'openphish')).toMatchObject({
      commercial_use: 'forbidden',
      all_free: false,
    });
    expect(catalog.find((f) => f.name === 'urlhaus')?.key?.env).toBe('URLHAUS_AUTH_KEY');
    expect(catalog.find((f) => f.name === 'phishtank')?.key?.env).toBe('PHISHTANK_APP_KEY');
  });

  it('respects the stated limits: URLhaus no sooner than 5 minutes, PhishTank hourly', () => {
    const interval = (name: string) => catalog.find((f) => f.name === name)?.min_refresh_minutes;
    expect(interval('urlhaus')).toBeGreaterThanOrEqual(5);
    expect(interval('phishtank')).toBeGreaterThanOrEqual(60);
    expect(interval('openphish')).toBeGreaterThanOrEqual(720);
  });

  /** A data directory whose catalog is `feeds` (the first entry of the real one, edited). */
  function catalogWith(edit: (feed: Record<string, unknown>) => unknown[]): string {
    const dir = join(tempDir(), `data-${Math.random().toString(36).slice(2)}`);
    mkdirSync(join(dir, 'feeds'), { recursive: true });
    const first: Record<string, unknown> = { ...entryNamed('polkadot') };
    writeFileSync(
      join(dir, 'feeds', 'catalog.json'),
      JSON.stringify({ _comment: 'test', feeds: edit(first) }),
    );
    return dir;
  }

  it.each([
    ['an unknown format', (f: Record<string, unknown>) => [{ ...f, format: 'rss' }], /format/],
    [
      'a csv feed (it needs columns)',
      (f: Record<string, unknown>) => [{ ...f, format: 'csv' }],
      /format/,
    ],
    ['an unknown field', (f: Record<string, unknown>) => [{ ...f, price: 0 }], /price|propert/i],
    ['a name used twice', (f: Record<string, unknown>) => [f, f], /appears twice/],
    [
      'a key without a {key} in the URL',
      (f: Record<string, unknown>) => [
        {
          ...f,
          all_free: false,
          key: { env: 'URLHAUS_AUTH_KEY', signup_url: 'https://a.example/', notes: '' },
        },
      ],
      /\{key\}/,
    ],
    [
      'an all-free feed whose commercial use is not allowed',
      (f: Record<string, unknown>) => [{ ...f, commercial_use: 'unverified' }],
      /all_free/,
    ],
    [
      'a refresh interval under 5 minutes',
      (f: Record<string, unknown>) => [{ ...f, min_refresh_minutes: 1 }],
      /min_refresh_minutes|minimum|>=/,
    ],
  ])('refuses %s, naming the file', (_what, edit, message) => {
    const dir = catalogWith(edit);
    expect(() => loadFeedCatalog(dir)).toThrow(/data\/feeds\/catalog\.json/);
    expect(() => loadFeedCatalog(dir)).toThrow(message);
  });
});

describe('downloadUrl', () => {
  const urlhaus = entryNamed('urlhaus');

  it('fills in the key, URL-encoded, and names the variable when it is not set', () => {
    expect(downloadUrl(urlhaus, KEYS)).toEqual({
      url: urlhaus.url.replace('{key}', encodeURIComponent(KEYS.URLHAUS_AUTH_KEY)),
    });
    expect(downloadUrl(urlhaus, {})).toEqual({ missing: 'URLHAUS_AUTH_KEY' });
  });
});

/** A store feed record as `feeds add` leaves it (registered, never downloaded). */
function registered(
  feed: Pick<CatalogFeed, 'name' | 'format' | 'url' | 'threat'>,
  id = 1,
): FeedRecord {
  return {
    id,
    name: feed.name,
    format: feed.format,
    url: feed.url,
    threat: feed.threat,
    entryCount: 0,
    importedAt: null,
    checkedAt: null,
    etag: null,
    lastModified: null,
    lastError: null,
  };
}

describe('feedsToRefresh', () => {
  const catalog = feedCatalog();
  const polkadot = entryNamed('polkadot');
  const phishtank = entryNamed('phishtank');

  it('keeps FEEDS items and every stored feed with a URL; files imported by hand are left alone', () => {
    const plan = feedsToRefresh({
      configured: [{ name: 'mine', format: 'plain', url: 'https://lists.example/hosts.txt' }],
      stored: [
        registered(polkadot, 1),
        { ...registered(polkadot, 2), name: 'from-file', url: null },
        { ...registered(polkadot, 3), name: 'old-feeds-item', url: 'https://old.example/all.json' },
      ],
      catalog,
      keys: {},
    });

    expect(plan).toEqual([
      { name: 'mine', format: 'plain', url: 'https://lists.example/hosts.txt', threat: null },
      {
        name: 'polkadot',
        format: 'polkadot-json',
        url: polkadot.url,
        threat: 'crypto_scam',
        intervalMs: polkadot.min_refresh_minutes * 60_000,
      },
      {
        name: 'old-feeds-item',
        format: 'polkadot-json',
        url: 'https://old.example/all.json',
        threat: 'crypto_scam',
      },
    ]);
  });

  it('FEEDS wins over the store for a name both have, and keeps a catalog interval', () => {
    const plan = feedsToRefresh({
      configured: [{ name: 'polkadot', format: 'polkadot-json', url: polkadot.url }],
      stored: [{ ...registered(polkadot), url: 'https://mirror.example/all.json' }],
      catalog,
      keys: {},
    });

    expect(plan).toEqual([
      {
        name: 'polkadot',
        format: 'polkadot-json',
        url: polkadot.url,
        threat: null,
        intervalMs: polkadot.min_refresh_minutes * 60_000,
      },
    ]);
  });

  it('a keyed feed: fetched with the key, stored without it; unavailable without the key', () => {
    const stored = [registered(phishtank)];

    const [withKey] = feedsToRefresh({ configured: [], stored, catalog, keys: KEYS });
    const [withoutKey] = feedsToRefresh({ configured: [], stored, catalog, keys: {} });

    expect(withKey).toMatchObject({
      url: phishtank.url,
      fetchUrl: phishtank.url.replace('{key}', KEYS.PHISHTANK_APP_KEY),
    });
    expect(withKey?.unavailable).toBeUndefined();
    expect(withoutKey).toMatchObject({
      url: phishtank.url,
      unavailable: 'needs PHISHTANK_APP_KEY in the environment of serve',
    });
    expect(withoutKey?.fetchUrl).toBeUndefined();
  });

  it('a stored keyed URL its catalog entry no longer has asks for feeds add again', () => {
    const [feed] = feedsToRefresh({
      configured: [],
      stored: [{ ...registered(phishtank), url: 'http://old.example/{key}/feed.csv' }],
      catalog,
      keys: KEYS,
    });

    expect(feed?.unavailable).toContain('feeds add phishtank');
  });
});

describe('every catalog feed, downloaded from a loopback copy', () => {
  let server: ScriptedServer;
  let http: HttpClient;
  let store: Store;
  const clock: Clock = { now: () => T0 };
  let origin = '';

  beforeEach(async () => {
    server = await startScriptedServer((request) => {
      const entry = feedCatalog().find((f) => {
        const source = downloadUrl(f, KEYS);
        if (!('url' in source)) throw new Error(`KEYS lacks ${source.missing}`);
        const real = new URL(source.url.replace(/^[a-z]+:\/\/[^/]+/, origin));
        return real.pathname === request.path && real.search.slice(1) === request.query;
      });
      if (entry === undefined) return { status: 404, body: 'not here' };
      const body = readFileSync(join(FIXTURES, SAMPLE[entry.format]), 'utf8');
      return { status: 200, headers: { etag: `"${entry.name}-v1"` }, body };
    });
    origin = `http://${FEED_HOST}:${server.port}`;
    http = createHttpClient({
      userAgent: 'linkguard-test/1 (+feed-catalog)',
      resolveOverrides: [{ host: FEED_HOST, port: server.port, address: '127.0.0.1' }],
    });
    store = openSqliteStore(join(tempDir(), `catalog-${server.port}.db`));
  });

  afterEach(async () => {
    await store.close();
    await http.close();
    await server.close();
  });

  /** The catalog with every URL moved to the loopback server, path and query kept. */
  const loopbackCatalog = (): CatalogFeed[] =>
    feedCatalog().map((f) => ({ ...f, url: f.url.replace(/^[a-z]+:\/\/[^/]+/, origin) }));

  it.each(feedCatalog().map((f) => [f.name, f.format] as const))(
    '%s (%s): registered as feeds add does, then refreshed as serve does',
    async (name, format) => {
      const catalog = loopbackCatalog();
      const entry = entryNamed(name, catalog);
      await store.intel.upsertFeed({
        name: entry.name,
        format: entry.format,
        url: entry.url,
        threat: entry.threat,
      });
      const plan = feedsToRefresh({
        configured: [],
        stored: await store.intel.listFeeds(),
        catalog,
        keys: KEYS,
      });
      expect(plan).toHaveLength(1);
      const [feed] = plan;
      if (feed === undefined) throw new Error('no plan');

      const outcome = await refreshFeed({ http, store: store.intel, clock }, feed);

      const text = readFileSync(join(FIXTURES, SAMPLE[format]), 'utf8');
      const expected = parseFeed(format, text);
      expect(expected.entries.length).toBeGreaterThan(0);
      expect(outcome).toEqual({
        status: 'updated',
        entries: expected.entries.length,
        skipped: expected.skipped,
      });
      const [record] = await store.intel.listFeeds();
      expect(record).toMatchObject({
        name,
        format,
        url: entry.url,
        threat: entry.threat ?? null,
        entryCount: expected.entries.length,
        etag: `"${name}-v1"`,
        lastError: null,
      });
      // A keyed feed was asked with its key, and the key is nowhere in the store.
      expect(server.requests).toHaveLength(1);
      if (entry.key !== null) {
        expect(server.requests[0]?.url).toContain(encodeURIComponent(KEYS[entry.key.env]));
        expect(JSON.stringify(record)).not.toContain(KEYS[entry.key.env]);
      }
    },
  );
});
