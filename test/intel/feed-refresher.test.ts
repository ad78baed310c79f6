/**
 * The feed refresher against a loopback feed server (node:http on 127.0.0.1) reached through the
 * real SSRF-safe client, with `feeds.test.example` mapped to that server's port only, and a real
 * SQLite store in a temp directory. The server answers conditional GETs the way a static file
 * server does (304 when `If-None-Match` names its current ETag). Time is an injected clock; the
 * schedule's timer is a fake `setTimeout`, so no test waits for a tick in wall time.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import type { Clock } from '../../src/clock.js';
import {
  type ConfiguredFeed,
  refreshFeed,
  type RefreshOutcome,
  scheduleFeedRefresh,
} from '../../src/intel/feed-refresher.js';
import { createHttpClient, type HttpClient } from '../../src/net/index.js';
import type { FeedRecord } from '../../src/store/ports/intel-store.js';
import type { Store } from '../../src/store/ports/store.js';
import { openSqliteStore } from '../../src/store/sqlite/open-sqlite-store.js';
import { PACKAGE_ROOT } from '../helpers/run-cli.js';
import {
  type ScriptedRequest,
  type ScriptedResponse,
  type ScriptedServer,
  startScriptedServer,
} from '../helpers/scripted-http-server.js';
import { useTempDir } from '../helpers/use-temp-dir.js';

const FEED_HOST = 'feeds.test.example';
const USER_AGENT = 'linkguard-test/1 (+feed-refresher)';
const T0 = Date.UTC(2026, 10, 20, 12);
const HOUR = 60 * 60 * 1000;

/**
 * polkadot-js all.json cut (test/fixtures/feeds/SOURCES.md): 5 allow hosts and 9 distinct deny
 * hosts (two trailing-dot duplicates merged) are 14 entries; the items 42, "" and "bad host!.com"
 * are 3 skipped.
 */
const POLKADOT = readFileSync(
  join(PACKAGE_ROOT, 'test', 'fixtures', 'feeds', 'polkadot-all.json'),
  'utf8',
);
const POLKADOT_ENTRIES = 14;
const POLKADOT_SKIPPED = 3;

/** The next publication of the list: one allow and two deny hosts. */
const POLKADOT_NEXT = JSON.stringify({
  allow: ['*.fleek.co'],
  deny: ['0xarb.xyz', 'new-drainer.example'],
});

interface FeedState {
  status: number;
  body: string;
  contentType: string;
  etag: string;
  lastModified: string;
  /** When set, the feed URL answers 302 to this location. */
  redirectTo: string | null;
}

const V1: FeedState = {
  status: 200,
  body: POLKADOT,
  contentType: 'application/json',
  etag: '"all-v1"',
  lastModified: 'Wed, 18 Nov 2026 06:00:00 GMT',
  redirectTo: null,
};
const V2: FeedState = {
  ...V1,
  body: POLKADOT_NEXT,
  etag: '"all-v2"',
  lastModified: 'Fri, 20 Nov 2026 06:00:00 GMT',
};

/** A static file server: 304 when the client already has the current ETag. */
function answer(state: FeedState, request: ScriptedRequest): ScriptedResponse {
  if (state.redirectTo !== null) {
    return { status: 302, headers: { location: state.redirectTo }, body: '' };
  }
  if (state.status !== 200) {
    return { status: state.status, headers: { 'content-type': 'text/plain' }, body: 'trouble' };
  }
  const validators = { etag: state.etag, 'last-modified': state.lastModified };
  if (request.headers['if-none-match'] === state.etag) return { status: 304, headers: validators };
  return {
    status: 200,
    headers: { 'content-type': state.contentType, ...validators },
    body: state.body,
  };
}

const tempDir = useTempDir('linkguard-feed-refresher-');
let databases = 0;

let state: FeedState;
let server: ScriptedServer;
let http: HttpClient;
let store: Store;
let now: number;
const clock: Clock = { now: () => now };

beforeEach(async () => {
  state = { ...V1 };
  now = T0;
  server = await startScriptedServer((request) => answer(state, request));
  http = createHttpClient({
    userAgent: USER_AGENT,
    resolveOverrides: [{ host: FEED_HOST, port: server.port, address: '127.0.0.1' }],
  });
  databases++;
  store = openSqliteStore(join(tempDir(), `feeds-${databases}.db`));
});

afterEach(async () => {
  await store.close();
  await http.close();
  await server.close();
});

function feedAt(path: string, name = 'polkadot'): ConfiguredFeed {
  return {
    name,
    format: 'polkadot-json',
    url: `http://${FEED_HOST}:${server.port}${path}`,
    threat: null,
  };
}

