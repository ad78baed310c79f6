/**
 * Scale-out, faults: real `linkguard serve` processes over one PostgreSQL database, reached
 * through a loopback TCP proxy the test can cut, with real Solana payments on Surfpool.
 *
 * - PostgreSQL refusing connections ("stopped") or swallowing them ("unreachable"): every
 *   request that needs the store is 503 `service_unavailable` / `store_unavailable` with
 *   `Retry-After`, nothing is claimed or spent, and the same proof and key are served once the
 *   database is back. The machine's PostgreSQL is shared with other test files running in
 *   parallel, so it is never stopped: the proxy stands in for it.
 * - An instance killed with SIGKILL in the middle of claims: each nonce is either consumed with
 *   its claim row, or neither, and then still pays for its request on another instance.
 * - Redis out of reach (REDIS_URL through a loopback proxy the test cuts; the machine's Redis is
 *   shared with other test files, so it is never stopped): requests with and without a key are
 *   still served, on each instance's in-process limits, which still refuse at their budget; each
 *   instance logs the fallback once (warn) and, once Redis is back, the recovery once, never the
 *   Redis password; then the instances count together again.
 */
import { type Address, generateKeyPairSigner } from '@solana/kit';
import type { Redis } from 'ioredis';
import type { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type RpcProxy, startRpcProxy } from '../../scripts/local-chains/index.js';
import type { SolanaProof } from '../../src/payments/payment-proof.js';
import { challengeNonce, paySolana, proofHeaders } from '../helpers/http-payments.js';
import { useLocalSolana } from '../helpers/local-chain-hooks.js';
import { ONE_USDC } from '../helpers/payment-values.js';
import { POSTGRES_ADMIN_URL, queryDatabase, usePostgresDatabase } from '../helpers/postgres.js';
import {
  adminClient,
  deleteKeysUnder,
  ensureRedis,
  keysUnder,
  type RedisProxy,
  redisProxy,
  uniquePrefix,
} from '../helpers/redis.js';
import { jsonOut, runCli } from '../helpers/run-cli.js';
import {
  httpAgent,
  type HttpAnswer,
  kill9,
  postDetect,
  roundRobin,
  type ServerInstance,
  startInstances,
  stopInstances,
  useServerInstances,
} from '../helpers/server-instances.js';

const solana = useLocalSolana();
const databaseUrl = usePostgresDatabase();
const servers = useServerInstances();

let proxy: RpcProxy;
let instances: ServerInstance[];
let agent: Agent;
let recipient: Address;

beforeAll(async () => {
  // A plain TCP proxy (the one the chain tests cut RPCs with) in front of PostgreSQL: `down`
  // resets every connection and refuses new ones, `hang` accepts and never answers.
  const server = new URL(POSTGRES_ADMIN_URL);
  proxy = await startRpcProxy(`http://${server.hostname}:${server.port || '5432'}`);
  const proxied = new URL(databaseUrl());
  proxied.host = new URL(proxy.url).host;
  recipient = (await generateKeyPairSigner()).address;
  instances = servers.track(
    await startInstances(2, {
      env: {
        DATABASE_URL: proxied.toString(),
        SOLANA_RECIPIENT: recipient,
        SOLANA_RPC_URL: solana.rpcUrl,
        // All requests come from 127.0.0.1: the per-IP limit (60/min) must not decide them.
        RATE_LIMIT_PUBLIC_PER_MINUTE: '1000000',
      },
    }),
  );
  agent = httpAgent(32);
}, 90_000);

afterAll(async () => {
  await agent.close();
  await proxy.close();
});

const cliEnv = (): Record<string, string> => ({ DATABASE_URL: databaseUrl() });
const bearer = (secret: string): Record<string, string> => ({ authorization: `Bearer ${secret}` });
const URL_TO_CHECK = 'https://example.com/';

/** What the database (read directly, not through the proxy) holds for `nonce`. */
async function nonceState(nonce: string): Promise<{ consumed: boolean; claims: number }> {
  const [row] = await queryDatabase<{ consumed: boolean; claims: number }>(
    databaseUrl(),
    `SELECT n.consumed_at IS NOT NULL AS consumed,
       (SELECT count(*)::int FROM payment_claims AS c WHERE c.nonce = n.nonce) AS claims
     FROM payment_nonces AS n WHERE n.nonce = $1`,
    [nonce],
  );
  if (row === undefined) throw new Error(`nonce ${nonce} is not in the database`);
  return row;
}

async function monthlyCount(keyId: string): Promise<number> {
  const rows = await queryDatabase<{ count: number }>(
    databaseUrl(),
    'SELECT sum(count)::int AS count FROM usage_monthly WHERE key_id = $1',
    [keyId],
  );
  return rows[0]?.count ?? 0;
}

