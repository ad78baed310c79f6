/**
 * The Web Risk Lookup API client against a loopback server implementing `GET /v1/uris:search` as
 * Google documents it, reached through the real SSRF-safe client with `webrisk.test.example`
 * mapped to 127.0.0.1. Cache lifetimes and back-off move an injected clock.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  createWebRiskClient,
  type WebRiskClient,
  type WebRiskResult,
} from '../../src/intel/web-risk/web-risk-client.js';
import { createHttpClient, type HttpClient } from '../../src/net/index.js';
import {
  deferred,
  type ScriptedRequest,
  type ScriptedResponse,
  type ScriptedServer,
  startScriptedServer,
} from '../helpers/scripted-http-server.js';
import { type TestClock, testClock } from '../helpers/test-app.js';

const NOW = Date.UTC(2026, 10, 20, 12);
const MINUTE = 60 * 1000;
const API_KEY = 'AIzaSyTEST-key_0123456789abcdefghijklm';
const ALL_TYPES =
  'threatTypes=MALWARE&threatTypes=SOCIAL_ENGINEERING&threatTypes=UNWANTED_SOFTWARE' +
  '&threatTypes=SOCIAL_ENGINEERING_EXTENDED_COVERAGE';

const json = (status: number, body: unknown): ScriptedResponse => ({
  status,
  headers: { 'content-type': 'application/json; charset=UTF-8' },
  body: JSON.stringify(body),
});
/** Google's JSON error body; the message repeats the key to prove the client scrubs it. */
const googleError = (code: number, status: string) =>
  json(code, { error: { code, message: `Request with key ${API_KEY} failed.`, status } });

const stalled = deferred<ScriptedResponse>();
const ANSWERS: Record<string, () => ScriptedResponse | Promise<ScriptedResponse>> = {
  'https://listed.example/login?a=1&b=é': () =>
    json(200, {
      threat: {
        threatTypes: ['SOCIAL_ENGINEERING'],
        expireTime: new Date(NOW + 10 * MINUTE).toISOString().replace('Z', '123456Z'),
      },
    }),
  'http://malware.example/x.exe': () =>
    json(200, { threat: { threatTypes: ['MALWARE', 'UNWANTED_SOFTWARE'] } }),
  'https://clean.example/': () => json(200, {}),
  'https://empty-threat.example/': () => json(200, { threat: {} }),
  'https://garbled.example/': () => ({ status: 200, body: '{"threat": ' }),
  'https://odd-types.example/': () => json(200, { threat: { threatTypes: [42] } }),
  'https://denied.example/': () => googleError(403, 'PERMISSION_DENIED'),
  'https://quota.example/': () => googleError(429, 'RESOURCE_EXHAUSTED'),
  'https://outage.example/': () => googleError(503, 'UNAVAILABLE'),
  'https://bad-argument.example/': () => googleError(400, 'INVALID_ARGUMENT'),
  'https://slow.example/': () => stalled.promise,
};

let server: ScriptedServer;
let http: HttpClient;
let baseUrl: string;

/** The `uri` parameter of a recorded request, decoded. */
const uriOf = (request: ScriptedRequest) =>
  new URLSearchParams(request.query).get('uri') ?? undefined;

beforeAll(async () => {
  server = await startScriptedServer((request) => {
    if (request.method !== 'GET' || request.path !== '/v1/uris:search') return json(404, {});
    const params = new URLSearchParams(request.query);
    if (params.get('key') !== API_KEY) return googleError(400, 'INVALID_ARGUMENT');
    return ANSWERS[params.get('uri') ?? '']?.() ?? json(200, {});
  });
  baseUrl = `http://webrisk.test.example:${server.port}`;
  http = createHttpClient({
    userAgent: 'linkguard-test/1',
    resolveOverrides: [{ host: 'webrisk.test.example', port: server.port, address: '127.0.0.1' }],
    lookup: () => Promise.reject(new Error('no DNS in tests')),
  });
});
afterAll(async () => {
  stalled.resolve(json(200, {}));
  await http.close();
  await server.close();
});

function setup(options: { timeoutMs?: number; extendedCoverage?: boolean } = {}): {
  client: WebRiskClient;
  clock: TestClock;
} {
  const clock = testClock(NOW);
  const client = createWebRiskClient({
    http,
    apiKey: API_KEY,
    clock,
    baseUrl: `${baseUrl}/`,
    timeoutMs: options.timeoutMs ?? 2000,
    cacheSize: 100,
    extendedCoverage: options.extendedCoverage,
  });
  return { client, clock };
}

const requestsFor = (url: string) => server.requests.filter((r) => uriOf(r) === url).length;

function expectNoKey(result: WebRiskResult): void {
  expect(JSON.stringify(result)).not.toContain(API_KEY);
  expect(JSON.stringify(result)).not.toContain(encodeURIComponent(API_KEY));
}

describe('request', { timeout: 10_000 }, () => {
  it('sends the documented query: every threat type, the encoded URI, then the key', async () => {
    const { client } = setup();
    const url = 'https://listed.example/login?a=1&b=é';
    await client.lookup(url);
    const request = server.requests.findLast((r) => uriOf(r) === url);
    expect(request?.method).toBe('GET');
    expect(request?.path).toBe('/v1/uris:search');
    expect(request?.query).toBe(
      `${ALL_TYPES}&uri=https%3A%2F%2Flisted.example%2Flogin%3Fa%3D1%26b%3D%C3%A9&key=${API_KEY}`,
    );
  });

  it('leaves out the extended-coverage list when asked to', async () => {
    const { client } = setup({ extendedCoverage: false });
    await client.lookup('https://clean.example/?extended=off');
    const request = server.requests.findLast(
      (r) => uriOf(r) === 'https://clean.example/?extended=off',
    );
    expect(request?.query).toMatch(
      /^threatTypes=MALWARE&threatTypes=SOCIAL_ENGINEERING&threatTypes=UNWANTED_SOFTWARE&uri=/,
    );
  });
});

