/**
 * Several real linkguard servers for the scale-out tests: each is a child process of the real
 * CLI (`node --import tsx src/cli/main.ts serve`) on its own loopback port, all over one
 * PostgreSQL database, as N instances behind a load balancer would run. An instance is used only
 * once `GET /v1/ready` answers 200. `stop()` ends them with SIGTERM (SIGKILL after a grace
 * period), `kill9()` kills one the way a crashed host would, and `useServerInstances()` makes
 * sure no process outlives the calling file, whatever its tests did.
 */
import { type ChildProcess, spawn } from 'node:child_process';

import { Agent, request } from 'undici';
import { afterAll } from 'vitest';

import { freePort } from './oauth-app.js';
import { PACKAGE_ROOT } from './run-cli.js';
import { NO_CHAIN_RPC } from './test-app.js';

/** Longest an instance may take from spawn to a ready `/v1/ready` (tsx compiles on start). */
const READY_TIMEOUT_MS = 45_000;
/** Between SIGTERM and SIGKILL in `stop()`. */
const STOP_GRACE_MS = 5_000;
/** Output kept per instance for failure messages (unless `StartOptions.outputChars`). */
const OUTPUT_TAIL_CHARS = 8_000;

/** One running `linkguard serve`. */
export interface ServerInstance {
  /** Position in the list it was started with (0-based). */
  index: number;
  port: number;
  /** `http://127.0.0.1:<port>` */
  url: string;
  pid: number;
  /** The environment it was started with (beyond the test process's own). */
  env: Readonly<Record<string, string>>;
  /** The last of its stdout and stderr, for failure messages. */
  output(): string;
  /** True once the process has exited. */
  exited(): boolean;
  /** Resolves with the exit code or signal once the process has exited. */
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Options of {@link startInstances}. */
export interface StartOptions {
  /** Environment common to every instance, laid over the defaults below. */
  env: Record<string, string>;
  /** Per-instance additions (by index), e.g. a DATABASE_URL through a proxy for one of them. */
  envOf?: (index: number) => Record<string, string>;
  /** Ports to use (by index); free ports are picked otherwise. */
  ports?: readonly number[];
  /**
   * How much of each instance's latest output `output()` keeps (default 8,000 characters, enough
   * for failure messages). A test that reads log lines at `LOG_LEVEL=info`, where every request
   * writes two lines, keeps more so its lines are still there when it looks.
   */
  outputChars?: number;
}

/**
 * Every process started by this module in this test process: killed on `exit` too, so a test
 * worker that ends without running its afterAll hooks leaves no server behind.
 */
const live = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

/**
 * Start `count` instances in parallel and wait until each is ready. On any failure every
 * instance started here is killed before the error is thrown.
 *
 * Defaults (before `options.env`): `HOST=127.0.0.1`, `LOG_LEVEL=warn`, `PAGE_ANALYSIS=off`,
 * `RDAP_ENABLED=false` and chain RPCs on a closed loopback port, so nothing leaves loopback.
 */
export async function startInstances(
  count: number,
  options: StartOptions,
): Promise<ServerInstance[]> {
  const ports = options.ports ?? (await freePorts(count));
  const instances = ports.slice(0, count).map((port, index) =>
    spawnInstance(
      index,
      port,
      {
        ...NO_CHAIN_RPC,
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        PAGE_ANALYSIS: 'off',
        RDAP_ENABLED: 'false',
        ...options.env,
        ...options.envOf?.(index),
        PORT: String(port),
      },
      options.outputChars,
    ),
  );
  try {
    await Promise.all(instances.map((instance) => waitReady(instance)));
  } catch (error) {
    await stopInstances(instances);
    throw error;
  }
  return instances;
}

/** Start one more instance (e.g. after a kill) with the given port and environment. */
export async function startInstance(
  index: number,
  port: number,
  env: Readonly<Record<string, string>>,
): Promise<ServerInstance> {
  const instance = spawnInstance(index, port, { ...env, PORT: String(port) });
  try {
    await waitReady(instance);
  } catch (error) {
    await stopInstances([instance]);
    throw error;
  }
  return instance;
}

/** `count` distinct free loopback ports. */
export async function freePorts(count: number): Promise<number[]> {
  const ports = new Set<number>();
  while (ports.size < count) ports.add(await freePort());
  return [...ports];
}

const processes = new WeakMap<ServerInstance, ChildProcess>();

function spawnInstance(
  index: number,
  port: number,
  env: Readonly<Record<string, string>>,
  outputChars = OUTPUT_TAIL_CHARS,
): ServerInstance {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'serve'], {
    cwd: PACKAGE_ROOT,
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  live.add(child);
  let tail = '';
  const keep = (chunk: Buffer): void => {
    tail = (tail + chunk.toString('utf8')).slice(-outputChars);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  let done = false;
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => {
      done = true;
      live.delete(child);
      resolve({ code, signal });
    });
  });
  const instance: ServerInstance = {
    index,
    port,
    url: `http://127.0.0.1:${String(port)}`,
    pid: child.pid ?? -1,
    env,
    output: () => tail,
    exited: () => done,
    exit,
  };
  processes.set(instance, child);
  return instance;
}