const deps = () => ({ http, store: store.intel, clock });

async function feedRecord(name = 'polkadot'): Promise<FeedRecord> {
  const record = (await store.intel.listFeeds()).find((f) => f.name === name);
  if (record === undefined) throw new Error(`no feed ${name} in the store`);
  return record;
}

/** Every stored entry as `list:value`, sorted. */
async function storedEntries(): Promise<string[]> {
  const rows = await store.intel.readEntries(0, 10_000);
  return rows.map((row) => `${row.entry.list}:${row.entry.value}`).sort();
}

/** The store after a first successful refresh at T0, and its feed version. */
async function refreshedOnce(
  feed: ConfiguredFeed,
): Promise<{ version: number; entries: string[] }> {
  expect(await refreshFeed(deps(), feed)).toMatchObject({ status: 'updated' });
  return { version: await store.intel.feedsVersion(), entries: await storedEntries() };
}

describe('refreshFeed', () => {
  it('imports the feed on the first download and stores its ETag and Last-Modified', async () => {
    const before = await store.intel.feedsVersion();
    const feed = feedAt('/polkadot/all.json');

    const outcome = await refreshFeed(deps(), feed);

    expect(outcome).toEqual({
      status: 'updated',
      entries: POLKADOT_ENTRIES,
      skipped: POLKADOT_SKIPPED,
    });
    expect(await feedRecord()).toMatchObject({
      name: 'polkadot',
      format: 'polkadot-json',
      url: feed.url,
      threat: 'crypto_scam',
      entryCount: POLKADOT_ENTRIES,
      importedAt: T0,
      checkedAt: T0,
      etag: V1.etag,
      lastModified: V1.lastModified,
      lastError: null,
    });
    const entries = await storedEntries();
    expect(entries).toHaveLength(POLKADOT_ENTRIES);
    expect(entries).toEqual(expect.arrayContaining(['allow:fleek.co', 'deny:0xarb.xyz']));
    expect(await store.intel.feedsVersion()).toBeGreaterThan(before);

    expect(server.requests).toHaveLength(1);
    const [request] = server.requests;
    expect(request?.path).toBe('/polkadot/all.json');
    expect(request?.headers['user-agent']).toBe(USER_AGENT);
    expect(request?.headers['if-none-match']).toBeUndefined();
    expect(request?.headers['if-modified-since']).toBeUndefined();
  });

  it('sends the validators back; a 304 keeps entries and version and only moves checkedAt', async () => {
    const feed = feedAt('/polkadot/all.json');
    const first = await refreshedOnce(feed);
    now = T0 + HOUR;

    expect(await refreshFeed(deps(), feed)).toEqual({ status: 'not_modified' });

    const conditional = server.requests[1];
    expect(conditional?.headers['if-none-match']).toBe(V1.etag);
    expect(conditional?.headers['if-modified-since']).toBe(V1.lastModified);
    expect(await feedRecord()).toMatchObject({
      entryCount: POLKADOT_ENTRIES,
      importedAt: T0,
      checkedAt: T0 + HOUR,
      etag: V1.etag,
      lastModified: V1.lastModified,
      lastError: null,
    });
    expect(await storedEntries()).toEqual(first.entries);
    expect(await store.intel.feedsVersion()).toBe(first.version);
  });

  it('replaces the entries when the feed changed (new ETag) and moves the version', async () => {
    const feed = feedAt('/polkadot/all.json');
    const first = await refreshedOnce(feed);
    state = { ...V2 };
    now = T0 + HOUR;

    expect(await refreshFeed(deps(), feed)).toEqual({ status: 'updated', entries: 3, skipped: 0 });

    // Asked conditionally with the old ETag; the server had a new one and sent the whole file.
    expect(server.requests[1]?.headers['if-none-match']).toBe(V1.etag);
    expect(await storedEntries()).toEqual([
      'allow:fleek.co',
      'deny:0xarb.xyz',
      'deny:new-drainer.example',
    ]);
    expect(await feedRecord()).toMatchObject({
      entryCount: 3,
      importedAt: T0 + HOUR,
      checkedAt: T0 + HOUR,
      etag: V2.etag,
      lastModified: V2.lastModified,
      lastError: null,
    });
    expect(await store.intel.feedsVersion()).toBeGreaterThan(first.version);
  });

  it('on HTTP 500 fails, keeps entries, validators and version, and records the error', async () => {
    const feed = feedAt('/polkadot/all.json');
    const first = await refreshedOnce(feed);
    state = { ...V1, status: 500 };
    now = T0 + HOUR;

    const outcome = await refreshFeed(deps(), feed);

    expect(outcome).toEqual({ status: 'failed', error: expect.stringContaining('500') as string });
    expect(await feedRecord()).toMatchObject({
      entryCount: POLKADOT_ENTRIES,
      importedAt: T0,
      checkedAt: T0 + HOUR,
      etag: V1.etag,
      lastError: outcome.status === 'failed' ? outcome.error : 'not failed',
    });
    expect(await storedEntries()).toEqual(first.entries);
    expect(await store.intel.feedsVersion()).toBe(first.version);

    // The server recovers with the same file: the 304 clears the recorded error.
    state = { ...V1 };
    now = T0 + 2 * HOUR;
    expect(await refreshFeed(deps(), feed)).toEqual({ status: 'not_modified' });
    expect(await feedRecord()).toMatchObject({ checkedAt: T0 + 2 * HOUR, lastError: null });
  });

  it('fails on a body that is not the feed format (an HTML page) and keeps the entries', async () => {
    const feed = feedAt('/polkadot/all.json');
    const first = await refreshedOnce(feed);
    state = {
      ...V1,
      body: '<!doctype html><html><body><h1>Down for maintenance</h1></body></html>',
      contentType: 'text/html',
      etag: '"maintenance"',
    };
    now = T0 + HOUR;

    const outcome = await refreshFeed(deps(), feed);

    expect(outcome).toEqual({
      status: 'failed',
      error: expect.stringContaining('polkadot-json') as string,
    });
    expect(await feedRecord()).toMatchObject({
      entryCount: POLKADOT_ENTRIES,
      importedAt: T0,
      checkedAt: T0 + HOUR,
      // The page's ETag is not kept: the next refresh must ask for the feed again.
      etag: V1.etag,
      lastError: outcome.status === 'failed' ? outcome.error : 'not failed',
    });
    expect(await storedEntries()).toEqual(first.entries);
    expect(await store.intel.feedsVersion()).toBe(first.version);
  });

  it.each([
    [
      'loopback, on a port the override does not name',
      (port: number) => `http://127.0.0.1:${port}/private`,
    ],
    ['the cloud metadata address', () => 'http://169.254.169.254/latest/meta-data/'],
  ])(
    'refuses a redirect to %s (blocked_address) and keeps the entries',
    async (_what, location) => {
      const feed = feedAt('/polkadot/all.json');
      const first = await refreshedOnce(feed);
      state = { ...V1, redirectTo: location(server.port) };
      now = T0 + HOUR;

      const outcome = await refreshFeed(deps(), feed);

      expect(outcome).toEqual({
        status: 'failed',
        error: expect.stringContaining('blocked_address') as string,
      });
      // Only the redirecting feed URL was asked; the redirect's target never was.
      expect(server.requests.map((r) => r.path)).toEqual([
        '/polkadot/all.json',
        '/polkadot/all.json',
      ]);
      expect(await feedRecord()).toMatchObject({
        entryCount: POLKADOT_ENTRIES,
        importedAt: T0,
        checkedAt: T0 + HOUR,
        lastError: outcome.status === 'failed' ? outcome.error : 'not failed',
      });
      expect(await storedEntries()).toEqual(first.entries);
      expect(await store.intel.feedsVersion()).toBe(first.version);
    },
  );

  it('records a failed first download on a new feed, with no entries', async () => {
    state = { ...V1, status: 503 };

    const outcome = await refreshFeed(deps(), feedAt('/polkadot/all.json'));

    expect(outcome).toEqual({ status: 'failed', error: expect.stringContaining('503') as string });
    expect(await feedRecord()).toMatchObject({
      entryCount: 0,
      importedAt: null,
      checkedAt: T0,
      etag: null,
      lastError: outcome.status === 'failed' ? outcome.error : 'not failed',
    });
    expect(await storedEntries()).toEqual([]);
  });

  it('downloads a keyed feed from its fetch URL and stores only the URL without the key', async () => {
    const feed = {
      ...feedAt('/data/{key}/all.json'),
      fetchUrl: `http://${FEED_HOST}:${server.port}/data/s3cr3t-key/all.json`,
    };

    expect(await refreshFeed(deps(), feed)).toMatchObject({ status: 'updated' });

    expect(server.requests.map((r) => r.path)).toEqual(['/data/s3cr3t-key/all.json']);
    const record = await feedRecord();
    expect(record.url).toBe(feed.url);
    expect(JSON.stringify(record)).not.toContain('s3cr3t-key');
  });

  it('records why a feed is unavailable (a key not set) without any request', async () => {
    const feed = { ...feedAt('/data/{key}/all.json'), unavailable: 'needs PHISHTANK_APP_KEY' };

    expect(await refreshFeed(deps(), feed)).toEqual({
      status: 'failed',
      error: 'needs PHISHTANK_APP_KEY',
    });

    expect(server.requests).toHaveLength(0);
    expect(await feedRecord()).toMatchObject({
      url: feed.url,
      entryCount: 0,
      checkedAt: T0,
      lastError: 'needs PHISHTANK_APP_KEY',
    });
  });

  it('downloads unconditionally when the configured URL changed', async () => {
    await refreshedOnce(feedAt('/polkadot/all.json'));
    now = T0 + HOUR;

    const moved = feedAt('/mirror/all.json');
    expect(await refreshFeed(deps(), moved)).toMatchObject({ status: 'updated' });

    const request = server.requests[1];
    expect(request?.path).toBe('/mirror/all.json');
    expect(request?.headers['if-none-match']).toBeUndefined();
    expect(request?.headers['if-modified-since']).toBeUndefined();
    expect(await feedRecord()).toMatchObject({ url: moved.url, importedAt: T0 + HOUR });
  });
});