describe('answers', { timeout: 10_000 }, () => {
  it('reports a listed URL with its threat types', async () => {
    const { client } = setup();
    expect(await client.lookup('https://listed.example/login?a=1&b=é')).toEqual({
      status: 'listed',
      threatTypes: ['SOCIAL_ENGINEERING'],
    });
    expect(await client.lookup('http://malware.example/x.exe')).toEqual({
      status: 'listed',
      threatTypes: ['MALWARE', 'UNWANTED_SOFTWARE'],
    });
  });

  it('reports {} and an empty threat as not listed', async () => {
    const { client } = setup();
    expect(await client.lookup('https://clean.example/')).toEqual({ status: 'not_listed' });
    expect(await client.lookup('https://empty-threat.example/')).toEqual({
      status: 'not_listed',
    });
  });

  it.each([
    ['https://garbled.example/', 'malformed'],
    ['https://odd-types.example/', 'malformed'],
    ['https://denied.example/', 'denied'],
    ['https://quota.example/', 'rate_limited'],
    ['https://outage.example/', 'unavailable'],
    ['https://bad-argument.example/', 'rejected'],
  ])('%s → unknown/%s, without the key', async (url, reason) => {
    const { client } = setup();
    const result = await client.lookup(url);
    expect(result).toMatchObject({ status: 'unknown', reason });
    expectNoKey(result);
  });

  it("keeps Google's error status and message, key scrubbed", async () => {
    const { client } = setup();
    const result = await client.lookup('https://denied.example/');
    expect(result).toEqual({
      status: 'unknown',
      reason: 'denied',
      detail: 'PERMISSION_DENIED: Request with key [redacted] failed.',
    });
  });

  it('gives up on a stalled server at the deadline', async () => {
    const { client } = setup({ timeoutMs: 200 });
    const result = await client.lookup('https://slow.example/');
    expect(result).toEqual({ status: 'unknown', reason: 'timeout' });
    expectNoKey(result);
  });
});

describe('caching (injected clock)', { timeout: 10_000 }, () => {
  it('keeps a listing until its expireTime, then asks again', async () => {
    const { client, clock } = setup();
    const url = 'https://listed.example/login?a=1&b=é';
    const before = requestsFor(url);
    await client.lookup(url);
    clock.advance(10 * MINUTE - 1);
    expect(await client.lookup(url)).toEqual({
      status: 'listed',
      threatTypes: ['SOCIAL_ENGINEERING'],
    });
    expect(requestsFor(url)).toBe(before + 1);
    clock.advance(1);
    await client.lookup(url);
    expect(requestsFor(url)).toBe(before + 2);
  });

  it('does not cache a listing without expireTime', async () => {
    const { client } = setup();
    const url = 'http://malware.example/x.exe';
    const before = requestsFor(url);
    await client.lookup(url);
    await client.lookup(url);
    expect(requestsFor(url)).toBe(before + 2);
  });

  it('keeps a not-listed answer 5 minutes', async () => {
    const { client, clock } = setup();
    const url = 'https://clean.example/';
    const before = requestsFor(url);
    await client.lookup(url);
    clock.advance(5 * MINUTE - 1);
    expect(await client.lookup(url)).toEqual({ status: 'not_listed' });
    expect(requestsFor(url)).toBe(before + 1);
    clock.advance(1);
    await client.lookup(url);
    expect(requestsFor(url)).toBe(before + 2);
  });

  it('never caches a failure', async () => {
    const { client } = setup();
    const url = 'https://garbled.example/';
    const before = requestsFor(url);
    await client.lookup(url);
    await client.lookup(url);
    expect(requestsFor(url)).toBe(before + 2);
  });

  it('sends one request for concurrent lookups of the same URL', async () => {
    const { client } = setup();
    const url = 'https://clean.example/?concurrent';
    const before = requestsFor(url);
    const results = await Promise.all([client.lookup(url), client.lookup(url)]);
    expect(results).toEqual([{ status: 'not_listed' }, { status: 'not_listed' }]);
    expect(requestsFor(url)).toBe(before + 1);
  });
});

describe('back-off after an unsuccessful response (status-codes doc)', { timeout: 10_000 }, () => {
  it('pauses 1 minute after a 429, then 2 minutes after the next one', async () => {
    const { client, clock } = setup();
    const before = server.requests.length;
    expect(await client.lookup('https://quota.example/')).toMatchObject({
      reason: 'rate_limited',
    });
    expect(await client.lookup('https://clean.example/?during-backoff')).toEqual({
      status: 'unknown',
      reason: 'backing_off',
    });
    expect(server.requests.length).toBe(before + 1);
    clock.advance(MINUTE);
    expect(await client.lookup('https://quota.example/')).toMatchObject({
      reason: 'rate_limited',
    });
    clock.advance(2 * MINUTE - 1);
    expect(await client.lookup('https://clean.example/?during-backoff')).toMatchObject({
      reason: 'backing_off',
    });
    clock.advance(1);
    expect(await client.lookup('https://clean.example/?during-backoff')).toEqual({
      status: 'not_listed',
    });
    expect(server.requests.length).toBe(before + 3);
  });

  it('does not pause after a 400 (one odd URL must not blind the next lookup)', async () => {
    const { client } = setup();
    await client.lookup('https://bad-argument.example/');
    expect(await client.lookup('https://clean.example/?after-400')).toEqual({
      status: 'not_listed',
    });
  });
});
