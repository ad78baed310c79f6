/**
 * @module evaluation/page-corpus
 * A labelled corpus of web pages for the page-level eval (`linkguard eval --pages`): a
 * `manifest.json` listing each page's realistic host and path, its HTML file, same-host assets
 * and redirects, and the expected verdict, threat types and signals. The repository's corpus is
 * test/fixtures/pages/ (its SOURCES.md says where each page comes from).
 *
 * {@link servePageCorpus} serves the corpus from a loopback HTTP server under those host names;
 * the service reaches it through resolve overrides (`NET_RESOLVE` semantics), so every page takes
 * the production path: SSRF-checked fetch, redirects, scripts, analysis, scoring.
 */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { dirname, join } from 'node:path';

import Type, { type Static } from 'typebox';
import { Compile } from 'typebox/compile';

const PageEntrySchema = Type.Object({
  id: Type.String({ minLength: 1 }),
  file: Type.String({ minLength: 1 }),
  host: Type.String({ minLength: 1 }),
  path: Type.String({ pattern: '^/' }),
  category: Type.String({ minLength: 1 }),
  expect: Type.Object({
    verdict: Type.Union([Type.Literal('safe'), Type.Literal('caution'), Type.Literal('danger')]),
    threat_types: Type.Array(Type.String()),
    signals: Type.Array(Type.String()),
  }),
  language: Type.String(),
  notes: Type.String(),
  source: Type.String(),
  assets: Type.Optional(Type.Array(Type.Object({ path: Type.String(), file: Type.String() }))),
  redirect: Type.Optional(Type.Object({ status: Type.Integer(), location: Type.String() })),
  /** The brand a labelled phishing page targets, as its source names it (for brand accuracy). */
  brand_label: Type.Optional(Type.String()),
  /**
   * What a real capture shows: a phishing `kit`, a `stub` (parked, loader, redirect or blank
   * page: nothing to read) or `not_phishing` (the feed listed it, but the captured page is
   * something else). Reported apart so that unreadable captures are not counted as misses only.
   */
  capture: Type.Optional(
    Type.Union([Type.Literal('kit'), Type.Literal('stub'), Type.Literal('not_phishing')]),
  ),
});

const PageEntryCheck = Compile(PageEntrySchema);

/**
 * One page of a corpus manifest: `file` (HTML, relative to the manifest's folder), realistic
 * `host` and `path`, `category` (a threat type or `benign`), `expect` (verdict, threat types,
 * signals that must be true — a minimum), optional same-host `assets` and a `redirect`.
 */
export type PageEntry = Static<typeof PageEntrySchema>;

/** A corpus: its folder and pages. */
export interface PageCorpus {
  dir: string;
  pages: PageEntry[];
}

/**
 * Read and validate a corpus manifest.
 *
 * @throws {Error} naming the first invalid entry, or when the file is not a JSON array.
 */
export function readPageCorpus(manifestPath: string): PageCorpus {
  const parsed: unknown = JSON.parse(readFileSync(manifestPath, 'utf8'));
  if (!Array.isArray(parsed)) throw new Error(`${manifestPath}: expected a JSON array`);
  parsed.forEach((entry: unknown, i) => {
    if (!PageEntryCheck.Check(entry)) {
      const first = PageEntryCheck.Errors(entry)[0];
      throw new Error(`${manifestPath}: entry ${i}: ${first?.message ?? 'invalid'}`);
    }
  });
  return { dir: dirname(manifestPath), pages: parsed as PageEntry[] };
}

/** A running corpus server. */
export interface PageCorpusServer {
  port: number;
  /** Resolve overrides `{host, port, address}` for every corpus host. */
  overrides: { host: string; port: number; address: string }[];
  /** The page's URL on this server: `http://<host>:<port><path>`. */
  url(page: PageEntry): string;
  /** `host + path` of every request served, in order. */
  requests: string[];
  close(): Promise<void>;
}

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  html: 'text/html; charset=utf-8',
  js: 'application/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
};

/**
 * Serve a corpus on 127.0.0.1 (ephemeral port). Requests are routed by `Host` (port ignored) and
 * path (query ignored, as static sites do); redirect entries answer with their status and a
 * `Location` rewritten to this server, and absolute URLs of corpus hosts inside pages are
 * rewritten the same way (`https://host/x` → `http://host:<port>/x`); anything else is 404.
 *
 * @param options.delayMs answer each request after this delay (latency benches).
 * @param options.extra handles a request first; returns true when it answered (tests add
 *   misbehaving hosts this way).
 * @param options.extraHosts host names `extra` answers for (added to `overrides`).
 */
export async function servePageCorpus(
  corpus: PageCorpus,
  options: {
    delayMs?: number;
    extra?: (host: string, path: string, res: ServerResponse, port: number) => boolean;
    extraHosts?: readonly string[];
  } = {},
): Promise<PageCorpusServer> {
  const requests: string[] = [];
  const sockets = new Set<Socket>();
  let port = 0;
  const byHost = new Map<string, PageEntry[]>();
  for (const page of corpus.pages) byHost.set(page.host, [...(byHost.get(page.host) ?? []), page]);
  const rewrite = (location: string): string =>
    location.replace(/^https?:\/\/([^/:]+)/, (_m, host: string) => `http://${host}:${port}`);
  // Absolute links to a corpus host (`https://host/js/kit.js`) point at this server, as they
  // point at the real site in production: the scheme and port are the only difference.
  const hostPattern = new RegExp(
    `https?://(${[...byHost.keys()].map((h) => h.replaceAll('.', '\\.')).join('|')})(?=[/"'])`,
    'g',
  );
  const localize = (html: Buffer): string =>
    html.toString('utf8').replace(hostPattern, (_m, host: string) => `http://${host}:${port}`);

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const host = (req.headers.host ?? '').replace(/:\d+$/, '').toLowerCase();
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    requests.push(host + path);
    if (options.extra?.(host, path, res, port) === true) return;
    for (const page of byHost.get(host) ?? []) {
      if (page.path.split('?')[0] === path) {
        if (page.redirect !== undefined) {
          res.writeHead(page.redirect.status, { location: rewrite(page.redirect.location) });
          res.end('<html><body><h1>Moved</h1></body></html>');
        } else {
          res.writeHead(200, { 'content-type': CONTENT_TYPES.html });
          res.end(localize(readFileSync(join(corpus.dir, page.file))));
        }
        return;
      }
      const asset = page.assets?.find((a) => a.path === path);
      if (asset !== undefined) {
        const ext = asset.path.split('.').pop() ?? '';
        res.writeHead(200, { 'content-type': CONTENT_TYPES[ext] ?? 'application/octet-stream' });
        res.end(readFileSync(join(corpus.dir, asset.file)));
        return;
      }
    }
    res.writeHead(404, { 'content-type': CONTENT_TYPES.html });
    res.end('<html><body>Not found</body></html>');
  };

  const server = createServer((req, res) => {
    const delay = options.delayMs ?? 0;
    if (delay > 0)
      setTimeout(() => {
        handle(req, res);
      }, delay);
    else handle(req, res);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  const hosts = [...new Set([...byHost.keys(), ...(options.extraHosts ?? [])])];
  return {
    port,
    overrides: hosts.map((host) => ({ host, port, address: '127.0.0.1' })),
    url: (page) => `http://${page.host}:${port}${page.path}`,
    requests,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) =>
        server.close(() => {
          resolve();
        }),
      );
    },
  };
}
