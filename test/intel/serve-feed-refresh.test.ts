/**
 * `serve`'s feed refresh as `startServer()` wires it, on a real SQLite store: a feed registered
 * in the store with a URL (as `linkguard feeds add` leaves it) is downloaded without being named
 * in `FEEDS`, a file feed is left alone, and a keyed catalog feed without its key is recorded as
 * unavailable with no request. The feed host is a loopback server reached through NET_RESOLVE;
 * RDAP and page analysis are off, and the server never listens: nothing leaves the machine.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterEach, expect, it } from 'vitest';

import { loadConfig } from '../../src/config/config.js';
import { feedCatalog } from '../../src/intel/feed-catalog.js';
import { createLogger } from '../../src/observability/logger.js';
import { type ServerProcess, startServer } from '../../src/server/start-server.js';
import type { FeedRecord } from '../../src/store/ports/intel-store.js';
import { openSqliteStore } from '../../src/store/sqlite/open-sqlite-store.js';
import { PACKAGE_ROOT } from '../helpers/run-cli.js';
import { type ScriptedServer, startScriptedServer } from '../helpers/scripted-http-server.js';
import { useTempDir } from '../helpers/use-temp-dir.js';

const FEED_HOST = 'feeds.test.example';
const POLKADOT = readFileSync(
  join(PACKAGE_ROOT, 'test', 'fixtures', 'feeds', 'polkadot-all.json'),
  'utf8',
);

const tempDir = useTempDir('linkguard-serve-feeds-');
let feedServer: ScriptedServer | undefined;
let serving: ServerProcess | undefined;

afterEach(async () => {
  await serving?.close();
  await feedServer?.close();
});

it('serve downloads a feed registered in the store, leaves file feeds, records a missing key', async () => {
  const server = await startScriptedServer(() => ({
    status: 200,
    headers: { 'content-type': 'application/json', etag: '"v1"' },
    body: POLKADOT,
  }));
  feedServer = server;
  const path = join(tempDir(), 'serve.db');
  const url = `http://${FEED_HOST}:${server.port}/phishing/all.json`;
  const phishtank = feedCatalog().find((f) => f.name === 'phishtank');
  if (phishtank === undefined) throw new Error('no phishtank in the catalog');

  const setup = openSqliteStore(path);
  await setup.intel.upsertFeed({ name: 'registered', format: 'polkadot-json', url, threat: null });
  await setup.intel.upsertFeed({ name: 'from-file', format: 'plain', url: null, threat: null });
  await setup.intel.upsertFeed({
    name: 'phishtank',
    format: phishtank.format,
    url: phishtank.url,
    threat: phishtank.threat,
  });
  await setup.close();

  const config = loadConfig({
    DATABASE_URL: `sqlite:${path}`,
    HOST: '127.0.0.1',
    PORT: '0',
    NET_RESOLVE: `${FEED_HOST}:${server.port}:127.0.0.1`,
    RDAP_ENABLED: 'false',
    PAGE_ANALYSIS: 'off',
  });
  serving = await startServer(config, createLogger('silent'));

  const reader = openSqliteStore(path);
  const feeds = async (): Promise<Map<string, FeedRecord>> =>
    new Map((await reader.intel.listFeeds()).map((f) => [f.name, f]));
  try {
    const deadline = performance.now() + 20_000;
    while (performance.now() < deadline) {
      const now = await feeds();
      if (now.get('registered')?.entryCount && now.get('phishtank')?.checkedAt) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const now = await feeds();
    expect(now.get('registered')).toMatchObject({
      url,
      entryCount: 14,
      etag: '"v1"',
      lastError: null,
    });
    expect(now.get('from-file')).toMatchObject({ url: null, checkedAt: null, entryCount: 0 });
    expect(now.get('phishtank')).toMatchObject({
      url: phishtank.url,
      entryCount: 0,
      lastError: 'needs PHISHTANK_APP_KEY in the environment of serve',
    });
    // One request: the registered feed's; the keyed feed without its key asked nothing.
    expect(server.requests.map((r) => r.path)).toEqual(['/phishing/all.json']);
  } finally {
    await reader.close();
  }
});
