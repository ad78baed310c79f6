/**
 * Run the real `linkguard` CLI from source as a child process (`node --import tsx
 * src/cli/main.ts …`), the way an operator runs it, and capture its exit code and output.
 */
import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Root of the package (where src/ and node_modules/ are). */
export const PACKAGE_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Run `linkguard <args>` with `env` added to the environment. Never rejects on a non-zero exit:
 * the exit code is part of the result. Times out after 60 s.
 */
export function runCli(args: readonly string[], env: Record<string, string>): Promise<CliResult> {
  return runNode(['--import', 'tsx', 'src/cli/main.ts'], args, env);
}

/**
 * Run `node <entry…> <args>` in the package root with `env` added (colours off) and capture its
 * exit code and output; the shared half of {@link runCli} and `runBuiltCli()`.
 */
export function runNode(
  entry: readonly string[],
  args: readonly string[],
  env: Record<string, string>,
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [...entry, ...args],
      {
        cwd: PACKAGE_ROOT,
        env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', ...env },
        timeout: 60_000,
        maxBuffer: 16 * 1024 * 1024,
      },
      (error, stdout, stderr) => {
        if (error !== null && typeof error.code !== 'number') {
          reject(
            new Error(`linkguard ${args.join(' ')} failed to run: ${error.message}\n${stderr}`),
          );
          return;
        }
        resolve({ code: error === null ? 0 : (error.code as number), stdout, stderr });
      },
    );
  });
}

/** Parse one JSON document printed on stdout. */
export function jsonOut(result: CliResult): unknown {
  return JSON.parse(result.stdout);
}

/** Parse JSON Lines printed on stdout. */
export function jsonLines(result: CliResult): unknown[] {
  return result.stdout
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line): unknown => JSON.parse(line));
}