/** A hard-capped key made with the CLI (directly on the database). */
async function cappedKey(): Promise<{ id: string; key: string }> {
  const result = await runCli(
    ['keys', 'create', '--name', 'fault test', '--monthly-allowance', '10', '--hard-cap', '--json'],
    cliEnv(),
  );
  expect(result.code, result.stderr).toBe(0);
  return jsonOut(result) as { id: string; key: string };
}

/** A nonce from `instance`, paid on Surfpool: a proof no request has used yet. */
async function paidProof(instance: ServerInstance): Promise<SolanaProof> {
  const nonce = await challengeNonce(agent, instance.url, URL_TO_CHECK);
  return paySolana(solana, await solana.newFundedWallet(ONE_USDC), recipient, nonce);
}

async function ready(instance: ServerInstance): Promise<number> {
  const response = await agent.request({
    origin: instance.url,
    path: '/v1/ready',
    method: 'GET',
    headersTimeout: 20_000,
  });
  await response.body.dump();
  return response.statusCode;
}

/** Wait until every instance reports ready again (its pool reconnects on demand). */
async function allReady(): Promise<void> {
  for (const instance of instances) {
    await expect.poll(() => ready(instance), { timeout: 30_000, interval: 250 }).toBe(200);
  }
}

function expectStoreUnavailable(answer: HttpAnswer): void {
  expect(answer.status, JSON.stringify(answer.body)).toBe(503);
  expect(answer.body).toMatchObject({
    status: 503,
    error: 'service_unavailable',
    reason: 'store_unavailable',
    retry_after: 5,
  });
  expect(answer.headers['retry-after']).toBe('5');
}

/**
 * Present a paid proof, a capped key's request and a keyless request on every instance while
 * the proxy is in `mode`; all must be 503 `store_unavailable` within `withinMs`, and nothing
 * may be consumed or spent. Then the proxy is restored and the same proof and key are served.
 */
async function outage(mode: 'down' | 'hang', withinMs: number): Promise<void> {
  const { id, key } = await cappedKey();
  const [first, second] = instances as [ServerInstance, ServerInstance];
  const proof = await paidProof(first);
  // Every instance has talked to the database (its pool holds connections) before the cut.
  await allReady();

  proxy.setMode(mode);
  try {
    const started = performance.now();
    const answers = await Promise.all(
      instances.flatMap((instance) => [
        postDetect(agent, instance.url, URL_TO_CHECK, proofHeaders(proof)),
        postDetect(agent, instance.url, URL_TO_CHECK, bearer(key)),
        postDetect(agent, instance.url, URL_TO_CHECK),
      ]),
    );
    const elapsed = performance.now() - started;
    for (const answer of answers) expectStoreUnavailable(answer);
    expect(elapsed).toBeLessThan(withinMs);
    // Readiness fails too, so a load balancer takes the instances out meanwhile.
    expect(await Promise.all(instances.map((instance) => ready(instance)))).toEqual(
      instances.map(() => 503),
    );

    // Nothing was claimed, consumed or spent during the outage.
    expect(await nonceState(proof.nonce)).toEqual({ consumed: false, claims: 0 });
    expect(await monthlyCount(id)).toBe(0);
  } finally {
    proxy.setMode('up');
  }

  await allReady();
  const paid = await postDetect(agent, second.url, URL_TO_CHECK, proofHeaders(proof));
  expect(paid.status, JSON.stringify(paid.body)).toBe(200);
  expect(await nonceState(proof.nonce)).toEqual({ consumed: true, claims: 1 });
  expect((await postDetect(agent, first.url, URL_TO_CHECK, bearer(key))).status).toBe(200);
  expect(await monthlyCount(id)).toBe(1);
}

describe('PostgreSQL out of reach', () => {
  it('stopped (connections reset and refused): 503 store_unavailable at once, nothing claimed; served again when it is back', async () => {
    await outage('down', 3000);
  });

  it(
    'unreachable (connections accepted, never answered): 503 store_unavailable within the pool and query timeouts, nothing claimed; served again when it is back',
    { timeout: 90_000 },
    async () => {
      // Pooled connections hang until pg's query timeout (statement timeout 5 s + 1 s); new ones
      // until the connect timeout (3 s); a transaction's ROLLBACK on a hung connection as well.
      await outage('hang', 30_000);
    },
  );
});

