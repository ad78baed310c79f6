/**
 * Shared setup of the HTTP integration tests: real configuration (`loadConfig` over an env map),
 * a real SQLite store in a temp directory, the real engine, `buildApp()` with a pino logger that
 * writes to an in-memory capture, and an adjustable clock. `cleanup()` closes the app and the
 * store and removes the directory.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, beforeAll } from 'vitest';

import type { Clock } from '../../src/clock.js';
import { type Config, loadConfig } from '../../src/config/config.js';
import type { Engine } from '../../src/engine/create-engine.js';
import { defaultEngine } from '../../src/engine-data/load-engine-data.js';
import { createLogger } from '../../src/observability/logger.js';
import { buildApp } from '../../src/server/build-app.js';
import { openStore } from '../../src/store/open-store.js';
import type { Store } from '../../src/store/ports/store.js';

/** Valid recipients for tests that need both chains offered. */
export const SOLANA_RECIPIENT = '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin';
export const BASE_RECIPIENT = '0x1111111111111111111111111111111111111111';
export const CHAIN_ENV: Readonly<Record<string, string>> = {
  SOLANA_RECIPIENT,
  BASE_RECIPIENT,
};

/**
 * Chain RPCs default to public mainnet endpoints; tests must never leave loopback, so unless a
 * test names its own RPC (a local chain), they point at a closed loopback port (the discard
 * port, 9): any chain call fails at once with a refused connection.
 */
export const NO_CHAIN_RPC: Readonly<Record<string, string>> = {
  SOLANA_RPC_URL: 'http://127.0.0.1:9',
  BASE_RPC_URL: 'http://127.0.0.1:9',
};

/** A fixed instant (2026-03-15T12:00:00Z) so nonce and key times are predictable. */
export const T0 = Date.UTC(2026, 2, 15, 12, 0, 0);

/** A clock the test moves by hand. */
export interface TestClock extends Clock {
  set(ms: number): void;
  advance(ms: number): void;
}

export function testClock(start: number = T0): TestClock {
  let now = start;
  return {
    now: () => now,
    set: (ms) => {
      now = ms;
    },
    advance: (ms) => {
      now += ms;
    },
  };
}

/** Log lines written by the app, parsed, plus the raw text for privacy checks. */
export interface LogCapture {
  lines: string[];
  records(): Record<string, unknown>[];
  text(): string;
}

export function logCapture(): LogCapture & { write(line: string): void } {
  const lines: string[] = [];
  return {
    lines,
    write: (line: string) => {
      lines.push(line);
    },
    records: () => lines.map((l) => JSON.parse(l) as Record<string, unknown>),
    text: () => lines.join(''),
  };
}

/** The engine is built once per process (it takes ~150 ms); call it from `beforeAll`. */
export function sharedEngine(): Engine {
  return defaultEngine();
}

export type TestApp = Awaited<ReturnType<typeof buildApp>>;

export interface TestContext {
  app: TestApp;
  store: Store;
  config: Config;
  clock: TestClock;
  logs: LogCapture;
  dir: string;
  dbPath: string;
  /** Close the app and the store (idempotent) and remove the temp directory. */
  cleanup(): Promise<void>;
}

export interface TestAppOptions {
  /** Environment variables for `loadConfig` (DATABASE_URL is set to the temp file). */
  env?: Record<string, string>;
  clock?: TestClock;
  /** pino level; `info` so request logs are captured too. */
  logLevel?: 'info' | 'debug' | 'error';
}

/** Build config + SQLite store in a temp dir + app. Remember to `cleanup()` in `afterEach`. */
export async function createTestApp(
  engine: Engine,
  options: TestAppOptions = {},
): Promise<TestContext> {
  const dir = mkdtempSync(join(tmpdir(), 'linkguard-http-'));
  const dbPath = join(dir, 'lg.db');
  const config = loadConfig({
    ...NO_CHAIN_RPC,
    // Tests never leave loopback: page analysis is opted into by the tests that serve pages.
    PAGE_ANALYSIS: 'off',
    ...options.env,
    DATABASE_URL: `sqlite:${dbPath}`,
  });
  const store = await openStore(config.store);
  const clock = options.clock ?? testClock();
  const logs = logCapture();
  const logger = createLogger(options.logLevel ?? 'info', logs);
  const app = await buildApp({ config, store, engine, clock, logger });
  let cleaned = false;
  return {
    app,
    store,
    config,
    clock,
    logs,
    dir,
    dbPath,
    cleanup: async () => {
      if (cleaned) return;
      cleaned = true;
      try {
        await app.close();
        await store.close();
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/**
 * Register the hooks that give each test of the calling file its own app: the engine is built
 * before the file's tests, and the app a test started is cleaned up after it.
 *
 * @param defaults options every app of the file starts from; a test's own `env` is laid over
 *   `defaults.env`.
 * @returns `start(options)`, which builds the test's app.
 */
export function useTestApp(
  defaults: TestAppOptions = {},
): (options?: TestAppOptions) => Promise<TestContext> {
  let engine: Engine | undefined;
  let current: TestContext | undefined;
  beforeAll(() => {
    engine = sharedEngine();
  });
  afterEach(async () => {
    await current?.cleanup();
    current = undefined;
  });
  return async (options = {}) => {
    if (engine === undefined) throw new Error('useTestApp: start() called outside a test');
    current = await createTestApp(engine, {
      ...defaults,
      ...options,
      env: { ...defaults.env, ...options.env },
    });
    return current;
  };
}
