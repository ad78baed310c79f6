/**
 * The page budget bounds every outbound step of a fresh verdict (issue 14, finding 12): DNS,
 * connect, TLS handshake, body, a redirect chain, and the RDAP lookups of layer 2 that run beside
 * the page. Each case makes one step hang far longer than the budget (500 ms) on loopback and
 * asserts the verdict comes back well within the step's own limits (the 10 s connect timeout,
 * the 800 ms RDAP wait) with the documented page failure `timeout`.
 *
 * A dropped SYN is simulated the way it happens: a listening socket whose accept queue is full
 * (its process stopped with SIGSTOP, the queue filled by a few connections), so the kernel drops
 * further SYNs and the client retransmits until its own timeout (Linux, `tcp_abort_on_overflow`
 * 0, the default).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { type AddressInfo, connect, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { loadConfig } from '../../src/config/config.js';
import { defaultEngine } from '../../src/engine-data/load-engine-data.js';
import { IntelLayer } from '../../src/intel/intel-layer.js';
import { createRdapBootstrap } from '../../src/intel/rdap/rdap-bootstrap.js';
import { createRdapClient } from '../../src/intel/rdap/rdap-client.js';
import { createHttpClient, type HttpClient } from '../../src/net/index.js';
import { createPageLayer } from '../../src/page/page-layer.js';
import { buildDetection } from '../../src/server/build-detection.js';
import { openSqliteStore } from '../../src/store/sqlite/open-sqlite-store.js';
import { pageService, type PageServiceHarness } from '../helpers/page-service.js';
import { testClock } from '../helpers/test-app.js';

const BUDGET_MS = 500;
/** Far below every hang here (10 s connect timeout, 30 s silences) and far above the budget. */
const BOUND_MS = 5000;

let blackhole: { port: number; child: ChildProcess; fillers: Socket[] };
let silentTcp: Server;
const silentSockets = new Set<Socket>();
let web: HttpServer;
const timers = new Set<NodeJS.Timeout>();

const portOf = (server: Server | HttpServer): number => (server.address() as AddressInfo).port;
const later = (ms: number, run: () => void): void => {
  const timer = setTimeout(() => {
    timers.delete(timer);
    run();
  }, ms);
  timers.add(timer);
};

