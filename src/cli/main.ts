/**
 * @module cli/main
 * The `linkguard` command: `serve`, `keys`, `licenses`, `check`, `eval`, `reports`, `overrides`,
 * `migrate`, …. Every command reads the same environment configuration as the server (README
 * "Configuration"), except
 * `pay-check`, a client of a running service: it judges one URL by paying the x402 challenge like
 * a pay-per-request user (options only, plus LINKGUARD_BASE_PRIVATE_KEY).
 */
import { pathToFileURL } from 'node:url';

import { Command, CommanderError } from 'commander';
import pc from 'picocolors';

import { ConfigError, loadConfig } from '../config/config.js';
import { SERVICE_VERSION } from '../version.js';
import { EXIT, EXIT_CODES_HELP, operationalMessage } from './exit-codes.js';
import { UsageError } from './usage-error.js';
import { openCliStore } from './with-store.js';

/**
 * The subcommands, each loaded only when used: `serve` pulls in the HTTP app, the MCP SDK, the
 * chain clients and the page analyzers, which a `keys list` has no use for (a CLI invocation then
 * starts in a fraction of the time).
 */
const SUBCOMMANDS: Readonly<Record<string, () => Promise<Command>>> = {
  serve: async () => {
    const { serveCommand } = await import('./commands/serve-command.js');
    return new Command('serve').description('start the HTTP service').action(serveCommand);
  },
  keys: async () => (await import('./commands/keys-command.js')).keysCommand(),
  licenses: async () => (await import('./commands/licenses-command.js')).licensesCommand(),
  check: async () => (await import('./commands/check-command.js')).checkCommand(),
  eval: async () => (await import('./commands/eval-command.js')).evalCommand(),
  feeds: async () => (await import('./commands/feeds-command.js')).feedsCommand(),
  reports: async () => (await import('./commands/reports-command.js')).reportsCommand(),
  overrides: async () => (await import('./commands/overrides-command.js')).overridesCommand(),
  history: async () => (await import('./commands/history-command.js')).historyCommand(),
  rdap: async () => (await import('./commands/rdap-command.js')).rdapCommand(),
  'pay-check': async () => (await import('./commands/pay-check-command.js')).payCheckCommand(),
};

/**
 * Build the command tree: the subcommand named in `argv` only, or every one (help, unknown
 * names), so the output for help and errors is unchanged.
 */
export async function program(argv: readonly string[] = []): Promise<Command> {
  const root = new Command('linkguard')
    .description('Link threat detection: safe / caution / danger verdicts for URLs')
    .version(SERVICE_VERSION)
    .showHelpAfterError()
    .addHelpText('after', EXIT_CODES_HELP);
  root
    .command('migrate')
    .description('create or upgrade the store schema (serve does this too)')
    .action(async () => {
      const config = loadConfig();
      const store = await openCliStore(config.store);
      await store.ping();
      await store.close();
      console.log(`Store is up to date (${config.store.kind}).`);
    });
  const named = argv[2];
  const wanted =
    named !== undefined && Object.hasOwn(SUBCOMMANDS, named) ? [named] : Object.keys(SUBCOMMANDS);
  for (const name of wanted) {
    const build = SUBCOMMANDS[name];
    if (build !== undefined) root.addCommand(await build());
  }
  return root;
}

/**
 * Make commander throw its parse errors instead of exiting, on every command: `exitOverride()`
 * is inherited only by subcommands made with `.command()`, not by those added with `addCommand()`.
 */
function throwInsteadOfExit(command: Command): void {
  command.exitOverride();
  for (const sub of command.commands) throwInsteadOfExit(sub);
}

/**
 * Run the CLI. Expected failures print one line to stderr, without a stack trace, and set the
 * documented exit code (`cli/exit-codes.ts`): commander's parse errors (already printed), usage
 * and configuration errors 2, failures of the environment (store, system calls) 3. Anything else
 * is a bug and is rethrown with its stack trace (Node exits 1).
 */
export async function main(argv: readonly string[]): Promise<void> {
  try {
    const root = await program(argv);
    throwInsteadOfExit(root);
    await root.parseAsync(argv);
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version exit 0; every parse error (unknown option, missing argument) is usage.
      process.exitCode = error.exitCode === 0 ? EXIT.ok : EXIT.usage;
      return;
    }
    if (error instanceof UsageError) {
      console.error(pc.red(error.message));
      process.exitCode = EXIT.usage;
      return;
    }
    if (error instanceof ConfigError) {
      console.error(pc.red(`Configuration error: ${error.message}`));
      process.exitCode = EXIT.usage;
      return;
    }
    const operational = operationalMessage(error);
    if (operational !== null) {
      console.error(pc.red(operational));
      process.exitCode = EXIT.operational;
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
