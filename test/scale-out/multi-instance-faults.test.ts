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
 *
 * Not here yet (needs REDIS_URL): "Redis stopped". See the `describe.todo` at the end.
 */
import { type Address, generateKeyPairSigner } from '@solana/kit';
import type { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type RpcProxy, startRpcProxy } from '../../scripts/local-chains/index.js';
import type { SolanaProof } from '../../src/payments/payment-proof.js';
import { challengeNonce, paySolana, proofHeaders } from '../helpers/http-payments.js';
import { useLocalSolana } from '../helpers/local-chain-hooks.js';
import { ONE_USDC } from '../helpers/payment-values.js';
import { POSTGRES_ADMIN_URL, queryDatabase, usePostgresDatabase } from '../helpers/postgres.js';
import { jsonOut, runCli } from '../helpers/run-cli.js';
import {
  httpAgent,
  type HttpAnswer,
  kill9,
  postDetect,
  type ServerInstance,
  startInstances,
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

// REDIS (not in this change): "Redis stopped" — with REDIS_URL set, stop Redis (or cut a proxy in
// front of it, as above for PostgreSQL) and assert the documented behaviour of the per-IP limit
// (fail open or 503 with a stable code), and that requests are served again once it is back.
describe.todo('Redis stopped or unreachable while instances serve');
