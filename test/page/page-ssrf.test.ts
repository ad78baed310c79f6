/**
 * The SSRF corpus with the page layer on: a URL submitted for a verdict whose host resolves to a
 * loopback, private, link-local (cloud metadata) or mixed address set is never connected to.
 * Two witnesses, as in test/net/ssrf-corpus.test.ts: a loopback server on the URLs' port that
 * counts TCP connections, and a spy on `net.connect`. The verdict comes from layers 1–2 and says
 * why the page was not analysed. Private IP literals are refused before any layer runs.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { AppError } from '../../src/errors.js';
import { pageService, type PageServiceHarness } from '../helpers/page-service.js';
import { type ConnectSpy, spyOnConnect } from '../net/connect-spy.js';
import { fakeDns } from '../net/fake-dns.js';
import { type LoopbackServer, startLoopbackServer } from '../net/loopback-server.js';

let server: LoopbackServer;
let connect: ConnectSpy;
let h: PageServiceHarness;

beforeAll(async () => {
  server = await startLoopbackServer();
});
afterAll(async () => {
  await server.close();
});
beforeEach(async () => {
  connect = spyOnConnect();
  const dns = fakeDns({
    'loopback.linkguard-test.net': ['127.0.0.1'],
    'loopback6.linkguard-test.net': ['::1'],
    'mapped.linkguard-test.net': ['::ffff:127.0.0.1'],
    'metadata.linkguard-test.net': ['169.254.169.254'],
    'private.linkguard-test.net': ['10.0.0.5'],
    'cgnat.linkguard-test.net': ['100.64.0.1'],
    'mixed.linkguard-test.net': ['93.184.216.34', '10.0.0.5'],
    'mixed6.linkguard-test.net': ['2606:4700:4700::1111', 'fd00::1'],
  });
  h = await pageService({ PAGE_BUDGET_MS: '2000' }, { lookup: dns.lookup });
});
afterEach(async () => {
  connect.restore();
  await h.close();
});

describe('page layer on: names that resolve to non-global addresses', { timeout: 10_000 }, () => {
  it.each([
    'loopback.linkguard-test.net',
    'loopback6.linkguard-test.net',
    'mapped.linkguard-test.net',
    'metadata.linkguard-test.net',
    'private.linkguard-test.net',
    'cgnat.linkguard-test.net',
    'mixed.linkguard-test.net',
    'mixed6.linkguard-test.net',
  ])('%s: no connection, verdict from layers 1–2', async (host) => {
    const before = server.connections;
    const verdict = await h.verdictOf(`http://${host}:${server.port}/login`);
    expect(verdict.reason).toMatch(/Page not analysed: the site points to a private or reserved/);
    expect(verdict.details.matched_patterns).toContain('page_not_analysed:blocked_address');
    expect(server.connections).toBe(before);
    expect(connect.hosts()).toEqual([]);
  });
});

describe('page layer on: private IP literals', () => {
  it.each([
    'http://127.0.0.1/',
    'http://10.1.2.3/',
    'http://[::1]/',
    'http://169.254.169.254/latest/meta-data/',
    'http://2130706433/',
  ])('%s is refused as invalid before any fetch', (url) => {
    expect(() => h.service.parse(url)).toThrow(AppError);
    expect(connect.hosts()).toEqual([]);
  });
});
