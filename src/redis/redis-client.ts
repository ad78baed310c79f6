/**
 * @module redis/redis-client
 * The Redis connection of a scaled-out deployment (REDIS_URL, README "Configuration"): shared
 * rate-limit counters and the shared verdict cache (docs/decisions.md, decisions 116–119). Built
 * with ioredis; every caller treats Redis as optional at run time (an unreachable Redis degrades
 * to per-instance behaviour, logged once per outage by {@link OutageNotice}), so the client is
 * configured to fail fast rather than queue commands while disconnected.
 */
import { Redis } from 'ioredis';

export type { Redis } from 'ioredis';

/**
 * Longest a command may take before ioredis rejects it (ms). A healthy Redis on the same network
 * answers in about a millisecond; a hung one must not hold requests for long before the callers
 * fall back.
 */
export const REDIS_COMMAND_TIMEOUT_MS = 200;

/** Longest a connection attempt may take (ms); ioredis then retries in the background. */
const CONNECT_TIMEOUT_MS = 2000;

/**
 * Open a Redis client for a `redis://` or `rediss://` URL (TLS for `rediss:`, ioredis parses the
 * URL: user, password, host, port, database number).
 *
 * Commands are never queued while the connection is down (`enableOfflineQueue: false`) and time
 * out after {@link REDIS_COMMAND_TIMEOUT_MS}: they reject at once, and the caller serves from its
 * in-process fallback. ioredis reconnects in the background (its default back-off, up to 2 s
 * between attempts). Connection errors are not logged here: they would repeat on every attempt;
 * the callers log the outage once when a command fails.
 *
 * @param url the REDIS_URL; may carry a password, so never log it (log {@link clientOrigin}).
 * @returns a connecting client; close it with `quit()` (or `disconnect()`).
 */
export function createRedisClient(url: string): Redis {
  const client = new Redis(url, {
    enableOfflineQueue: false,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    connectTimeout: CONNECT_TIMEOUT_MS,
    maxRetriesPerRequest: 1,
  });
  client.on('error', () => {
    // Reported through the failing commands (OutageNotice), once per outage.
  });
  return client;
}

/**
 * Wait until the client is ready for commands, at most `timeoutMs`.
 *
 * @returns true when ready, false when the time ran out (the client keeps reconnecting).
 */
export async function waitUntilReady(client: Redis, timeoutMs: number): Promise<boolean> {
  if (client.status === 'ready') return true;
  return new Promise<boolean>((resolve) => {
    const done = (ready: boolean): void => {
      clearTimeout(timer);
      client.off('ready', onReady);
      resolve(ready);
    };
    const onReady = (): void => {
      done(true);
    };
    const timer = setTimeout(() => {
      done(false);
    }, timeoutMs);
    client.on('ready', onReady);
  });
}

/**
 * The loggable origin of a client's server, from its parsed options (never the password).
 *
 * @returns e.g. `rediss://cache.internal:6380`.
 */
export function clientOrigin(client: Redis): string {
  const { host, port, tls } = client.options;
  return `${tls === undefined ? 'redis' : 'rediss'}://${host ?? 'localhost'}:${port ?? 6379}`;
}

/** One line about a Redis error for the log: its message only (never a URL or a stack). */
export function redisErrorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Logs an outage of a shared dependency once when it starts and once when it ends, however many
 * requests fail in between (one line per request would flood the log during an outage).
 */
export class OutageNotice {
  private down = false;

  /**
   * @param report called with `down` (and the first error, when there is one) on the first
   *   failure after a success or at start, and with `up` on the first success after a failure.
   */
  constructor(private readonly report: (event: 'down' | 'up', error?: unknown) => void) {}

  /** A call failed (or was served by the fallback). */
  failed(error?: unknown): void {
    if (this.down) return;
    this.down = true;
    this.report('down', error);
  }

  /** A call succeeded. */
  succeeded(): void {
    if (!this.down) return;
    this.down = false;
    this.report('up');
  }

  /** Whether the last reported state is an outage. */
  get isDown(): boolean {
    return this.down;
  }
}
