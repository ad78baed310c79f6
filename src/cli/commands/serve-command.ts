/**
 * @module cli/commands/serve-command
 * `linkguard serve`: load the configuration, start the server (`server/start-server.ts`), and shut
 * down cleanly on SIGTERM/SIGINT (finish in-flight requests, close layer 2 and the store).
 */
import { loadConfig } from '../../config/config.js';
import { createLogger } from '../../observability/logger.js';
import { startServer } from '../../server/start-server.js';

export async function serveCommand(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  const server = await startServer(config, logger);

  let closing = false;
  const shutdown = (signal: string): void => {
    if (closing) return;
    closing = true;
    logger.info({ signal }, 'shutting down');
    server
      .close()
      .then(() => process.exit(0))
      .catch((error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
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
