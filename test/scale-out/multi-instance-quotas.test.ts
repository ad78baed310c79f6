/**
 * Scale-out, access: three real `linkguard serve` processes over one PostgreSQL database. A
 * hard-capped key's monthly allowance and a Premium license's 1,000 checks are counters in the
 * database, spent by one conditional statement each, so concurrent requests on every instance
 * together never exceed them; a key or license revoked with the CLI is refused by every instance
 * at its next request, since no instance caches credentials. With the same REDIS_URL, the per-IP
 * budget of callers without a key is one count in Redis: the 61st keyless request in a minute from
 * one IP is refused whichever instance it reaches.
 */
import type { Redis } from 'ioredis';
import type * as oauth from 'oauth4webapi';
import { type Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { PREMIUM_MONTHLY_CHECKS } from '../../src/access/license.js';
import { monthOf, systemClock } from '../../src/clock.js';
import { openStore } from '../../src/store/open-store.js';
import { discover, obtainTokens, registerClient } from '../helpers/oauth4webapi-client.js';
import { queryDatabase, usePostgresDatabase } from '../helpers/postgres.js';
import {
  adminClient,
  deleteKeysUnder,
  ensureRedis,
  keysUnder,
  REDIS_HOST,
  REDIS_PORT,
  uniquePrefix,
} from '../helpers/redis.js';
import { jsonOut, runCli } from '../helpers/run-cli.js';
import {
  freePorts,
  httpAgent,
  type HttpAnswer,
  postDetect,
  roundRobin,
  type ServerInstance,
  startInstances,
  statusCounts,
  stopInstances,
  useServerInstances,
} from '../helpers/server-instances.js';

const INSTANCES = 3;
const databaseUrl = usePostgresDatabase();
const servers = useServerInstances();

let instances: ServerInstance[];
let agent: Agent;
/** The origin every instance calls its own (one service behind a load balancer). */
let publicBaseUrl: string;
let as: oauth.AuthorizationServer;
let client: oauth.Client;

beforeAll(async () => {
  const ports = await freePorts(INSTANCES);
  // OAuth tokens are bound to `${PUBLIC_BASE_URL}/mcp`: instances behind one load balancer share
  // it. Here it is the first instance's address, so a browser and client can reach it directly.
  publicBaseUrl = `http://127.0.0.1:${String(ports[0])}`;
  instances = servers.track(
    await startInstances(INSTANCES, {
      ports,
      env: { DATABASE_URL: databaseUrl(), PUBLIC_BASE_URL: publicBaseUrl },
    }),
  );
  agent = httpAgent();
  as = await discover(publicBaseUrl);
  ({ client } = await registerClient(as, { client_name: 'scale-out test' }));
}, 90_000);

afterAll(async () => {
  await agent.close();
});

const on = (i: number): string => roundRobin(instances, i);
const cliEnv = (): Record<string, string> => ({ DATABASE_URL: databaseUrl() });

/** `linkguard keys create … --json` with the instances' DATABASE_URL; @returns id and raw key. */
async function createKey(args: string[]): Promise<{ id: string; key: string }> {
  const result = await runCli(['keys', 'create', '--json', ...args], cliEnv());
  expect(result.code, result.stderr).toBe(0);
  return jsonOut(result) as { id: string; key: string };
}

/** `linkguard licenses create --json`, then an `mcp_at_` token for it through the sign-in page. */
async function licenseWithToken(): Promise<{ id: string; token: string }> {
  const result = await runCli(['licenses', 'create', '--name', 'Jane Doe', '--json'], cliEnv());
  expect(result.code, result.stderr).toBe(0);
  const license = jsonOut(result) as { id: string; license: string };
  const tokens = await obtainTokens(as, client, license.license, `${publicBaseUrl}/mcp`);
  return { id: license.id, token: tokens.access_token };
}

const bearer = (secret: string): Record<string, string> => ({ authorization: `Bearer ${secret}` });

interface ToolAnswer {
  status: number;
  body: {
    result?: { isError?: boolean; structuredContent?: Record<string, unknown> };
    error?: unknown;
  };
}

/** `tools/call` of `name` on `<base>/mcp` with a bearer token, as raw JSON-RPC. */
async function callTool(
  base: string,
  token: string,
  name: string,
  args: Record<string, unknown>,
): Promise<ToolAnswer> {
  const response = await request(`${base}/mcp`, {
    method: 'POST',
    dispatcher: agent,
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...bearer(token),
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name, arguments: args },
    }),
  });
  return { status: response.statusCode, body: (await response.body.json()) as ToolAnswer['body'] };
}

/** URLs judged by the rules alone (no page, no RDAP), all answered quickly. */
const URLS = ['https://example.com/', 'https://paypal.com/', 'github.com', 'https://paypa1.net/'];
const urlOf = (i: number): string => URLS[i % URLS.length] ?? 'example.com';

