/**
 * The page fetcher against a real loopback server: browser headers and no cookies, charset
 * decoding by the WHATWG sniffing rules, redirects and meta refresh within one cap, same-site
 * scripts fetched (third-party ones not), any HTTP status analysed, non-HTML refused.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { normalizeUrl, type ParsedUrl } from '../../src/engine/url/normalize-url.js';
import { createHttpClient, type HttpClient } from '../../src/net/index.js';
import { PageFetcher } from '../../src/page/page-fetcher.js';
import { BROWSER_USER_AGENT } from '../../src/page/page-request.js';

interface Route {
  status?: number;
  headers?: Record<string, string>;
  body: Buffer | string;
}

const received: { host: string; path: string; headers: IncomingHttpHeaders }[] = [];
let routes: Record<string, Route> = {};
let port = 0;
let close: () => Promise<void>;
let http: HttpClient;

const HOSTS = ['shop.fetch-test.net', 'cdn.fetch-test.net', 'other-site.net'];

beforeAll(async () => {
  const server = createServer((req, res) => {
    const host = (req.headers.host ?? '').replace(/:\d+$/, '');
    const path = req.url ?? '/';
    received.push({ host, path, headers: req.headers });
    const route = routes[`${host}${path}`];
    if (route === undefined) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('no');
      return;
    }
    res.writeHead(route.status ?? 200, route.headers ?? { 'content-type': 'text/html' });
    res.end(route.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  close = () =>
    new Promise((resolve) =>
      server.close(() => {
        resolve();
      }),
    );
  http = createHttpClient({
    userAgent: BROWSER_USER_AGENT,
    resolveOverrides: HOSTS.map((host) => ({ host, port, address: '127.0.0.1' })),
  });
});
afterAll(async () => {
  await http.close();
  await close();
});

const url = (host: string, path: string): string => `http://${host}:${port}${path}`;
const parsed = (text: string): ParsedUrl => {
  const result = normalizeUrl(text);
  if (!result.ok) throw new Error(result.message);
  return result.url;
};
const fetcher = (maxRedirects = 5): PageFetcher =>
  new PageFetcher({ http, maxBytes: 2 * 1024 * 1024, maxRedirects, concurrency: 4 });
const soon = (): number => performance.now() + 3000;

describe('PageFetcher', { timeout: 10_000 }, () => {
  it('asks like a desktop browser, without cookies', async () => {
    routes = { 'shop.fetch-test.net/ua': { body: '<title>ok</title>' } };
    const page = await fetcher().fetch(parsed(url('shop.fetch-test.net', '/ua')), soon());
    expect(page.ok).toBe(true);
    const request = received.find((r) => r.path === '/ua');
    expect(request?.headers['user-agent']).toBe(BROWSER_USER_AGENT);
    expect(request?.headers.accept).toMatch(/^text\/html/);
    expect(request?.headers['accept-language']).toMatch(/^en/);
    expect(request?.headers.cookie).toBeUndefined();
  });

  it.each([
    [
      'a Content-Type charset',
      { 'content-type': 'text/html; charset=windows-1251' },
      Buffer.from([0x3c, 0x70, 0x3e, 0xcf, 0xf0, 0xe8, 0xe2, 0xe5, 0xf2]),
      'Привет',
    ],
    [
      'a <meta charset> prescan',
      { 'content-type': 'text/html' },
      Buffer.concat([
        Buffer.from('<meta charset="shift_jis"><p>'),
        Buffer.from([0x8d, 0xc4, 0x94, 0x7a, 0x92, 0x42]),
      ]),
      '再配達',
    ],
    [
      'a UTF-8 BOM',
      { 'content-type': 'text/html; charset=iso-8859-1' },
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('<p>Zustellgebühr')]),
      'Zustellgebühr',
    ],
  ])('decodes by %s', async (_how, headers, body, text) => {
    routes = { 'shop.fetch-test.net/charset': { headers, body } };
    const page = await fetcher().fetch(parsed(url('shop.fetch-test.net', '/charset')), soon());
    expect(page.ok && page.doc.text).toContain(text);
  });

  it('follows a meta refresh, counted with HTTP redirects against one cap', async () => {
    routes = {
      'shop.fetch-test.net/a': { status: 302, headers: { location: '/b' }, body: '' },
      'shop.fetch-test.net/b': {
        body: `<meta http-equiv="refresh" content="0; url=${url('other-site.net', '/c')}">`,
      },
      'other-site.net/c': { body: '<title>landed</title>' },
    };
    const page = await fetcher().fetch(parsed(url('shop.fetch-test.net', '/a')), soon());
    expect(page.ok && page.finalUrl.hostname).toBe('other-site.net');
    expect(page.ok && page.doc.title).toBe('landed');
    expect(page.redirects).toHaveLength(2);
    const capped = await fetcher(1).fetch(parsed(url('shop.fetch-test.net', '/a')), soon());
    expect(capped).toMatchObject({ ok: false, failure: 'too_many_redirects' });
  });

  it('reads the page as served when only a <noscript> refresh points elsewhere (cloaking)', async () => {
    routes = {
      'shop.fetch-test.net/login': {
        body:
          `<noscript><meta http-equiv="refresh" content="0; url=${url('other-site.net', '/')}"></noscript>` +
          '<title>Sign in</title><form><input type="password" name="pw"></form>',
      },
    };
    const before = received.length;
    const page = await fetcher().fetch(parsed(url('shop.fetch-test.net', '/login')), soon());
    expect(page.ok && page.finalUrl.hostname).toBe('shop.fetch-test.net');
    expect(page.ok && page.doc.title).toBe('Sign in');
    expect(page.ok && page.doc.noscriptRefresh).toMatch(/other-site\.net/);
    expect(page.redirects).toHaveLength(0);
    expect(received.slice(before).some((r) => r.host === 'other-site.net')).toBe(false);
  });

  it('fetches same-site scripts into the document, not third-party ones', async () => {
    routes = {
      'shop.fetch-test.net/kit': {
        body:
          '<script src="/js/app.js"></script>' +
          `<script src="${url('cdn.fetch-test.net', '/lib.js')}"></script>` +
          `<script src="${url('other-site.net', '/tracker.js')}"></script>`,
      },
      'shop.fetch-test.net/js/app.js': {
        headers: { 'content-type': 'application/javascript' },
        body: 'const receiver = "0x0";',
      },
      'cdn.fetch-test.net/lib.js': {
        headers: { 'content-type': 'text/javascript' },
        body: 'cdn()',
      },
      'other-site.net/tracker.js': { headers: { 'content-type': 'text/javascript' }, body: 'x()' },
    };
    const before = received.length;
    const page = await fetcher().fetch(parsed(url('shop.fetch-test.net', '/kit')), soon());
    if (!page.ok) throw new Error('not fetched');
    expect(page.scriptsFetched).toBe(2);
    expect(page.doc.scripts.map((s) => s.code)).toEqual(['const receiver = "0x0";', 'cdn()', '']);
    expect(received.slice(before).map((r) => r.host + r.path)).not.toContain(
      'other-site.net/tracker.js',
    );
  });

  it('analyses a lure served with 404, refuses JSON and compressed bodies', async () => {
    routes = {
      'shop.fetch-test.net/404': { status: 404, body: '<title>Verify you are human</title>' },
      'shop.fetch-test.net/json': { headers: { 'content-type': 'application/json' }, body: '{}' },
      'shop.fetch-test.net/gz': {
        headers: { 'content-type': 'text/html', 'content-encoding': 'gzip' },
        body: Buffer.from([0x1f, 0x8b, 0x08, 0x00]),
      },
    };
    const lure = await fetcher().fetch(parsed(url('shop.fetch-test.net', '/404')), soon());
    expect(lure.ok && lure.status).toBe(404);
    expect(lure.ok && lure.doc.title).toBe('Verify you are human');
    await expect(
      fetcher().fetch(parsed(url('shop.fetch-test.net', '/json')), soon()),
    ).resolves.toMatchObject({ ok: false, failure: 'not_html' });
    await expect(
      fetcher().fetch(parsed(url('shop.fetch-test.net', '/gz')), soon()),
    ).resolves.toMatchObject({ ok: false, failure: 'protocol_error' });
  });

  it('gives up with `busy` when its turn comes after the deadline', async () => {
    routes = { 'shop.fetch-test.net/late': { body: '<p>x' } };
    const page = await fetcher().fetch(
      parsed(url('shop.fetch-test.net', '/late')),
      performance.now() - 1,
    );
    expect(page).toMatchObject({ ok: false, failure: 'busy' });
  });
});
