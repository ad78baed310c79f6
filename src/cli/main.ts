/**
 * @module cli/main
 * The `linkguard` command: `serve`, `keys`, `check`, `eval`, `migrate`. Every command reads the
 * same environment configuration as the server (README "Configuration"), except `pay-check`, a
 * client of a running service: it judges one URL by paying the x402 challenge like a
 * pay-per-request user (options only, plus LINKGUARD_BASE_PRIVATE_KEY).
 */
import { pathToFileURL } from 'node:url';

import { Command, CommanderError } from 'commander';
import pc from 'picocolors';

import { ConfigError, loadConfig } from '../config/config.js';
import { openStore } from '../store/open-store.js';
import { SERVICE_VERSION } from '../version.js';
import { checkCommand } from './commands/check-command.js';
import { evalCommand } from './commands/eval-command.js';
import { feedsCommand } from './commands/feeds-command.js';
import { historyCommand } from './commands/history-command.js';
import { keysCommand } from './commands/keys-command.js';
import { payCheckCommand } from './commands/pay-check-command.js';
import { rdapCommand } from './commands/rdap-command.js';
import { serveCommand } from './commands/serve-command.js';
import { UsageError } from './usage-error.js';

/** Build the command tree (exported for tests). */
export function program(): Command {
  const root = new Command('linkguard')
    .description('Link threat detection: safe / caution / danger verdicts for URLs')
    .version(SERVICE_VERSION)
    .showHelpAfterError();
  root.command('serve').description('start the HTTP service').action(serveCommand);
  root
    .command('migrate')
    .description('create or upgrade the store schema (serve does this too)')
    .action(async () => {
      const config = loadConfig();
      const store = openStore(config.store);
      await store.ping();
      await store.close();
      console.log(`Store is up to date (${config.store.kind}).`);
    });
  root.addCommand(keysCommand());
  root.addCommand(checkCommand());
  root.addCommand(evalCommand());
  root.addCommand(feedsCommand());
  root.addCommand(historyCommand());
  root.addCommand(rdapCommand());
  root.addCommand(payCheckCommand());
  return root;
}

/** Run the CLI; prints configuration and argument errors without a stack trace. */
export async function main(argv: readonly string[]): Promise<void> {
  try {
    await program().exitOverride().parseAsync(argv);
  } catch (error) {
    if (error instanceof CommanderError) {
      process.exitCode = error.exitCode;
      return;
    }
    if (error instanceof UsageError) {
      console.error(pc.red(error.message));
      process.exitCode = 2;
      return;
    }
    if (error instanceof ConfigError) {
      console.error(pc.red(`Configuration error: ${error.message}`));
      process.exitCode = 2;
      return;
    }
    throw error;
  }
}

// Run when executed directly (`tsx src/cli/main.ts`, `node dist/src/cli/main.js`); bin/linkguard.js
// imports `main` instead.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await main(process.argv);
}
