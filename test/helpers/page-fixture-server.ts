/**
 * The page corpus (test/fixtures/pages/) served from a real loopback server under the fixtures'
 * realistic host names (`servePageCorpus`), plus a few hosts that misbehave on purpose for the
 * "page not analysed" cases. The service reaches them through `NET_RESOLVE` overrides, exactly as
 * it would reach the real sites; only the address differs.
 */
import type { ServerResponse } from 'node:http';

import { type PageCorpusServer, servePageCorpus } from '../../src/evaluation/page-corpus.js';
import { PAGE_CORPUS } from './page-fixtures.js';

/** Hosts that misbehave (names only ever resolved through the overrides). */
export const MISBEHAVING_HOSTS = {
  /** Accepts the request and never answers. */
  hang: 'hang.linkguard-test.net',
  /** Answers a page larger than the 2 MiB cap. */
  huge: 'huge.linkguard-test.net',
  /** Answers JSON, not a page. */
  json: 'json.linkguard-test.net',
  /** Redirects to a new path of itself forever. */
  loop: 'loop.linkguard-test.net',
  /** A plain page (a neutral baseline). */
  plain: 'plain.linkguard-test.net',
} as const;

export interface PageFixtureServer extends PageCorpusServer {
  /** `host:port:127.0.0.1,…` for every host: the `NET_RESOLVE` value. */
  netResolve: string;
}

function misbehave(host: string, path: string, res: ServerResponse, port: number): boolean {
  switch (host) {
    case MISBEHAVING_HOSTS.hang:
      return true; // never answers; the client's budget ends the request
    case MISBEHAVING_HOSTS.huge:
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<html><body>${'x'.repeat(3 * 1024 * 1024)}</body></html>`);
      return true;
    case MISBEHAVING_HOSTS.json:
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"ok":true}');
      return true;
    case MISBEHAVING_HOSTS.loop:
      res.writeHead(302, { location: `http://${host}:${port}${path}x` });
      res.end();
      return true;
    case MISBEHAVING_HOSTS.plain:
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><html lang="en"><title>Notes</title><p>Nothing to see.</p></html>');
      return true;
    default:
      return false;
  }
}

/** Start the server (close it in `afterAll`). */
export async function servePageFixtures(
  options: { delayMs?: number } = {},
): Promise<PageFixtureServer> {
  const server = await servePageCorpus(PAGE_CORPUS, {
    ...options,
    extra: misbehave,
    extraHosts: Object.values(MISBEHAVING_HOSTS),
  });
  return {
    ...server,
    netResolve: server.overrides.map((o) => `${o.host}:${o.port}:${o.address}`).join(','),
  };
}