describe('monthly allowances across instances', () => {
  it('a hard-capped key of 50 a month: 200 concurrent requests on 3 instances → exactly 50 served', async () => {
    const allowance = 50;
    const requests = 200;
    const { id, key } = await createKey([
      '--name',
      'capped',
      '--monthly-allowance',
      String(allowance),
      '--hard-cap',
    ]);

    const answers = await Promise.all(
      Array.from({ length: requests }, (_, i) => postDetect(agent, on(i), urlOf(i), bearer(key))),
    );

    expect(statusCounts(answers)).toEqual({ 200: allowance, 429: requests - allowance });
    for (const answer of answers.filter((a: HttpAnswer) => a.status === 429)) {
      expect(answer.body).toMatchObject({
        status: 429,
        error: 'rate_limited',
        reason: 'monthly_allowance',
      });
      expect(Number(answer.headers['retry-after'])).toBeGreaterThan(0);
    }
    const month = monthOf(systemClock.now());
    expect(
      await queryDatabase(
        databaseUrl(),
        'SELECT count::int AS count FROM usage_monthly WHERE key_id = $1 AND month = $2',
        [id, month],
      ),
    ).toEqual([{ count: allowance }]);
    // The usage log (buffered per instance, written within ~100 ms) agrees: `keys usage` counts
    // the served requests only.
    await expect
      .poll(
        async () => {
          const usage = await runCli(['keys', 'usage', id, '--json'], cliEnv());
          return (jsonOut(usage) as { requests: number }[])[0]?.requests;
        },
        { timeout: 10_000, interval: 300 },
      )
      .toBe(allowance);
    // One more request, on any instance, is still refused.
    expect((await postDetect(agent, on(2), urlOf(0), bearer(key))).status).toBe(429);
  });

  it(`a Premium license at ${String(PREMIUM_MONTHLY_CHECKS - 50)} of ${String(PREMIUM_MONTHLY_CHECKS)}: check_url and check_urls_batch raced on 3 instances never pass ${String(PREMIUM_MONTHLY_CHECKS)}`, async () => {
    const { id, token } = await licenseWithToken();
    const month = monthOf(systemClock.now());
    const left = 50;
    // Spend most of the month's checks up front through the store's own reservation, the same
    // statement a tool call runs (1,000 tool calls would only make the test slow).
    const store = await openStore({ kind: 'postgres', url: databaseUrl() });
    try {
      const spent = await store.licenses.reserveChecks(
        id,
        month,
        PREMIUM_MONTHLY_CHECKS - left,
        PREMIUM_MONTHLY_CHECKS,
      );
      expect(spent).toEqual({ ok: true, used: PREMIUM_MONTHLY_CHECKS - left });
    } finally {
      await store.close();
    }

    // 60 single checks and 20 batches of 3: 120 URLs asked for, 50 checks left.
    const singles = Array.from({ length: 60 }, (_, i) =>
      callTool(on(i), token, 'check_url', { url: urlOf(i) }),
    );
    const batches = Array.from({ length: 20 }, (_, i) =>
      callTool(on(i + 1), token, 'check_urls_batch', {
        urls: [urlOf(i), urlOf(i + 1), urlOf(i + 2)],
      }),
    );
    const [singleAnswers, batchAnswers] = await Promise.all([
      Promise.all(singles),
      Promise.all(batches),
    ]);

    for (const answer of [...singleAnswers, ...batchAnswers]) expect(answer.status).toBe(200);
    const servedSingles = singleAnswers.filter(
      (a) => a.body.result?.isError === false && a.body.result.structuredContent?.verdict,
    ).length;
    const refusedSingles = singleAnswers.filter((a) => a.body.result?.isError === true).length;
    expect(servedSingles + refusedSingles).toBe(singles.length);
    // A batch is reserved whole: all three served, or refused as one error result spending
    // nothing (README, "Premium licenses").
    let servedInBatches = 0;
    for (const answer of batchAnswers) {
      const result = answer.body.result;
      if (result?.isError === true) {
        expect(result.structuredContent).toMatchObject({
          error: { code: 'rate_limited' },
          agent_action: 'ask_human',
        });
        continue;
      }
      const entries = result?.structuredContent?.results as Record<string, unknown>[] | undefined;
      expect(entries?.filter((entry) => 'verdict' in entry)).toHaveLength(3);
      servedInBatches += 3;
    }

    // Demand (120) exceeds what was left, so exactly what was left is served, never more: 60
    // singles cannot all be served, and a single is refused only when nothing is left.
    expect(servedSingles + servedInBatches).toBe(left);
    const usage = await runCli(['licenses', 'usage', '--license', id, '--json'], cliEnv());
    expect(jsonOut(usage)).toMatchObject([{ id, checks: PREMIUM_MONTHLY_CHECKS, remaining: 0 }]);
    const after = await callTool(on(0), token, 'check_url', { url: urlOf(0) });
    expect(after.body.result?.isError).toBe(true);
  });
});