/** A listener in a stopped process with a full accept queue: SYNs to it are dropped. */
async function startBlackhole(): Promise<typeof blackhole> {
  const child = spawn(
    process.execPath,
    [
      '-e',
      "require('net').createServer().listen({ port: 0, host: '127.0.0.1', backlog: 1 }, function () { process.stdout.write(this.address().port + '\\n'); })",
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const port = await new Promise<number>((resolve) => {
    child.stdout.once('data', (data: Buffer) => {
      resolve(Number(data.toString().trim()));
    });
  });
  child.kill('SIGSTOP');
  const fillers = Array.from({ length: 4 }, () => {
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => undefined);
    return socket;
  });
  // Let the fillers' handshakes take the queue before a test connects.
  await new Promise((resolve) => setTimeout(resolve, 200));
  return { port, child, fillers };
}

beforeAll(async () => {
  blackhole = await startBlackhole();
  // Accepts TCP and never says a word: a TLS handshake that never completes.
  silentTcp = createServer((socket) => {
    silentSockets.add(socket);
    socket.on('close', () => silentSockets.delete(socket));
  });
  await new Promise<void>((resolve) => silentTcp.listen(0, '127.0.0.1', resolve));
  web = createHttpServer((req, res) => {
    const host = (req.headers.host ?? '').split(':')[0] ?? '';
    if (host === 'trickle.linkguard-test.net') {
      // Headers at once, then one byte every 100 ms for ever.
      res.writeHead(200, { 'content-type': 'text/html' });
      const drip = (): void => {
        if (res.destroyed) return;
        res.write('<');
        later(100, drip);
      };
      drip();
      return;
    }
    const hop = /^\/hop\/(\d+)$/.exec(req.url ?? '');
    if (host === 'chain.linkguard-test.net' && hop !== null) {
      // Each hop of the chain takes 200 ms: five of them eat the budget twice over.
      later(200, () => {
        res.writeHead(302, { location: `/hop/${Number(hop[1]) + 1}` });
        res.end();
      });
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<html><head><title>Notes</title></head><body><p>Hello.</p></body></html>');
  });
  await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
});

afterAll(async () => {
  for (const timer of timers) clearTimeout(timer);
  blackhole.child.kill('SIGKILL');
  for (const socket of blackhole.fillers) socket.destroy();
  web.closeAllConnections();
  await new Promise((resolve) => web.close(resolve));
  for (const socket of silentSockets) socket.destroy();
  await new Promise((resolve) => silentTcp.close(resolve));
});

describe('every step of the page fetch stops at the page budget', { timeout: 20_000 }, () => {
  let h: PageServiceHarness | undefined;
  // Closing waits for a connect attempt left behind to end by its own 10 s timeout.
  afterEach(async () => {
    await h?.close();
    h = undefined;
  }, 20_000);

  async function harness(): Promise<PageServiceHarness> {
    const netResolve = [
      `blackhole.linkguard-test.net:${blackhole.port}:127.0.0.1`,
      `tls-silent.linkguard-test.net:${portOf(silentTcp)}:127.0.0.1`,
      `trickle.linkguard-test.net:${portOf(web)}:127.0.0.1`,
      `chain.linkguard-test.net:${portOf(web)}:127.0.0.1`,
    ].join(',');
    h = await pageService(
      { NET_RESOLVE: netResolve, PAGE_BUDGET_MS: String(BUDGET_MS) },
      {
        // A resolver that never answers for this one name (getaddrinfo stuck on a dead server).
        lookup: (name) =>
          name === 'slow-dns.linkguard-test.net'
            ? new Promise(() => undefined)
            : Promise.resolve([{ address: '127.0.0.1', family: 4 }]),
      },
    );
    return h;
  }

  it.each([
    [
      'a connect whose SYN is dropped',
      () => `http://blackhole.linkguard-test.net:${blackhole.port}/`,
    ],
    [
      'a TLS handshake that never ends',
      () => `https://tls-silent.linkguard-test.net:${portOf(silentTcp)}/`,
    ],
    ['a name that never resolves', () => 'http://slow-dns.linkguard-test.net/'],
    ['a body trickled byte by byte', () => `http://trickle.linkguard-test.net:${portOf(web)}/`],
    [
      'a redirect chain that eats the budget',
      () => `http://chain.linkguard-test.net:${portOf(web)}/hop/0`,
    ],
  ])(
    '%s: the verdict comes within the budget, page not analysed (timeout)',
    async (_case, urlOf) => {
      const s = await harness();
      const started = performance.now();
      const verdict = await s.verdictOf(urlOf());
      expect(performance.now() - started).toBeLessThan(BOUND_MS);
      expect(verdict.details.matched_patterns).toContain('page_not_analysed:timeout');
      expect(verdict.reason).toMatch(/did not answer in time/);
    },
  );
});

describe('layer 2 beside the page stops at the page budget too', { timeout: 20_000 }, () => {
  let registry: HttpServer;
  let http: HttpClient;
  let dir: string;

  beforeAll(async () => {
    // An RDAP registry that accepts every query and never answers.
    registry = createHttpServer(() => undefined);
    await new Promise<void>((resolve) => registry.listen(0, '127.0.0.1', resolve));
    dir = mkdtempSync(join(tmpdir(), 'linkguard-budget-'));
  });
  afterAll(async () => {
    await http.close();
    registry.closeAllConnections();
    await new Promise((resolve) => registry.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  it('a hanging RDAP registry, for the submitted and the landing domain, does not outlast the budget', async () => {
    const engine = defaultEngine();
    const store = openSqliteStore(join(dir, 'lg.db'));
    const clock = testClock();
    http = createHttpClient({
      userAgent: 'linkguard-test',
      resolveOverrides: [
        { host: 'rdap.test.example', port: portOf(registry), address: '127.0.0.1' },
      ],
    });
    const intel = new IntelLayer({
      engine,
      store: store.intel,
      // The longest wait RDAP allows a caller (800 ms), more than the page budget.
      domainAge: createRdapClient({
        http,
        clock,
        timeoutMs: 800,
        bootstrap: createRdapBootstrap({
          version: '1.0',
          publication: '2026-01-01T00:00:00Z',
          services: [
            [
              ['xyz'],
              ['http://rdap.test.example/'.replace('example/', `example:${portOf(registry)}/`)],
            ],
          ],
        }),
      }),
    });
    const port = portOf(web);
    const config = loadConfig({
      DATABASE_URL: `sqlite:${join(dir, 'lg.db')}`,
      PAGE_ANALYSIS: 'on',
      PAGE_BUDGET_MS: String(BUDGET_MS),
      NET_RESOLVE: `quiet-shortlink.xyz:${port}:127.0.0.1,quiet-landing-notes.xyz:${port}:127.0.0.1`,
    });
    const page = createPageLayer(config);
    if (page === null) throw new Error('page layer is off');
    const detection = await buildDetection({ config, store, engine, clock, intel, page });
    try {
      // The chain host redirects; here the short link lands on another registrable domain, so
      // both domains' ages are asked, one after the page.
      let landed = 0;
      web.removeAllListeners('request');
      web.on('request', (req, res) => {
        if ((req.headers.host ?? '').startsWith('quiet-landing-notes.xyz')) landed += 1;
        if ((req.headers.host ?? '').startsWith('quiet-shortlink.xyz')) {
          res.writeHead(302, { location: `http://quiet-landing-notes.xyz:${port}/` });
          res.end();
          return;
        }
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end('<html><head><title>Notes</title></head><body><p>Hello.</p></body></html>');
      });
      const { service } = detection;
      const started = performance.now();
      const verdict = await service.judge(service.parse(`http://quiet-shortlink.xyz:${port}/`));
      const elapsed = performance.now() - started;
      // Unbounded, the two RDAP waits come one after the other: 2 × 800 ms.
      expect(elapsed).toBeLessThan(1200);
      // The page was read where it landed.
      expect(landed).toBe(1);
      expect(verdict.reason).not.toMatch(/Page not analysed/);
    } finally {
      await detection.close();
      await page.close();
      await store.close();
    }
  });
});
