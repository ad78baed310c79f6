/**
 * The server the fuzz suite knocks on: `buildApp()` over the real configuration (both chains
 * offered, so proofs are parsed and verified), a real SQLite store in a temp directory and the
 * real engine, with both chain RPCs pointed at a loopback stub that knows no transaction
 * (`chain-stub.ts`). Requests go through `inject()`, each from a random source address, so the
 * per-IP budgets do not turn the run into a run of 429s. Every answer is held to
 * `documented-answers.ts` and to a time bound, and counted by door and status for
 * `npm run fuzz`. Used by the tests under `test/fuzz/` and by `scripts/fuzz.ts`, so it must not
 * import vitest.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { InjectOptions } from 'fastify';

import { loadConfig } from '../../src/config/config.js';
import type { Engine } from '../../src/engine/create-engine.js';
import { createLogger } from '../../src/observability/logger.js';
import { buildApp } from '../../src/server/build-app.js';
import { openStore } from '../../src/store/open-store.js';
import type { Store } from '../../src/store/ports/store.js';
import { createEnterpriseKey } from '../helpers/enterprise-key.js';
import { type ChainStub, startChainStub } from './chain-stub.js';
import { type Answer, answerProblem, type Door } from './documented-answers.js';

/** Recipients of both chains (as in test/helpers/test-app.ts, which imports vitest). */
const SOLANA_RECIPIENT = '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin';
const BASE_RECIPIENT = '0x1111111111111111111111111111111111111111';

/** The public origin the app believes it has (issuer, `/mcp` resource). */
export const FUZZ_BASE_URL = 'https://linkguard.fuzz.example';

/** Longest an answer may take, ms: far above a normal answer, far below a hang. */
export const DEFAULT_ANSWER_BOUND_MS = 5000;

/** A request of the suite: `inject()` options without the source address, which is drawn. */
export type FuzzRequest = Omit<InjectOptions, 'remoteAddress'> & {
  method: NonNullable<InjectOptions['method']>;
  url: string;
};

/** A failed property check: the broken rule and the request that broke it. */
export class FuzzFailure extends Error {
  override readonly name = 'FuzzFailure';
}

/** Counts by door, then by HTTP status (or `timeout`). */
export type StatusCounts = Map<Door, Map<string, number>>;

export interface FuzzApp {
  app: Awaited<ReturnType<typeof buildApp>>;
  store: Store;
  /** `Authorization` value of a live enterprise key. */
  bearer: string;
  /** A registered public client (`none`, code and refresh) and its redirect URI. */
  publicClient: { id: string; redirectUri: string };
  /** A registered confidential client (`client_secret_basic`) and its secret. */
  confidentialClient: { id: string; secret: string; redirectUri: string };
  stub: ChainStub;
  counts: StatusCounts;
  /**
   * Send `request`, count its answer under `door` and check it.
   * @throws {FuzzFailure} when the answer is a 5xx, undocumented, or later than the bound.
   */
  send(door: Door, request: FuzzRequest): Promise<Answer>;
  /**
   * @throws {FuzzFailure} unless `/v1/status` and `/v1/ready` answer 200 and a keyed detect
   *   request is served a verdict.
   */
  assertHealthy(): Promise<void>;
  close(): Promise<void>;
}

/** A random public-looking IPv4 source, so per-IP budgets rarely fill. */
function randomSource(): string {
  const bytes = randomBytes(3);
  return `11.${String(bytes[0])}.${String(bytes[1])}.${String(bytes[2])}`;
}

/** One line describing a request for a failure report (bodies cut short). */
export function describeRequest(request: FuzzRequest): string {
  const payload =
    request.payload === undefined
      ? ''
      : ` body=${JSON.stringify(String(typeof request.payload === 'object' && !Buffer.isBuffer(request.payload) ? JSON.stringify(request.payload) : request.payload)).slice(0, 600)}`;
  return `${request.method} ${request.url.slice(0, 300)} headers=${JSON.stringify(request.headers ?? {}).slice(0, 600)}${payload}`;
}

function count(counts: StatusCounts, door: Door, status: string): void {
  let byStatus = counts.get(door);
  if (byStatus === undefined) {
    byStatus = new Map();
    counts.set(door, byStatus);
  }
  byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
}

async function registerJson(
  app: FuzzApp['app'],
  metadata: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const response = await app.inject({
    method: 'POST',
    url: '/oauth/register',
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify(metadata),
  });
  if (response.statusCode !== 201) {
    throw new Error(`fuzz setup: registration refused (${String(response.statusCode)})`);
  }
  return response.json<Record<string, unknown>>();
}

