/**
 * The RDAP domain-age client against a loopback registry speaking RFC 9083 JSON, reached through
 * the real SSRF-safe client with `rdap.test.example` mapped to 127.0.0.1. Cache lifetimes move an
 * injected clock; only the stalled-registry case measures wall time (a deadline of 200 ms).
 */
import { performance } from 'node:perf_hooks';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  createRdapBootstrap,
  loadRdapBootstrap,
  type RdapBootstrap,
} from '../../src/intel/rdap/rdap-bootstrap.js';
import {
  createRdapClient,
  disabledRdapClient,
  type RdapClient,
} from '../../src/intel/rdap/rdap-client.js';
import {
  createHttpClient,
  type FetchOptions,
  type FetchResult,
  type HttpClient,
} from '../../src/net/index.js';
import {
  deferred,
  type ScriptedResponse,
  type ScriptedServer,
  startScriptedServer,
} from '../helpers/scripted-http-server.js';
import { type TestClock, testClock } from '../helpers/test-app.js';

const NOW = Date.UTC(2026, 10, 20, 12);
const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const iso = (epochMs: number) => new Date(epochMs).toISOString();

/** An RFC 9083 domain object with the given events. */
function rdapDomain(name: string, events: { eventAction: string; eventDate: string }[]) {
  return {
    status: 200,
    headers: { 'content-type': 'application/rdap+json' },
    body: JSON.stringify({
      objectClassName: 'domain',
      rdapConformance: ['rdap_level_0'],
      handle: `${name.toUpperCase()}-TEST`,
      ldhName: name,
      status: ['active'],
      events,
    }),
  } satisfies ScriptedResponse;
}
const registeredAt = (name: string, at: number) =>
  rdapDomain(name, [{ eventAction: 'registration', eventDate: iso(at) }]);
const rdapError = (status: number, headers: Record<string, string> = {}): ScriptedResponse => ({
  status,
  headers: { 'content-type': 'application/rdap+json', ...headers },
  body: JSON.stringify({ errorCode: status, title: 'error' }),
});

/** Answers held until a test releases them (stalled registry, in-flight de-duplication). */
const held = new Map<string, ReturnType<typeof deferred<ScriptedResponse>>>();
const hold = (name: string) => {
  const gate = deferred<ScriptedResponse>();
  held.set(name, gate);
  return gate;
};

const REGISTRY: Record<string, () => ScriptedResponse | Promise<ScriptedResponse>> = {
  'fresh.example': () => registeredAt('fresh.example', NOW - 5 * DAY - 12 * HOUR),
  'old.example': () => registeredAt('old.example', Date.UTC(2016, 10, 20, 12)),
  'renewed.example': () =>
    rdapDomain('renewed.example', [
      { eventAction: 'registration', eventDate: '2010-03-01T00:00:00Z' },
      { eventAction: 'reregistration', eventDate: iso(NOW - 3 * DAY) },
    ]),
  'expiring.example': () =>
    rdapDomain('expiring.example', [
      { eventAction: 'registration', eventDate: '2015-01-01T00:00:00Z' },
      { eventAction: 'expiration', eventDate: iso(NOW + 2 * HOUR) },
    ]),
  'missing.example': () => rdapError(404),
  'busy.example': () => rdapError(429, { 'retry-after': '7200' }),
  'broken.example': () => rdapError(500),
  'html.example': () => ({ status: 200, headers: { 'content-type': 'text/html' }, body: '<h1>' }),
  'noevents.example': () => ({
    status: 200,
    headers: { 'content-type': 'application/rdap+json' },
    body: JSON.stringify({ objectClassName: 'domain', ldhName: 'noevents.example' }),
  }),
  'future.example': () => registeredAt('future.example', Date.UTC(2030, 0, 1)),
  'baddate.example': () =>
    rdapDomain('baddate.example', [{ eventAction: 'registration', eventDate: 'last tuesday' }]),
  'moved.example': () => ({ status: 301, headers: { location: '/registrar/moved.example' } }),
};

let server: ScriptedServer;
let http: HttpClient;
let bootstrap: RdapBootstrap;