describe('revocation through the CLI', () => {
  it('a revoked key is refused by every instance at its next request', async () => {
    const { id, key } = await createKey(['--name', 'to be revoked']);
    for (const instance of instances) {
      expect((await postDetect(agent, instance.url, urlOf(0), bearer(key))).status).toBe(200);
      // The MCP connector takes the same key.
      const tool = await callTool(instance.url, key, 'check_url', { url: urlOf(1) });
      expect(tool.body.result?.isError).toBe(false);
    }

    const revoked = await runCli(['keys', 'revoke', id], cliEnv());
    expect(revoked.code, revoked.stderr).toBe(0);

    for (const instance of instances) {
      const answer = await postDetect(agent, instance.url, urlOf(0), bearer(key));
      expect(answer.status).toBe(401);
      expect(answer.body).toMatchObject({ error: 'invalid_api_key' });
      expect((await callTool(instance.url, key, 'check_url', { url: urlOf(1) })).status).toBe(401);
    }
  });

  it("a revoked license's access token is refused by every instance at its next call", async () => {
    const { id, token } = await licenseWithToken();
    for (const instance of instances) {
      const tool = await callTool(instance.url, token, 'check_url', { url: urlOf(2) });
      expect(tool.status).toBe(200);
      expect(tool.body.result?.isError).toBe(false);
    }

    const revoked = await runCli(['licenses', 'revoke', id], cliEnv());
    expect(revoked.code, revoked.stderr).toBe(0);

    for (const instance of instances) {
      expect((await callTool(instance.url, token, 'check_url', { url: urlOf(2) })).status).toBe(
        401,
      );
    }
  });
});

describe('per-IP public rate limit shared through Redis across instances', () => {
  const SHARED_INSTANCES = 2;
  let admin: Redis;

  beforeAll(async () => {
    await ensureRedis();
    admin = adminClient();
    await admin.connect();
  });

  afterAll(() => {
    admin.disconnect();
  });

  it(
    'the 61st keyless request in a minute from one IP is refused whichever instance it reaches',
    { timeout: 60_000 },
    async () => {
      // Instances of their own: the file's instances have no REDIS_URL, and the revocation tests
      // spend their in-process per-IP budgets (a refused key counts against the caller's IP). Two
      // are enough to show one count, and start faster next to the file's three.
      const prefix = uniquePrefix();
      const shared = servers.track(
        await startInstances(SHARED_INSTANCES, {
          env: {
            DATABASE_URL: databaseUrl(),
            REDIS_URL: `redis://${REDIS_HOST}:${String(REDIS_PORT)}`,
            REDIS_KEY_PREFIX: prefix,
            // The default public budget (60/min), whatever the environment running the tests says.
            RATE_LIMIT_PUBLIC_PER_MINUTE: '60',
          },
        }),
      );
      try {
        // One request after the other, round-robin: every one comes from 127.0.0.1. Without a key
        // or a proof the answer is the 402 challenge, and the challenge counts against the IP.
        const remaining: unknown[] = [];
        for (let i = 0; i < 60; i++) {
          const answer = await postDetect(agent, roundRobin(shared, i), urlOf(i));
          expect(answer.status, JSON.stringify(answer.body)).toBe(402);
          remaining.push(answer.headers['ratelimit-remaining']);
        }

        // The 61st, on each instance, is refused. Counted per instance (no REDIS_URL, or Redis
        // unreachable) each would allow 60: each has seen only 30, so it would be another 402.
        for (const instance of shared) {
          const refused = await postDetect(agent, instance.url, urlOf(0));
          expect(refused.status, `instance ${String(instance.index)}`).toBe(429);
          expect(refused.body).toMatchObject({ status: 429, error: 'rate_limited' });
          const retryAfter = refused.headers['retry-after'];
          expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
          expect(Number(retryAfter)).toBeLessThanOrEqual(60);
          expect(refused.headers).toMatchObject({
            'ratelimit-limit': '60',
            'ratelimit-remaining': '0',
            'ratelimit-reset': retryAfter,
            'ratelimit-policy': '"per-ip";q=60;w=60',
            ratelimit: `"per-ip";r=0;t=${String(retryAfter)}`,
          });
        }
        // One count for all instances: 59, 58, …, 0 whichever answered (per instance, the second
        // request would have shown 59 again).
        expect(remaining).toEqual(Array.from({ length: 60 }, (_, i) => String(59 - i)));
        // The count is the one Redis key of this IP under the test's prefix (refusals count too).
        expect(await keysUnder(admin, prefix)).toEqual([`${prefix}rl:per-ip:ip:127.0.0.1`]);
        expect(await admin.get(`${prefix}rl:per-ip:ip:127.0.0.1`)).toBe(
          String(60 + SHARED_INSTANCES),
        );
      } finally {
        await stopInstances(shared);
        await deleteKeysUnder(admin, prefix);
      }
    },
  );
});