/**
 * Build the fuzzed server.
 *
 * @param engine the engine (built once per process by the caller: `defaultEngine()`).
 * @param boundMs the answer time bound ({@link DEFAULT_ANSWER_BOUND_MS}).
 */
export async function startFuzzApp(
  engine: Engine,
  boundMs: number = DEFAULT_ANSWER_BOUND_MS,
): Promise<FuzzApp> {
  const stub = await startChainStub();
  const dir = mkdtempSync(join(tmpdir(), 'linkguard-fuzz-'));
  const config = loadConfig({
    SOLANA_RECIPIENT,
    BASE_RECIPIENT,
    SOLANA_RPC_URL: stub.url,
    BASE_RPC_URL: stub.url,
    PAGE_ANALYSIS: 'off',
    PUBLIC_BASE_URL: FUZZ_BASE_URL,
    DATABASE_URL: `sqlite:${join(dir, 'fuzz.db')}`,
  });
  const store = await openStore(config.store);
  // Warnings and errors only: request lines of thousands of requests would just fill memory.
  const logger = createLogger('warn', { write: () => undefined });
  const app = await buildApp({ config, store, engine, clock: { now: () => Date.now() }, logger });
  const key = await createEnterpriseKey(store);
  const publicRedirect = 'http://127.0.0.1:9/callback';
  const confidentialRedirect = 'https://client.fuzz.example/cb';
  const publicClient = await registerJson(app, {
    redirect_uris: [publicRedirect],
    token_endpoint_auth_method: 'none',
    grant_types: ['authorization_code', 'refresh_token'],
    client_name: 'fuzz public',
  });
  const confidential = await registerJson(app, {
    redirect_uris: [confidentialRedirect],
    token_endpoint_auth_method: 'client_secret_basic',
    grant_types: ['authorization_code', 'refresh_token'],
    client_name: 'fuzz confidential',
  });
  const counts: StatusCounts = new Map();

  const send = async (door: Door, request: FuzzRequest): Promise<Answer> => {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => {
        resolve('timeout');
      }, boundMs);
    });
    try {
      const response = await Promise.race([
        app.inject({ ...request, remoteAddress: randomSource() }),
        timeout,
      ]);
      if (response === 'timeout') {
        count(counts, door, 'timeout');
        throw new FuzzFailure(
          `${door}: no answer within ${String(boundMs)} ms to ${describeRequest(request)}`,
        );
      }
      const answer: Answer = {
        status: response.statusCode,
        headers: response.headers,
        body: response.body,
      };
      count(counts, door, String(answer.status));
      // A HEAD answer has no body (RFC 9110 §9.3.2): only its status can be judged.
      const problem =
        request.method === 'HEAD'
          ? answer.status >= 500
            ? `HTTP ${String(answer.status)}`
            : null
          : answerProblem(door, answer);
      if (problem !== null) {
        throw new FuzzFailure(
          `${door}: ${problem} for ${describeRequest(request)}; answer ${answer.body.slice(0, 300)}`,
        );
      }
      return answer;
    } finally {
      clearTimeout(timer);
    }
  };

  const assertHealthy = async (): Promise<void> => {
    const status = await app.inject({ method: 'GET', url: '/v1/status' });
    const ready = await app.inject({ method: 'GET', url: '/v1/ready' });
    const detect = await app.inject({
      method: 'POST',
      url: '/v1/detect',
      headers: { authorization: key.bearer, 'content-type': 'application/json' },
      payload: JSON.stringify({ url: 'https://example.com/' }),
      remoteAddress: randomSource(),
    });
    const verdict = detect.statusCode === 200 ? detect.json<{ verdict?: unknown }>().verdict : null;
    if (status.statusCode !== 200 || ready.statusCode !== 200 || typeof verdict !== 'string') {
      throw new FuzzFailure(
        `server unhealthy after the run: status ${String(status.statusCode)}, ready ${String(ready.statusCode)}, keyed detect ${String(detect.statusCode)}`,
      );
    }
  };

  return {
    app,
    store,
    bearer: key.bearer,
    publicClient: { id: String(publicClient.client_id), redirectUri: publicRedirect },
    confidentialClient: {
      id: String(confidential.client_id),
      secret: String(confidential.client_secret),
      redirectUri: confidentialRedirect,
    },
    stub,
    counts,
    send,
    assertHealthy,
    close: async () => {
      try {
        await app.close();
        await store.close();
        await stub.close();
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
