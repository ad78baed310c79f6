/**
 * createHttpClient against a loopback server reached through resolve overrides: results,
 * redirects, limits, failures, and DNS pinning. All traffic stays on 127.0.0.1 / ::1; connects to
 * any other address are intercepted by the net.connect spy and refused locally.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';

import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { createHttpClient, type HttpClient, NetError } from '../../src/net/index.js';
import { type ConnectSpy, spyOnConnect } from './connect-spy.js';
import { expectNetError } from './expect-net-error.js';
import { fakeDns } from './fake-dns.js';
import { ANNOUNCED_BYTES, type LoopbackServer, startLoopbackServer } from './loopback-server.js';

const USER_AGENT = 'linkguard-test/1 (+https://linkguard.invalid)';

let server: LoopbackServer;
let connect: ConnectSpy;
let client: HttpClient;
let base: string;

beforeAll(async () => {
  server = await startLoopbackServer();
  base = `http://feeds.test.example:${server.port}`;
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  connect = spyOnConnect();
  client = createHttpClient({
    userAgent: USER_AGENT,
    lookup: fakeDns({}).lookup,
    resolveOverrides: [
      { host: 'feeds.test.example', port: server.port, address: '127.0.0.1' },
      { host: 'mirror.test.example', port: server.port, address: '::1' },
    ],
  });
});
afterEach(async () => {
  connect.restore();
  await client.close();
});

const lastRequests = (count: number) => server.requests.slice(-count);

describe('results', { timeout: 5000 }, () => {
  it('returns status, lower-case headers, body, final URL, redirects and the pinned address', async () => {
    const start = `${base}/redirect?status=301&to=${encodeURIComponent('/redirect?to=ok')}`;
    const result = await client.fetch(start, { timeoutMs: 2000, maxBytes: 1000 });
    expect(result.status).toBe(200);
    expect(result.headers['x-test']).toBe('Yes');
    expect(result.headers['content-type']).toBe('text/plain');
    expect(Object.keys(result.headers).every((name) => name === name.toLowerCase())).toBe(true);
    expect(result.body.toString()).toBe('hello');
    expect(result.url).toBe(`${base}/ok`);
    expect(result.redirects).toEqual([start, `${base}/redirect?to=ok`]);
    expect(result.address).toBe('127.0.0.1');
    const received = lastRequests(3);
    expect(received.map((r) => r.url)).toEqual([
      `/redirect?status=301&to=${encodeURIComponent('/redirect?to=ok')}`,
      '/redirect?to=ok',
      '/ok',
    ]);
    for (const request of received) {
      expect(request.headers.host).toBe(`feeds.test.example:${server.port}`);
      expect(request.headers['user-agent']).toBe(USER_AGENT);
      expect(request.headers['accept-encoding']).toBe('identity');
    }
    expect(new Set(connect.hosts())).toEqual(new Set(['127.0.0.1']));
  });

  it('non-2xx statuses are results', async () => {
    const result = await client.fetch(`${base}/missing`, { timeoutMs: 2000, maxBytes: 1000 });
    expect(result.status).toBe(404);
    expect(result.body.toString()).toBe('not found');
  });

  it('an override may map a name to ::1', async () => {
    const result = await client.fetch(`http://mirror.test.example:${server.port}/ok`, {
      timeoutMs: 2000,
      maxBytes: 1000,
    });
    expect(result.status).toBe(200);
    expect(result.address).toBe('::1');
    expect(connect.hosts()).toEqual(['::1']);
  });

  it('never sends userinfo and reports the URL without it', async () => {
    const result = await client.fetch(`http://alice:secret@feeds.test.example:${server.port}/ok`, {
      timeoutMs: 2000,
      maxBytes: 1000,
    });
    expect(result.url).toBe(`${base}/ok`);
    expect(lastRequests(1)[0]?.headers.authorization).toBeUndefined();
  });

  it('asks for identity encoding and returns a compressed body as received', async () => {
    const result = await client.fetch(`${base}/gzip`, { timeoutMs: 2000, maxBytes: 1000 });
    expect(result.headers['content-encoding']).toBe('gzip');
    expect(result.body.subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
  });

  it('HEAD returns headers and an empty body', async () => {
    const result = await client.fetch(`${base}/ok`, {
      method: 'HEAD',
      timeoutMs: 2000,
      maxBytes: 0,
    });
    expect(result.status).toBe(200);
    expect(result.body.length).toBe(0);
    expect(lastRequests(1)[0]?.method).toBe('HEAD');
  });
});

describe('redirects', { timeout: 5000 }, () => {
  it('303 turns a POST into a GET without body', async () => {
    const result = await client.fetch(`${base}/see-other`, {
      method: 'POST',
      body: 'q=1',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      timeoutMs: 2000,
      maxBytes: 1000,
    });
    expect(JSON.parse(result.body.toString())).toEqual({ method: 'GET', body: '' });
    const [post, get] = lastRequests(2);
    expect(post?.method).toBe('POST');
    expect(post?.body).toBe('q=1');
    expect(get?.method).toBe('GET');
    expect(get?.headers['content-type']).toBeUndefined();
  });

  it('307 keeps the method and the body', async () => {
    const result = await client.fetch(`${base}/temporary`, {
      method: 'POST',
      body: new TextEncoder().encode('q=2'),
      timeoutMs: 2000,
      maxBytes: 1000,
    });
    expect(JSON.parse(result.body.toString())).toEqual({ method: 'POST', body: 'q=2' });
  });

  it('drops authorization and cookie when a redirect leaves the origin', async () => {
    const target = `http://mirror.test.example:${server.port}/ok`;
    await client.fetch(`${base}/redirect?to=${encodeURIComponent(target)}`, {
      headers: { Authorization: 'Bearer t', Cookie: 'a=b', 'X-Keep': '1' },
      timeoutMs: 2000,
      maxBytes: 1000,
    });
    const [first, second] = lastRequests(2);
    expect(first?.headers.authorization).toBe('Bearer t');
    expect(second?.headers.host).toBe(`mirror.test.example:${server.port}`);
    expect(second?.headers.authorization).toBeUndefined();
    expect(second?.headers.cookie).toBeUndefined();
    expect(second?.headers['x-keep']).toBe('1');
  });

  it('a redirect loop ends with too_many_redirects after maxRedirects', async () => {
    const before = server.requests.length;
    const error = await expectNetError(
      client.fetch(`${base}/loop`, { timeoutMs: 2000, maxBytes: 1000 }),
      'too_many_redirects',
    );
    expect(error.url).toBe(`${base}/loop`);
    expect(server.requests.length - before).toBe(6); // the request and 5 redirects followed
    await expectNetError(
      client.fetch(`${base}/loop`, { timeoutMs: 2000, maxBytes: 1000, maxRedirects: 0 }),
      'too_many_redirects',
    );
  });

  it('a 3xx without Location is a result', async () => {
    const result = await client.fetch(`${base}/redirect?status=300&to=`, {
      timeoutMs: 2000,
      maxBytes: 1000,
    });
    expect(result.status).toBe(300);
  });
});

describe('limits', { timeout: 5000 }, () => {
  it('refuses an announced Content-Length above maxBytes before reading, and hangs up', async () => {
    // The server announces 10 MB and sends nothing: waiting for the body would end in timeout.
    const error = await expectNetError(
      client.fetch(`${base}/announced-large`, { timeoutMs: 3000, maxBytes: 1000 }),
      'too_large',
    );
    expect(error.message).toContain(String(ANNOUNCED_BYTES));
    await server.announcedClosed();
  });

  it('stops reading a body without Content-Length as soon as it exceeds maxBytes', async () => {
    await expectNetError(
      client.fetch(`${base}/stream-large`, { timeoutMs: 3000, maxBytes: 100_000 }),
      'too_large',
    );
    const stream = server.streams.at(-1);
    await stream?.closed;
    expect(stream?.finished).toBe(false);
  });

  it('a response that never starts times out within the budget', async () => {
    const started = performance.now();
    await expectNetError(
      client.fetch(`${base}/stall`, { timeoutMs: 300, maxBytes: 1000 }),
      'timeout',
    );
    expect(performance.now() - started).toBeLessThan(300 + 500);
  });

  it('a body that stalls times out within the budget', async () => {
    const started = performance.now();
    await expectNetError(
      client.fetch(`${base}/stall-body`, { timeoutMs: 300, maxBytes: 1000 }),
      'timeout',
    );
    expect(performance.now() - started).toBeLessThan(300 + 500);
  });

  it('the budget covers every hop', async () => {
    const started = performance.now();
    await expectNetError(
      client.fetch(`${base}/redirect?to=${encodeURIComponent('/stall')}`, {
        timeoutMs: 300,
        maxBytes: 1000,
      }),
      'timeout',
    );
    expect(performance.now() - started).toBeLessThan(300 + 500);
  });

  it("a caller's abort rejects with the caller's reason", async () => {
    const controller = new AbortController();
    const pending = client.fetch(`${base}/stall`, {
      timeoutMs: 5000,
      maxBytes: 1000,
      signal: controller.signal,
    });
    const reason = new Error('caller gave up');
    setTimeout(() => {
      controller.abort(reason);
    }, 50);
    await expect(pending).rejects.toBe(reason);
  });

  it('refuses options it cannot honour', async () => {
    await expect(client.fetch(`${base}/ok`, { timeoutMs: 0, maxBytes: 1 })).rejects.toThrow(
      TypeError,
    );
    await expect(client.fetch(`${base}/ok`, { timeoutMs: 100, maxBytes: -1 })).rejects.toThrow(
      TypeError,
    );
    await expect(
      client.fetch(`${base}/ok`, { timeoutMs: 100, maxBytes: 1, headers: { Host: 'other' } }),
    ).rejects.toThrow(TypeError);
  });
});

describe('failures', { timeout: 5000 }, () => {
  it('a name that does not resolve is dns_failure', async () => {
    const dns = fakeDns({ 'empty.test.example': [] });
    const local = createHttpClient({ userAgent: USER_AGENT, lookup: dns.lookup });
    try {
      await expectNetError(
        local.fetch('http://nxdomain.test.example/', { timeoutMs: 1000, maxBytes: 1000 }),
        'dns_failure',
      );
      await expectNetError(
        local.fetch('http://empty.test.example/', { timeoutMs: 1000, maxBytes: 1000 }),
        'dns_failure',
      );
    } finally {
      await local.close();
    }
  });

  it('a resolver that never answers times out within the budget', async () => {
    const local = createHttpClient({
      userAgent: USER_AGENT,
      lookup: fakeDns({ 'slow.test.example': 'hang' }).lookup,
    });
    const started = performance.now();
    try {
      await expectNetError(
        local.fetch('http://slow.test.example/', { timeoutMs: 300, maxBytes: 1000 }),
        'timeout',
      );
      expect(performance.now() - started).toBeLessThan(300 + 500);
    } finally {
      await local.close();
    }
  });

  it('connection refused is connect_failed', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const local = createHttpClient({
      userAgent: USER_AGENT,
      resolveOverrides: [{ host: 'closed.test.example', port, address: '127.0.0.1' }],
    });
    try {
      const error = await expectNetError(
        local.fetch(`http://closed.test.example:${port}/`, { timeoutMs: 2000, maxBytes: 1000 }),
        'connect_failed',
      );
      expect(error.url).toBe(`http://closed.test.example:${port}/`);
    } finally {
      await local.close();
    }
  });

  it.each(['/hangup', '/short-body', '/huge-header'])(
    '%s (the peer breaks HTTP) is protocol_error',
    async (path) => {
      const error = await expectNetError(
        client.fetch(`${base}${path}`, { timeoutMs: 2000, maxBytes: 1_000_000 }),
        'protocol_error',
      );
      expect(error.url).toBe(`${base}${path}`);
    },
  );

  it('a closed client refuses to fetch', async () => {
    const local = createHttpClient({ userAgent: USER_AGENT });
    await local.close();
    await expect(local.fetch(`${base}/ok`, { timeoutMs: 100, maxBytes: 1 })).rejects.toThrow(
      /closed/,
    );
  });

  it('rejects invalid resolve overrides at creation', () => {
    expect(() =>
      createHttpClient({
        userAgent: USER_AGENT,
        resolveOverrides: [{ host: 'a.test.example', port: 0, address: '127.0.0.1' }],
      }),
    ).toThrow(TypeError);
  });
});

describe('DNS pinning (rebinding)', { timeout: 5000 }, () => {
  it('connects only to the address it checked; a later answer is checked again', async () => {
    // First answer public, every later answer loopback: the classic rebinding setup.
    const dns = fakeDns({
      'rebind.test.example': (call) => (call === 1 ? ['93.184.216.34'] : ['127.0.0.1']),
    });
    const local = createHttpClient({ userAgent: USER_AGENT, lookup: dns.lookup });
    const connectionsBefore = server.connections;
    const url = `http://rebind.test.example:${server.port}/ok`;
    try {
      // The public address is "refused" by the connect spy (no packet leaves the machine).
      const first = await expectNetError(
        local.fetch(url, { timeoutMs: 1000, maxBytes: 1000 }),
        'connect_failed',
      );
      expect(first.url).toBe(url);
      expect(connect.hosts()).toEqual(['93.184.216.34']);
      expect(dns.calls.get('rebind.test.example')).toBe(1);

      await expectNetError(
        local.fetch(url, { timeoutMs: 1000, maxBytes: 1000 }),
        'blocked_address',
      );
      expect(dns.calls.get('rebind.test.example')).toBe(2);
      expect(connect.hosts()).toEqual(['93.184.216.34']);
      expect(server.connections).toBe(connectionsBefore);
    } finally {
      await local.close();
    }
  });

  it('an error is a NetError with code and url', async () => {
    const error = await client
      .fetch('not a url', { timeoutMs: 100, maxBytes: 1 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetError);
    expect(error).toMatchObject({ name: 'NetError', code: 'invalid_url', url: 'not a url' });
  });
});
