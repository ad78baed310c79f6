/**
 * @module cli/commands/serve-command
 * `linkguard serve`: load the configuration, start the server (`server/start-server.ts`), and shut
 * down cleanly on SIGTERM/SIGINT (finish in-flight requests, close layer 2 and the store).
 */
import { loadConfig } from '../../config/config.js';
import { createLogger, releaseLogs } from '../../observability/logger.js';
import { startServer } from '../../server/start-server.js';

/**
 * Longest a graceful shutdown may take before the process exits with code 1 anyway (ms): below
 * the 10 s a supervisor commonly waits between SIGTERM and SIGKILL (`docker stop`), above the
 * default page budget (4 s) of a request in flight (docs/decisions.md, decision 143).
 */
export const SHUTDOWN_DEADLINE_MS = 8000;
/** Time given to buffered log lines before exit (ms); then they are dropped. */
const LOG_FLUSH_MS = 500;

/**
 * Run the server until SIGTERM or SIGINT, then shut down: stop accepting, let requests in flight
 * finish, close layers 2–3, Redis and the store, and exit 0 (1 when closing failed). Whatever
 * happens meanwhile — a hung close, a log destination that stalls or is gone — the process exits
 * within {@link SHUTDOWN_DEADLINE_MS} plus {@link LOG_FLUSH_MS}.
 *
 * @throws when the configuration is invalid or the server cannot start (the CLI reports it).
 */
export async function serveCommand(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  const server = await startServer(config, logger);

  let exiting = false;
  const exit = (code: number): void => {
    if (exiting) return;
    exiting = true;
    void releaseLogs(logger, LOG_FLUSH_MS).finally(() => process.exit(code));
  };
  let closing = false;
  const shutdown = (signal: string): void => {
    if (closing) return;
    closing = true;
    // Unref'd: a shutdown that finishes early lets the process end without waiting for it.
    setTimeout(() => {
      logger.error({ signal, deadlineMs: SHUTDOWN_DEADLINE_MS }, 'shutdown deadline passed');
      exit(1);
    }, SHUTDOWN_DEADLINE_MS).unref();
    logger.info({ signal }, 'shutting down');
    server
      .close()
      .then(() => {
        exit(0);
      })
      .catch((error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        exit(1);
      });
  };
  process.once('SIGTERM', () => {
    shutdown('SIGTERM');
  });
  process.once('SIGINT', () => {
    shutdown('SIGINT');
  });
  await server.listen();
}