/** Poll `GET /v1/ready` until it answers 200; fail early when the process exits. */
async function waitReady(instance: ServerInstance): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let last = 'no answer';
  while (Date.now() < deadline) {
    if (instance.exited()) {
      throw new Error(
        `instance ${String(instance.index)} exited before it was ready:\n${instance.output()}`,
      );
    }
    try {
      const response = await request(`${instance.url}/v1/ready`, {
        headersTimeout: 2000,
        bodyTimeout: 2000,
      });
      const body = await response.body.text();
      if (response.statusCode === 200) return;
      last = `HTTP ${String(response.statusCode)} ${body}`;
    } catch (error) {
      last = error instanceof Error ? error.message : String(error);
    }
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
  throw new Error(
    `instance ${String(instance.index)} not ready within ${String(READY_TIMEOUT_MS)} ms (${last}):\n${instance.output()}`,
  );
}

/** SIGTERM every instance still running, SIGKILL those still there after the grace period. */
export async function stopInstances(instances: readonly ServerInstance[]): Promise<void> {
  await Promise.all(
    instances.map(async (instance) => {
      const child = processes.get(instance);
      if (child === undefined || instance.exited()) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
      await instance.exit;
      clearTimeout(timer);
    }),
  );
}

/** `kill -9` one instance (no shutdown code runs) and wait until it is gone. */
export async function kill9(instance: ServerInstance): Promise<void> {
  const child = processes.get(instance);
  if (child === undefined || instance.exited()) return;
  child.kill('SIGKILL');
  await instance.exit;
}

/**
 * Instances for the calling file: `track()` the ones a test starts and they are stopped in the
 * file's afterAll, also when a test failed half-way.
 */
export function useServerInstances(): { track<T extends ServerInstance[]>(list: T): T } {
  const started: ServerInstance[] = [];
  afterAll(async () => {
    await stopInstances(started);
    started.length = 0;
  });
  return {
    track: (list) => {
      started.push(...list);
      return list;
    },
  };
}

/**
 * An undici pool for many concurrent requests to the instances: enough connections per origin
 * that a thousand requests are in flight across them at once, each bounded in time.
 */
export function httpAgent(connectionsPerOrigin = 128): Agent {
  return new Agent({
    connections: connectionsPerOrigin,
    headersTimeout: 30_000,
    bodyTimeout: 30_000,
    connectTimeout: 5_000,
  });
}

/** The answer of one HTTP call, body parsed as JSON when it is JSON. */
export interface HttpAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

/** `POST <base>/v1/detect` with `{url}` and `headers`. */
export async function postDetect(
  dispatcher: Agent,
  base: string,
  url: string,
  headers: Record<string, string> = {},
): Promise<HttpAnswer> {
  const response = await request(`${base}/v1/detect`, {
    method: 'POST',
    dispatcher,
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ url }),
  });
  const text = await response.body.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON: kept as text for the failure message.
  }
  return { status: response.statusCode, headers: response.headers, body };
}

/** Count of each status in `answers`, e.g. `{200: 1, 409: 999}`. */
export function statusCounts(answers: readonly { status: number }[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const { status } of answers) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

/** The base URL request `i` goes to: instance `i mod N`, like a round-robin load balancer. */
export function roundRobin(instances: readonly ServerInstance[], i: number): string {
  const instance = instances[i % instances.length];
  if (instance === undefined) throw new Error('no instances');
  return instance.url;
}
