/**
 * Serves the page corpus (test/fixtures/pages/) from a real loopback HTTP server under the
 * fixtures' realistic host names: the service reaches them through `NET_RESOLVE` overrides
 * (`host:port:127.0.0.1`), exactly as it would reach the real sites, only the address differs.
 * Requests are routed by `Host` and path (query strings ignored, like a static site); anything
 * else is 404. Redirect fixtures answer with their status and a `Location` rewritten to this
 * server. A few extra hosts misbehave on purpose, for the "page not analysed" cases.
 */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

import { PAGE_FIXTURES, type PageFixture, PAGES_DIR } from './page-fixtures.js';

/** Hosts that misbehave (names only ever resolved through the overrides). */
export const MISBEHAVING_HOSTS = {
  /** Accepts the request and never answers. */
  hang: 'hang.linkguard-test.net',
  /** Answers a page larger than the 2 MiB cap. */
  huge: 'huge.linkguard-test.net',
  /** Answers JSON, not a page. */
  json: 'json.linkguard-test.net',
  /** Redirects to itself forever. */
  loop: 'loop.linkguard-test.net',
  /** A plain page that links to nothing (safe baseline for latency). */
  plain: 'plain.linkguard-test.net',
} as const;

export interface PageFixtureServer {
  port: number;
  /** `host:port:127.0.0.1` for every fixture and misbehaving host (the `NET_RESOLVE` value). */
  netResolve: string;
  /** The same overrides as objects (for `createHttpClient`). */
  overrides: { host: string; port: number; address: string }[];
  /** `http://<host>:<port><path>`: the fixture's URL on this server. */
  url(fixture: PageFixture): string;
  /** Requests served so far, by `host + path` (tests check what was fetched). */
  requests: string[];
  close(): Promise<void>;
}

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  html: 'text/html; charset=utf-8',
  js: 'application/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  json: 'application/json',
};

/**
 * Start the server.
 *
 * @param options.delayMs wait this long before answering each request (latency benches).
 */
export async function servePageFixtures(
  options: { delayMs?: number } = {},
): Promise<PageFixtureServer> {
  const requests: string[] = [];
  const sockets = new Set<import('node:net').Socket>();
  let port = 0;
  const byHost = new Map<string, PageFixture[]>();
  for (const fixture of PAGE_FIXTURES) {
    byHost.set(fixture.host, [...(byHost.get(fixture.host) ?? []), fixture]);
  }
  const rewrite = (location: string): string =>
    location.replace(/^https?:\/\/([^/:]+)/, (_m, host: string) => `http://${host}:${port}`);

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const host = (req.headers.host ?? '').replace(/:\d+$/, '').toLowerCase();
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    requests.push(host + path);
    if (host === MISBEHAVING_HOSTS.hang) return; // never answers; the client's budget ends it
    if (host === MISBEHAVING_HOSTS.huge) {
      res.writeHead(200, { 'content-type': CONTENT_TYPES.html });
      res.end(`<html><body>${'x'.repeat(3 * 1024 * 1024)}</body></html>`);
      return;
    }
    if (host === MISBEHAVING_HOSTS.json) {
      res.writeHead(200, { 'content-type': CONTENT_TYPES.json });
      res.end('{"ok":true}');
      return;
    }
    if (host === MISBEHAVING_HOSTS.loop) {
      res.writeHead(302, { location: `http://${host}:${port}${path}x` });
      res.end();
      return;
    }
    if (host === MISBEHAVING_HOSTS.plain) {
      res.writeHead(200, { 'content-type': CONTENT_TYPES.html });
      res.end('<!doctype html><html lang="en"><title>Notes</title><p>Nothing to see.</p></html>');
      return;
    }
    for (const fixture of byHost.get(host) ?? []) {
      if (fixture.path.split('?')[0] === path) {
        if (fixture.redirect !== undefined) {
          res.writeHead(fixture.redirect.status, { location: rewrite(fixture.redirect.location) });
          res.end('<html><body><h1>302 Found</h1></body></html>');
          return;
        }
        res.writeHead(200, { 'content-type': CONTENT_TYPES.html });
        res.end(readFileSync(join(PAGES_DIR, fixture.file)));
        return;
      }
      const asset = fixture.assets?.find((a) => a.path === path);
      if (asset !== undefined) {
        const ext = asset.path.split('.').pop() ?? '';
        res.writeHead(200, { 'content-type': CONTENT_TYPES[ext] ?? 'application/octet-stream' });
        res.end(readFileSync(join(PAGES_DIR, asset.file)));
        return;
      }
    }
    res.writeHead(404, { 'content-type': CONTENT_TYPES.html });
    res.end('<html><body>Not found</body></html>');
  };

  const server = createServer((req, res) => {
    const delay = options.delayMs ?? 0;
    if (delay > 0) setTimeout(() => handle(req, res), delay);
    else handle(req, res);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  const hosts = [...new Set([...byHost.keys(), ...Object.values(MISBEHAVING_HOSTS)])];
  const overrides = hosts.map((host) => ({ host, port, address: '127.0.0.1' }));
  return {
    port,
    netResolve: overrides.map((o) => `${o.host}:${o.port}:${o.address}`).join(','),
    overrides,
    url: (fixture) => `http://${fixture.host}:${port}${fixture.path}`,
    requests,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
