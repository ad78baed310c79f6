/**
 * TRUST_PROXY (README "Configuration", docs/decisions.md, decision 134): whatever it is set to,
 * a client cannot choose the address its per-source budgets count by writing X-Forwarded-For.
 * Real servers on loopback: the app, a reverse proxy in front of it that appends the peer's
 * address to X-Forwarded-For (as nginx's `$proxy_add_x_forwarded_for` does), and clients bound
 * to their own loopback addresses (127.0.0.2, 127.0.0.3). The per-IP budget is set to one
 * request a minute, so a second request from the same source is 429 and one from another source
 * is 402: that is how the test sees which address the server counted.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

import { Agent, request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';

import { ConfigError, loadConfig } from '../../src/config/config.js';
import { startListeningApp } from '../helpers/oauth-app.js';
import { useTestApp } from '../helpers/test-app.js';

const start = useTestApp();

const agents: Agent[] = [];
const servers: Server[] = [];

afterEach(async () => {
  for (const agent of agents.splice(0)) await agent.close();
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise<void>((resolve) =>
      server.close(() => {
        resolve();
      }),
    );
  }
});

/** A client whose connections leave from `localAddress`. */
function clientAt(localAddress: string): Agent {
  const agent = new Agent({ localAddress, connect: { timeout: 5_000 } });
  agents.push(agent);
  return agent;
}

/** POST /v1/detect to `origin` from `agent`, with an X-Forwarded-For the client wrote. */
async function detectVia(origin: string, agent: Agent, forwardedFor: string): Promise<number> {
  const response = await request(`${origin}/v1/detect`, {
    method: 'POST',
    dispatcher: agent,
    headers: { 'content-type': 'application/json', 'x-forwarded-for': forwardedFor },
    body: JSON.stringify({ url: 'https://paypal.com/' }),
    headersTimeout: 10_000,
    bodyTimeout: 10_000,
  });
  await response.body.text();
  return response.statusCode;
}

/** A reverse proxy on 127.0.0.1 in front of `upstream` that appends the peer to X-Forwarded-For. */
async function appendingProxy(upstream: string): Promise<string> {
  const upstreamAgent = clientAt('127.0.0.1');
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const sent = req.headers['x-forwarded-for'];
      const peer = req.socket.remoteAddress ?? '';
      const forwarded = sent === undefined ? peer : `${String(sent)}, ${peer}`;
      request(`${upstream}${req.url ?? '/'}`, {
        method: 'POST',
        dispatcher: upstreamAgent,
        headers: {
          'content-type': req.headers['content-type'] ?? 'application/json',
          'x-forwarded-for': forwarded,
        },
        body: Buffer.concat(chunks),
      }).then(
        async (answer) => {
          res.writeHead(answer.statusCode, { 'content-type': 'application/json' });
          res.end(await answer.body.text());
        },
        () => {
          res.writeHead(502).end();
        },
      );
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return `http://127.0.0.1:${String(port)}`;
}

const ONE_PER_MINUTE = { RATE_LIMIT_PUBLIC_PER_MINUTE: '1' };

describe('X-Forwarded-For cannot choose the client address', () => {
  it('TRUST_PROXY unset: a direct client writing two addresses is one source', async () => {
    const { base } = await startListeningApp(start, { env: ONE_PER_MINUTE });
    const client = clientAt('127.0.0.2');
    expect(await detectVia(base, client, '198.51.100.1')).toBe(402);
    expect(await detectVia(base, client, '198.51.100.2')).toBe(429);
    // Another real address is another source.
    expect(await detectVia(base, clientAt('127.0.0.3'), '198.51.100.1')).toBe(402);
  });

  it('TRUST_PROXY=1 behind one appending proxy: the proxy’s entry counts, not the client’s', async () => {
    const { base } = await startListeningApp(start, {
      env: { ...ONE_PER_MINUTE, TRUST_PROXY: '1' },
    });
    const proxy = await appendingProxy(base);
    const client = clientAt('127.0.0.2');
    expect(await detectVia(proxy, client, '198.51.100.1')).toBe(402);
    expect(await detectVia(proxy, client, '198.51.100.2')).toBe(429);
    // The proxy is trusted: a second client behind it is counted by its own address.
    expect(await detectVia(proxy, clientAt('127.0.0.3'), '198.51.100.1')).toBe(402);
  });

  it('TRUST_PROXY=<list>: only a listed peer is believed; a direct client is its socket', async () => {
    const { base } = await startListeningApp(start, {
      env: { ...ONE_PER_MINUTE, TRUST_PROXY: '127.0.0.1, 10.0.0.0/8, ::1' },
    });
    // 127.0.0.2 is not a listed proxy: what it writes is ignored.
    const direct = clientAt('127.0.0.2');
    expect(await detectVia(base, direct, '198.51.100.1')).toBe(402);
    expect(await detectVia(base, direct, '198.51.100.2')).toBe(429);
    // Through the listed proxy, each client counts by the address the proxy saw.
    const proxy = await appendingProxy(base);
    const other = clientAt('127.0.0.3');
    expect(await detectVia(proxy, other, '127.0.0.2')).toBe(402);
    expect(await detectVia(proxy, other, '198.51.100.9')).toBe(429);
  });
});

describe('TRUST_PROXY values', () => {
  it.each([
    [undefined, false],
    ['false', false],
    ['0', false],
    ['2', 2],
    ['10.0.0.5', ['10.0.0.5']],
    ['10.0.0.0/8, 2001:db8::/32,loopback', ['10.0.0.0/8', '2001:db8::/32', 'loopback']],
  ])('%s → %j', (value, expected) => {
    const env = value === undefined ? {} : { TRUST_PROXY: value };
    expect(loadConfig(env).trustProxy).toEqual(expected);
  });

  it.each(['true', '10.0.0.256', '10.0.0.0/33', 'proxy.example', '::::', '10.1', '99'])(
    '%s is refused at start-up',
    (value) => {
      expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(ConfigError);
    },
  );
});
