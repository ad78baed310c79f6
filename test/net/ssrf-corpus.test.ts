/**
 * The SSRF boundary of createHttpClient: every URL here must be refused before any socket is
 * opened to it. Two witnesses: a loopback server on the URLs' port (both 127.0.0.1 and ::1) that
 * counts TCP connections, and a spy on `net.connect` that records every connect the client makes.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { createHttpClient, type FetchOptions, type HttpClient } from '../../src/net/index.js';
import { type ConnectSpy, spyOnConnect } from './connect-spy.js';
import { expectNetError } from './expect-net-error.js';
import { fakeDns } from './fake-dns.js';
import { type LoopbackServer, startLoopbackServer } from './loopback-server.js';

const OPTIONS: FetchOptions = { timeoutMs: 2000, maxBytes: 10_000 };

let server: LoopbackServer;
let connect: ConnectSpy;
let client: HttpClient;
let dns: ReturnType<typeof fakeDns>;

beforeAll(async () => {
  server = await startLoopbackServer();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  connect = spyOnConnect();
  dns = fakeDns({
    'loopback.test.example': ['127.0.0.1'],
    'loopback6.test.example': ['::1'],
    'mapped.test.example': ['::ffff:127.0.0.1'],
    'metadata.test.example': ['169.254.169.254'],
    'mixed.test.example': ['93.184.216.34', '10.0.0.5'],
    'mixed6.test.example': ['2606:4700:4700::1111', 'fd00::1'],
    // The override below covers only port `server.port`; on any other port this answer applies.
    'feeds.test.example': ['127.0.0.1'],
  });
  client = createHttpClient({
    userAgent: 'linkguard-test/1',
    lookup: dns.lookup,
    resolveOverrides: [{ host: 'feeds.test.example', port: server.port, address: '127.0.0.1' }],
  });
});
afterEach(async () => {
  connect.restore();
  await client.close();
});

const withPort = (template: string): string => template.replaceAll('PORT', String(server.port));

describe(
  'IP literals in every spelling, refused without a lookup or a connect',
  { timeout: 5000 },
  () => {
    it.each([
      'http://127.0.0.1/',
      'http://127.0.0.1:PORT/ok',
      'http://127.1:PORT/ok',
      'http://2130706433:PORT/ok',
      'http://0x7f000001:PORT/ok',
      'http://0x7f.1:PORT/ok',
      'http://0177.0.0.1:PORT/ok',
      'http://[::1]:PORT/ok',
      'http://[0:0:0:0:0:0:0:1]:PORT/ok',
      'http://[::ffff:127.0.0.1]:PORT/ok',
      'http://[::ffff:7f00:1]:PORT/ok',
      'http://[64:ff9b::7f00:1]:PORT/ok',
      'http://[::127.0.0.1]:PORT/ok',
      'http://0.0.0.0:PORT/ok',
      'http://0:PORT/ok',
      'http://[::]:PORT/ok',
      'https://127.0.0.1:PORT/ok',
      'http://user:secret@127.0.0.1:PORT/ok',
      'http://10.0.0.1/',
      'http://172.16.0.1/',
      'http://192.168.1.1/',
      'http://169.254.169.254/latest/meta-data/',
      'http://[::ffff:169.254.169.254]/latest/meta-data/',
      'http://[fe80::1]/',
      'http://[fd00::1]/',
      'http://100.64.0.1/',
      'http://224.0.0.1/',
      'http://255.255.255.255/',
    ])('%s', async (template) => {
      const url = withPort(template);
      await expectNetError(client.fetch(url, OPTIONS), 'blocked_address');
      expect(connect.hosts()).toEqual([]);
      expect(server.connections).toBe(0);
      expect(dns.calls.size).toBe(0);
    });
  },
);

describe('names refused by what they resolve to', { timeout: 5000 }, () => {
  it.each([
    ['loopback.test.example', 'resolves to 127.0.0.1'],
    ['loopback6.test.example', 'resolves to ::1'],
    ['mapped.test.example', 'resolves to ::ffff:127.0.0.1'],
    ['metadata.test.example', 'resolves to the cloud metadata address'],
    ['mixed.test.example', 'resolves to [public, private]: mixed is refused'],
    ['mixed6.test.example', 'resolves to [public IPv6, unique-local]'],
  ])('%s %s', async (host) => {
    await expectNetError(
      client.fetch(withPort(`http://${host}:PORT/ok`), OPTIONS),
      'blocked_address',
    );
    expect(dns.calls.get(host)).toBe(1);
    expect(connect.hosts()).toEqual([]);
    expect(server.connections).toBe(0);
  });

  it.each([
    'http://localhost:PORT/ok',
    'http://LOCALHOST.:PORT/ok',
    'http://api.localhost:PORT/ok',
  ])('%s is a loopback name, refused without a lookup', async (template) => {
    await expectNetError(client.fetch(withPort(template), OPTIONS), 'blocked_address');
    expect(dns.calls.size).toBe(0);
    expect(connect.hosts()).toEqual([]);
    expect(server.connections).toBe(0);
  });

  it('the override exemption is for its exact port only', async () => {
    // feeds.test.example:PORT is overridden to 127.0.0.1; the same name on another port is not.
    const error = await expectNetError(
      client.fetch(`http://feeds.test.example:${server.port + 1}/ok`, OPTIONS),
      'blocked_address',
    );
    expect(error.url).toBe(`http://feeds.test.example:${server.port + 1}/ok`);
    expect(connect.hosts()).toEqual([]);
  });
});

describe('redirects from an allowed host, checked at each hop', { timeout: 5000 }, () => {
  const start = (target: string, status = 302): string =>
    `http://feeds.test.example:${server.port}/redirect?status=${status}&to=${encodeURIComponent(target)}`;

  it.each<[string, number]>([
    ['http://127.0.0.1:PORT/ok', 302],
    ['http://[::1]:PORT/ok', 308],
    ['http://2130706433:PORT/ok', 301],
    ['http://169.254.169.254/latest/meta-data/', 307],
    ['http://loopback.test.example:PORT/ok', 303],
    ['http://localhost:PORT/ok', 302],
  ])('→ %s (%i) is refused at that hop', async (template, status) => {
    const requestsBefore = server.requests.length;
    const target = withPort(template);
    const error = await expectNetError(
      client.fetch(start(target, status), OPTIONS),
      'blocked_address',
    );
    // The error names the refused hop in its canonical form.
    expect(error.url).toBe(new URL(target).href);
    expect(server.requests.slice(requestsBefore).map((r) => r.url.split('?')[0])).toEqual([
      '/redirect',
    ]);
    expect(connect.hosts()).toEqual(['127.0.0.1']);
  });

  it.each([
    'file:///etc/passwd',
    'ftp://feeds.test.example/pub',
    'javascript:alert(1)',
    'data:text/html,hi',
  ])('→ %s is refused as a non-http(s) URL', async (target) => {
    const requestsBefore = server.requests.length;
    const error = await expectNetError(client.fetch(start(target), OPTIONS), 'invalid_url');
    expect(error.url).toBe(new URL(target).href);
    expect(server.requests.length - requestsBefore).toBe(1);
  });

  it('→ a relative redirect to an unparsable URL is invalid_url', async () => {
    await expectNetError(client.fetch(start('http://[::1'), OPTIONS), 'invalid_url');
  });
});
