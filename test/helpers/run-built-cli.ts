/**
 * Run the built `linkguard` command (`node bin/linkguard.js …`, which imports dist/: run `npm run
 * build` first) as a child process, the way an operator runs an installed copy, and capture its
 * exit code and output. Starts several times faster than `runCli()` (no TypeScript compile), which
 * matters for tests that run many commands in sequence.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';

import { type CliResult, PACKAGE_ROOT, runNode } from './run-cli.js';

const BIN = join(PACKAGE_ROOT, 'bin', 'linkguard.js');

/**
 * Run `linkguard <args>` with `env` added to the environment (colours off). Never rejects on a
 * non-zero exit: the exit code is part of the result. Times out after 60 s.
 *
 * @throws when dist/ is missing (the message says to build), or the process cannot be started.
 */
export function runBuiltCli(
  args: readonly string[],
  env: Record<string, string>,
): Promise<CliResult> {
  if (!existsSync(join(PACKAGE_ROOT, 'dist', 'src', 'cli', 'main.js'))) {
    return Promise.reject(new Error('dist/ is missing: run `npm run build` before the CLI tests'));
  }
  return runNode([BIN], args, env);
}