describe('an instance killed with SIGKILL during claims', () => {
  it(
    'every nonce is either consumed with its claim row, or neither and still pays on another instance',
    { timeout: 90_000 },
    async () => {
      const [victim, survivor] = instances as [ServerInstance, ServerInstance];
      await allReady();
      const proofs: SolanaProof[] = [];
      for (let i = 0; i < 30; i++) proofs.push(await paidProof(survivor));

      // Each database round trip of the victim's claims costs ~10 ms more, so the kill lands among
      // transactions under way rather than before or after all of them.
      proxy.setDelay(5);
      try {
        const inFlight = proofs.map((proof, i) =>
          postDetect(agent, victim.url, URL_TO_CHECK, proofHeaders(proof, i)).catch(
            (error: unknown) => error,
          ),
        );
        // Kill once some claims are committed (read directly, not through the slowed proxy).
        await expect
          .poll(
            async () =>
              (
                await queryDatabase<{ n: number }>(
                  databaseUrl(),
                  'SELECT count(*)::int AS n FROM payment_claims WHERE nonce = ANY($1::text[])',
                  [proofs.map((p) => p.nonce)],
                )
              )[0]?.n,
            { timeout: 20_000, interval: 5 },
          )
          .toBeGreaterThanOrEqual(3);
        await kill9(victim);
        await Promise.all(inFlight);
      } finally {
        proxy.setDelay(0);
      }

      let claimed = 0;
      let unclaimed = 0;
      for (const proof of proofs) {
        const state = await nonceState(proof.nonce);
        if (state.consumed) {
          expect(state.claims, `nonce ${proof.nonce} consumed without its claim`).toBe(1);
          claimed += 1;
          const replay = await postDetect(agent, survivor.url, URL_TO_CHECK, proofHeaders(proof));
          expect(replay.status).toBe(409);
        } else {
          expect(state.claims, `nonce ${proof.nonce} claimed but not consumed`).toBe(0);
          unclaimed += 1;
          const retry = await postDetect(agent, survivor.url, URL_TO_CHECK, proofHeaders(proof));
          expect(retry.status, JSON.stringify(retry.body)).toBe(200);
          expect(await nonceState(proof.nonce)).toEqual({ consumed: true, claims: 1 });
        }
      }
      // The kill landed mid-stream: some proofs were served by the victim, some were not.
      expect(claimed).toBeGreaterThanOrEqual(3);
      expect(unclaimed).toBeGreaterThan(0);
    },
  );
});