describe('scheduleFeedRefresh', () => {
  // Only the schedule's own timer is faked: sockets, the server and AbortSignal.timeout keep
  // Node's internal timers.
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** Outcomes as they are reported, and a promise for the n-th one. */
  function outcomeLog() {
    const seen: [string, RefreshOutcome][] = [];
    const waiting = new Map<number, () => void>();
    return {
      seen,
      record: (feed: ConfiguredFeed, outcome: RefreshOutcome) => {
        seen.push([feed.name, outcome]);
        waiting.get(seen.length)?.();
      },
      nth: (n: number) =>
        seen.length >= n
          ? Promise.resolve()
          : new Promise<void>((resolve) => {
              waiting.set(n, resolve);
            }),
    };
  }

  const MINUTE = 60 * 1000;

  /**
   * Wait until `condition` holds, yielding to I/O (setImmediate is not faked) for at most 5 s of
   * wall time, then let the round finish its microtasks: a tick that downloads nothing reports no
   * outcome to wait for, only its call to `feeds()`.
   */
  async function until(condition: () => boolean): Promise<void> {
    const deadline = performance.now() + 5000;
    while (!condition() && performance.now() < deadline) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(condition()).toBe(true);
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
  }

  /** Fire the next tick and wait until its round has read the feeds (call number `n`). */
  async function tick(feeds: { mock: { calls: unknown[] } }, n: number): Promise<void> {
    vi.advanceTimersByTime(MINUTE);
    await until(() => feeds.mock.calls.length === n);
  }

  it('downloads at once, again only once the interval has passed, and never after stop()', async () => {
    const log = outcomeLog();
    const feeds = vi.fn(() => Promise.resolve([feedAt('/polkadot/all.json')]));

    const stop = scheduleFeedRefresh(
      deps(),
      feeds,
      { intervalMs: HOUR, tickMs: MINUTE },
      log.record,
    );
    await log.nth(1);
    expect(log.seen).toEqual([
      ['polkadot', { status: 'updated', entries: POLKADOT_ENTRIES, skipped: POLKADOT_SKIPPED }],
    ]);

    // Ticks within the hour read the feeds and download nothing.
    now = T0 + 30 * MINUTE;
    await tick(feeds, 2);
    now = T0 + HOUR - 1;
    await tick(feeds, 3);
    expect(feeds).toHaveBeenCalledTimes(3);
    expect(server.requests).toHaveLength(1);

    now = T0 + HOUR;
    vi.advanceTimersByTime(MINUTE);
    await log.nth(2);
    expect(log.seen[1]).toEqual(['polkadot', { status: 'not_modified' }]);
    expect(server.requests[1]?.headers['if-none-match']).toBe(V1.etag);

    stop();
    now = T0 + 10 * HOUR;
    vi.advanceTimersByTime(10 * HOUR);
    expect(feeds).toHaveBeenCalledTimes(4);
    expect(log.seen).toHaveLength(2);
    expect(server.requests).toHaveLength(2);
  });

  it('counts from the last attempt in the store: a restart does not download again early', async () => {
    await refreshedOnce(feedAt('/polkadot/all.json'));
    now = T0 + 10 * MINUTE;
    const log = outcomeLog();
    const feeds = vi.fn(() => Promise.resolve([feedAt('/polkadot/all.json')]));
    // The round reads the store once to see what is due; a refresh would read it again at once.
    const listFeeds = vi.spyOn(store.intel, 'listFeeds');

    const stop = scheduleFeedRefresh(
      deps(),
      feeds,
      { intervalMs: HOUR, tickMs: MINUTE },
      log.record,
    );
    await until(() => feeds.mock.calls.length === 1);
    stop();

    expect(listFeeds).toHaveBeenCalledTimes(1);
    expect(feeds).toHaveBeenCalledTimes(1);
    expect(log.seen).toEqual([]);
    expect(server.requests).toHaveLength(1);
  });

  it("waits a feed's own interval when it is longer than the schedule's", async () => {
    const log = outcomeLog();
    const feed = { ...feedAt('/polkadot/all.json'), intervalMs: 6 * HOUR };
    const feeds = vi.fn(() => Promise.resolve([feed]));

    const stop = scheduleFeedRefresh(
      deps(),
      feeds,
      { intervalMs: HOUR, tickMs: MINUTE },
      log.record,
    );
    await log.nth(1);
    now = T0 + 2 * HOUR;
    await tick(feeds, 2);
    expect(server.requests).toHaveLength(1);

    now = T0 + 6 * HOUR;
    vi.advanceTimersByTime(MINUTE);
    await log.nth(2);
    stop();
    expect(log.seen.map(([, outcome]) => outcome.status)).toEqual(['updated', 'not_modified']);
  });

  it('picks up a feed registered while it runs at the next tick', async () => {
    const log = outcomeLog();
    let registered: ConfiguredFeed[] = [];
    const feeds = vi.fn(() => Promise.resolve(registered));

    const stop = scheduleFeedRefresh(
      deps(),
      feeds,
      { intervalMs: HOUR, tickMs: MINUTE },
      log.record,
    );
    await until(() => feeds.mock.calls.length === 1);
    expect(server.requests).toHaveLength(0);

    registered = [feedAt('/polkadot/all.json')];
    vi.advanceTimersByTime(MINUTE);
    await log.nth(1);
    stop();
    expect(log.seen).toEqual([
      ['polkadot', { status: 'updated', entries: POLKADOT_ENTRIES, skipped: POLKADOT_SKIPPED }],
    ]);
  });

  it('a tick that cannot list the feeds reports it and the schedule goes on', async () => {
    const log = outcomeLog();
    const errors: unknown[] = [];
    let fail = true;

    const stop = scheduleFeedRefresh(
      deps(),
      () =>
        fail
          ? Promise.reject(new Error('store unreachable'))
          : Promise.resolve([feedAt('/a.json')]),
      { intervalMs: HOUR, tickMs: MINUTE, onError: (error) => errors.push(error) },
      log.record,
    );
    await until(() => errors.length === 1);
    expect(errors).toEqual([new Error('store unreachable')]);

    fail = false;
    vi.advanceTimersByTime(MINUTE);
    await log.nth(1);
    stop();
    expect(log.seen.map(([name]) => name)).toEqual(['polkadot']);
  });

  it('stopped during a round, finishes the feed in hand and skips the rest', async () => {
    const log = outcomeLog();
    const feeds = [feedAt('/a/all.json', 'feed-a'), feedAt('/b/all.json', 'feed-b')];
    const listFeeds = vi.spyOn(store.intel, 'listFeeds');
    let callsAtStop = -1;

    const stop = scheduleFeedRefresh(
      deps(),
      () => Promise.resolve(feeds),
      { intervalMs: HOUR, tickMs: MINUTE },
      (feed, outcome) => {
        log.record(feed, outcome);
        // The second round is stopped as soon as its first feed is done.
        if (log.seen.length === 3) {
          stop();
          callsAtStop = listFeeds.mock.calls.length;
        }
      },
    );
    await log.nth(2);
    expect(log.seen.map(([name]) => name)).toEqual(['feed-a', 'feed-b']);

    now = T0 + HOUR;
    vi.advanceTimersByTime(MINUTE);
    await log.nth(3);
    // feed-b's refresh would have read the store right after stop() returned.
    expect(listFeeds.mock.calls).toHaveLength(callsAtStop);
    vi.advanceTimersByTime(10 * HOUR);
    expect(listFeeds.mock.calls).toHaveLength(callsAtStop);

    expect(log.seen).toEqual([
      ['feed-a', { status: 'updated', entries: POLKADOT_ENTRIES, skipped: POLKADOT_SKIPPED }],
      ['feed-b', { status: 'updated', entries: POLKADOT_ENTRIES, skipped: POLKADOT_SKIPPED }],
      ['feed-a', { status: 'not_modified' }],
    ]);
    expect(server.requests.map((r) => r.path)).toEqual([
      '/a/all.json',
      '/b/all.json',
      '/a/all.json',
    ]);
  });
});