beforeAll(async () => {
  server = await startScriptedServer((request) => {
    if (request.path === '/registrar/moved.example') {
      return registeredAt('moved.example', Date.UTC(2020, 0, 1));
    }
    const name = request.path.replace(/^\/domain\//, '');
    const gate = held.get(name);
    if (gate !== undefined) return gate.promise;
    return REGISTRY[name]?.() ?? rdapError(404);
  });
  http = createHttpClient({
    userAgent: 'linkguard-test/1',
    resolveOverrides: [{ host: 'rdap.test.example', port: server.port, address: '127.0.0.1' }],
    lookup: () => Promise.reject(new Error('no DNS in tests')),
  });
  bootstrap = createRdapBootstrap({
    publication: '2026-11-01T00:00:00Z',
    services: [[['example'], [`http://rdap.test.example:${server.port}/`]]],
  });
});
afterAll(async () => {
  for (const gate of held.values()) gate.resolve(rdapError(503));
  await http.close();
  await server.close();
});

/** A client on a fresh cache with a clock the test moves. */
function setup(options: { timeoutMs?: number; backgroundTimeoutMs?: number } = {}): {
  client: RdapClient;
  clock: TestClock;
} {
  const clock = testClock(NOW);
  const client = createRdapClient({
    http,
    bootstrap,
    clock,
    timeoutMs: options.timeoutMs ?? 800,
    backgroundTimeoutMs: options.backgroundTimeoutMs ?? 5000,
    cacheSize: 100,
  });
  return { client, clock };
}

const requestsFor = (name: string) =>
  server.requests.filter((r) => r.path === `/domain/${name}`).length;

describe('registration dates', { timeout: 10_000 }, () => {
  it('reads a 5-day-old registration with the RDAP Accept header', async () => {
    const { client } = setup();
    const age = await client.domainAge('fresh.example');
    expect(age).toEqual({
      status: 'known',
      registeredAt: NOW - 5 * DAY - 12 * HOUR,
      ageDays: 5,
      basis: 'registration',
    });
    const request = server.requests.findLast((r) => r.path === '/domain/fresh.example');
    expect(request?.method).toBe('GET');
    expect(request?.headers.accept).toMatch(/^application\/rdap\+json,/);
  });

  it('reads a 10-year-old registration', async () => {
    const { client } = setup();
    expect(await client.domainAge('old.example')).toMatchObject({
      status: 'known',
      ageDays: 3652,
    });
  });

  it('takes a recent re-registration over the original registration', async () => {
    const { client } = setup();
    expect(await client.domainAge('renewed.example')).toMatchObject({
      status: 'known',
      ageDays: 3,
      basis: 'reregistration',
    });
  });

  it('follows a registry redirect', async () => {
    const { client } = setup();
    expect(await client.domainAge('moved.example')).toMatchObject({
      status: 'known',
      registeredAt: Date.UTC(2020, 0, 1),
    });
  });

  it('normalises case and a trailing dot before asking', async () => {
    const { client } = setup();
    const before = requestsFor('fresh.example');
    expect(await client.domainAge('FRESH.Example.')).toMatchObject({ status: 'known' });
    expect(requestsFor('fresh.example')).toBe(before + 1);
  });
});

describe('failures degrade to unknown', { timeout: 10_000 }, () => {
  it.each([
    ['missing.example', 'not_found'],
    ['busy.example', 'unavailable'],
    ['broken.example', 'unavailable'],
    ['html.example', 'malformed'],
    ['noevents.example', 'no_registration_date'],
    ['future.example', 'malformed'],
    ['baddate.example', 'malformed'],
  ])('%s → unknown/%s', async (name, reason) => {
    const { client } = setup();
    expect(await client.domainAge(name)).toEqual({ status: 'unknown', reason });
  });

  it('answers invalid input without a request', async () => {
    const { client } = setup();
    const before = server.requests.length;
    expect(await client.domainAge('not a domain')).toEqual({
      status: 'unknown',
      reason: 'invalid_domain',
    });
    expect(await client.domainAge('example')).toEqual({
      status: 'unknown',
      reason: 'invalid_domain',
    });
    expect(server.requests.length).toBe(before);
  });

  it('answers a TLD without server as no_rdap_server without a request', async () => {
    const { client } = setup();
    const before = server.requests.length;
    expect(await client.domainAge('example.nowhere')).toEqual({
      status: 'unknown',
      reason: 'no_rdap_server',
    });
    expect(server.requests.length).toBe(before);
  });
});

describe('cache lifetimes (injected clock)', { timeout: 10_000 }, () => {
  it('keeps a registration date 24 h and re-derives the age at read time', async () => {
    const { client, clock } = setup();
    const before = requestsFor('fresh.example');
    expect(await client.domainAge('fresh.example')).toMatchObject({ ageDays: 5 });
    clock.advance(13 * HOUR);
    expect(await client.domainAge('fresh.example')).toMatchObject({ ageDays: 6 });
    expect(client.peek('fresh.example')).toMatchObject({ ageDays: 6 });
    expect(requestsFor('fresh.example')).toBe(before + 1);
    clock.advance(11 * HOUR);
    expect(client.peek('fresh.example')).toBeUndefined();
    expect(await client.domainAge('fresh.example')).toMatchObject({ status: 'known' });
    expect(requestsFor('fresh.example')).toBe(before + 2);
  });

  it('keeps a registration date no longer than the domain expiration', async () => {
    const { client, clock } = setup();
    await client.domainAge('expiring.example');
    clock.advance(2 * HOUR - 1);
    expect(client.peek('expiring.example')).toMatchObject({ status: 'known' });
    clock.advance(1);
    expect(client.peek('expiring.example')).toBeUndefined();
  });

  it('caches not_found for 1 h, then asks again', async () => {
    const { client, clock } = setup();
    const before = requestsFor('missing.example');
    await client.domainAge('missing.example');
    clock.advance(59 * MINUTE);
    expect(await client.domainAge('missing.example')).toEqual({
      status: 'unknown',
      reason: 'not_found',
    });
    expect(requestsFor('missing.example')).toBe(before + 1);
    clock.advance(2 * MINUTE);
    await client.domainAge('missing.example');
    expect(requestsFor('missing.example')).toBe(before + 2);
  });

  it('honours Retry-After of a 429 beyond the 1 h default', async () => {
    const { client, clock } = setup();
    const before = requestsFor('busy.example');
    await client.domainAge('busy.example');
    clock.advance(61 * MINUTE);
    expect(client.peek('busy.example')).toEqual({ status: 'unknown', reason: 'unavailable' });
    clock.advance(60 * MINUTE);
    expect(client.peek('busy.example')).toBeUndefined();
    await client.domainAge('busy.example');
    expect(requestsFor('busy.example')).toBe(before + 2);
  });
});

describe('latency', { timeout: 10_000 }, () => {
  it('answers unknown/timeout at the deadline and fills the cache in the background', async () => {
    const gate = hold('slow.example');
    const { client } = setup({ timeoutMs: 200 });
    const started = performance.now();
    const age = await client.domainAge('slow.example');
    const elapsed = performance.now() - started;
    expect(age).toEqual({ status: 'unknown', reason: 'timeout' });
    expect(elapsed).toBeGreaterThanOrEqual(190);
    expect(elapsed).toBeLessThan(200 + 500);
    expect(client.peek('slow.example')).toBeUndefined();

    gate.resolve(registeredAt('slow.example', NOW - 2 * DAY));
    await client.whenIdle();
    expect(client.peek('slow.example')).toMatchObject({ status: 'known', ageDays: 2 });
    expect(requestsFor('slow.example')).toBe(1);
  });

  it('caps the background request and caches its timeout', async () => {
    hold('silent.example'); // never released
    const { client } = setup({ timeoutMs: 50, backgroundTimeoutMs: 300 });
    expect(await client.domainAge('silent.example')).toEqual({
      status: 'unknown',
      reason: 'timeout',
    });
    await client.whenIdle();
    expect(client.peek('silent.example')).toEqual({ status: 'unknown', reason: 'timeout' });
  });

  it('sends one request for concurrent lookups of the same domain', async () => {
    const gate = hold('popular.example');
    const { client } = setup();
    const first = client.domainAge('popular.example');
    const second = client.domainAge('popular.example');
    await expect.poll(() => requestsFor('popular.example')).toBe(1);
    gate.resolve(registeredAt('popular.example', NOW - 40 * DAY));
    const [a, b] = await Promise.all([first, second]);
    expect(a).toMatchObject({ status: 'known', ageDays: 40 });
    expect(b).toEqual(a);
    expect(requestsFor('popular.example')).toBe(1);
  });
});

describe('with the shipped bootstrap (no network)', () => {
  const shipped = loadRdapBootstrap();

  /** An HttpClient that records URLs and answers every domain query with a 2020 registration. */
  function recordingHttp(): HttpClient & { urls: string[] } {
    const urls: string[] = [];
    return {
      urls,
      fetch: (url: string, options: FetchOptions): Promise<FetchResult> => {
        urls.push(url);
        expect(options.timeoutMs).toBeLessThanOrEqual(5000);
        expect(options.maxRedirects).toBe(3);
        expect(options.maxBytes).toBe(256 * 1024);
        const name = url.slice(url.lastIndexOf('/') + 1);
        const answer = registeredAt(name, Date.UTC(2020, 0, 1));
        return Promise.resolve({
          url,
          status: 200,
          headers: answer.headers,
          body: Buffer.from(answer.body),
          redirects: [],
          address: '192.0.2.1',
        });
      },
      close: () => Promise.resolve(),
    };
  }
  const client = (recorder: HttpClient) =>
    createRdapClient({ http: recorder, bootstrap: shipped, clock: { now: () => NOW } });

  it('asks Verisign for .com', async () => {
    const recorder = recordingHttp();
    expect(await client(recorder).domainAge('example.com')).toMatchObject({ status: 'known' });
    expect(recorder.urls).toEqual(['https://rdap.verisign.com/com/v1/domain/example.com']);
  });

  it('asks DENIC for .de from the override table', async () => {
    const recorder = recordingHttp();
    expect(await client(recorder).domainAge('zeit.de')).toMatchObject({ status: 'known' });
    expect(recorder.urls).toEqual(['https://rdap.denic.de/domain/zeit.de']);
  });

  it('asks for an IDN in its ASCII form', async () => {
    const recorder = recordingHttp();
    await client(recorder).domainAge('bücher.com');
    expect(recorder.urls).toEqual(['https://rdap.verisign.com/com/v1/domain/xn--bcher-kva.com']);
  });

  it('makes no request for a TLD in neither file', async () => {
    const recorder = recordingHttp();
    expect(await client(recorder).domainAge('example.jp')).toEqual({
      status: 'unknown',
      reason: 'no_rdap_server',
    });
    expect(recorder.urls).toEqual([]);
  });

  it('treats .gov and .edu as old by policy without a request', async () => {
    const recorder = recordingHttp();
    const rdap = client(recorder);
    expect(await rdap.domainAge('whitehouse.gov')).toEqual({
      status: 'exempt',
      reason: 'restricted_tld',
      tld: 'gov',
    });
    expect(rdap.peek('stevens.edu')).toEqual({
      status: 'exempt',
      reason: 'restricted_tld',
      tld: 'edu',
    });
    expect(recorder.urls).toEqual([]);
  });
});

describe('configuration', () => {
  it('refuses a caller budget above 800 ms', () => {
    expect(() =>
      createRdapClient({ http, bootstrap, clock: { now: () => NOW }, timeoutMs: 801 }),
    ).toThrow(RangeError);
  });

  it('answers unknown/disabled for every domain when lookups are off', async () => {
    expect(await disabledRdapClient.domainAge('example.com')).toEqual({
      status: 'unknown',
      reason: 'disabled',
    });
    expect(disabledRdapClient.peek('example.com')).toEqual({
      status: 'unknown',
      reason: 'disabled',
    });
  });
});