describe('Redis out of reach while instances serve', () => {
  /** Per-IP budget of these instances: small, so the in-process fallback is seen refusing. */
  const PUBLIC_LIMIT = 6;
  const PASSWORD = 'redis-secret-5d81be';
  const FALLBACK = 'Redis unreachable: rate limits fall back to in-process limits (per instance)';
  const RECOVERY = 'Redis reachable: rate limits shared again';
  const CACHE_DOWN = 'shared verdict cache unavailable (Redis): verdicts are cached per instance';

  let admin: Redis;
  let redis: RedisProxy;
  let prefix: string;
  let pair: ServerInstance[] = [];

  beforeAll(async () => {
    await ensureRedis();
    admin = adminClient();
    await admin.connect();
    redis = await redisProxy();
    prefix = uniquePrefix();
  });

  afterAll(async () => {
    // Stopped first, so no instance writes under the prefix after its keys are deleted.
    await stopInstances(pair);
    await redis.close();
    await deleteKeysUnder(admin, prefix);
    admin.disconnect();
  });

  /** The JSON log lines of an instance's captured output (ioredis's own warnings are not JSON). */
  function logLines(instance: ServerInstance): { level: number; msg: string; redis?: string }[] {
    return instance
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { level: number; msg: string; redis?: string });
  }
  const linesWith = (instance: ServerInstance, msg: string) =>
    logLines(instance).filter((line) => line.msg === msg);

  /** Keyless requests alternating over the pair: each answer's status and `RateLimit-Remaining`. */
  async function keyless(count: number): Promise<[number, unknown][]> {
    const answers: [number, unknown][] = [];
    for (let i = 0; i < count; i++) {
      const answer = await postDetect(agent, roundRobin(pair, i), URL_TO_CHECK);
      answers.push([answer.status, answer.headers['ratelimit-remaining']]);
    }
    return answers;
  }

  it(
    'Redis stopped → requests still served on in-process limits; fallback and recovery each logged once; shared counting again after',
    { timeout: 60_000 },
    async () => {
      // A password in the URL, to show it never reaches the log. The machine's Redis asks for
      // none: ioredis then warns that one was supplied (without it) and carries on.
      const redisUrl = `redis://:${PASSWORD}@127.0.0.1:${String(redis.port)}`;
      pair = servers.track(
        await startInstances(2, {
          env: {
            DATABASE_URL: databaseUrl(),
            REDIS_URL: redisUrl,
            REDIS_KEY_PREFIX: prefix,
            RATE_LIMIT_PUBLIC_PER_MINUTE: String(PUBLIC_LIMIT),
            // The recovery is logged at info (the fallback at warn): both must be visible. At info
            // every request writes two lines, so keep enough output to still hold the first ones.
            LOG_LEVEL: 'info',
          },
          outputChars: 1_000_000,
        }),
      );
      const { key } = jsonOut(
        await runCli(['keys', 'create', '--name', 'redis fault', '--json'], cliEnv()),
      ) as { key: string };

      // Redis serves: keyed requests are served, and the per-IP budget is one count for both.
      for (const instance of pair) {
        expect((await postDetect(agent, instance.url, URL_TO_CHECK, bearer(key))).status).toBe(200);
      }
      expect(await keyless(2)).toEqual([
        [402, String(PUBLIC_LIMIT - 1)],
        [402, String(PUBLIC_LIMIT - 2)],
      ]);
      expect(await keysUnder(admin, `${prefix}rl:per-ip:`)).toEqual([
        `${prefix}rl:per-ip:ip:127.0.0.1`,
      ]);
      for (const instance of pair) expect(linesWith(instance, FALLBACK)).toEqual([]);

      await redis.cut();
      // Keyed requests (URLs not seen yet, so the shared verdict cache is asked too) are served.
      for (let i = 0; i < 3; i++) {
        for (const instance of pair) {
          const served = await postDetect(
            agent,
            instance.url,
            `https://example.com/outage-${String(i)}`,
            bearer(key),
          );
          expect(served.status, JSON.stringify(served.body)).toBe(200);
        }
      }
      // Keyless: each instance counts alone from a fresh in-process budget (so the two serve
      // twice the budget between them) and still refuses once its own budget is spent.
      const during = await keyless(2 * PUBLIC_LIMIT);
      expect(during).toEqual(
        Array.from({ length: 2 * PUBLIC_LIMIT }, (_, i) => [
          402,
          String(PUBLIC_LIMIT - 1 - Math.floor(i / 2)),
        ]),
      );
      for (const instance of pair) {
        const refused = await postDetect(agent, instance.url, URL_TO_CHECK);
        expect(refused.status).toBe(429);
        expect(refused.body).toMatchObject({ error: 'rate_limited' });
        expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
        expect(refused.headers['ratelimit-policy']).toBe(`"per-ip";q=${String(PUBLIC_LIMIT)};w=60`);
      }
      // Each instance said so once (at warn, so it shows at LOG_LEVEL=warn too), naming the
      // host and port only.
      for (const instance of pair) {
        const fallback = linesWith(instance, FALLBACK);
        expect(fallback, instance.output()).toHaveLength(1);
        expect(fallback[0]?.level).toBe(40);
        expect(fallback[0]?.redis).toBe(`redis://127.0.0.1:${String(redis.port)}`);
        expect(linesWith(instance, CACHE_DOWN)).toHaveLength(1);
        expect(linesWith(instance, RECOVERY)).toEqual([]);
      }

      await redis.restore();
      // ioredis reconnects in the background (at most 2 s between attempts); keyed requests
      // (far from their budget) go to Redis as soon as it is there, which is the recovery.
      for (const instance of pair) {
        await expect
          .poll(
            async () => {
              const served = await postDetect(agent, instance.url, URL_TO_CHECK, bearer(key));
              expect(served.status).toBe(200);
              return linesWith(instance, RECOVERY).length;
            },
            { timeout: 15_000, interval: 250 },
          )
          .toBe(1);
      }
      // Shared again: the count in Redis (2 before the cut, this minute) goes on for both.
      const after = await keyless(PUBLIC_LIMIT);
      expect(after).toEqual([
        ...Array.from({ length: PUBLIC_LIMIT - 2 }, (_, i) => [402, String(PUBLIC_LIMIT - 3 - i)]),
        [429, '0'],
        [429, '0'],
      ]);

      for (const instance of pair) {
        // Once each way, however many requests went through the fallback.
        expect(linesWith(instance, FALLBACK)).toHaveLength(1);
        expect(linesWith(instance, RECOVERY)).toHaveLength(1);
        expect(linesWith(instance, RECOVERY)[0]?.level).toBe(30);
        // The URL carries the password: neither is ever logged.
        expect(instance.output()).not.toContain(PASSWORD);
        expect(instance.output()).not.toContain(redisUrl);
      }
    },
  );
});
