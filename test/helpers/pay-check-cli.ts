/**
 * Run `linkguard pay-check` (the real CLI as a child process, see run-cli.ts) and build its
 * argument list from named parts instead of writing the flags out in every test.
 */
import { type CliResult, runCli } from './run-cli.js';

export interface PayCheckTarget {
  /** The URL to judge (default https://example.com/). */
  url?: string;
  chain: 'solana' | 'base';
  /** `--service`: the service's base URL. */
  service: string;
  /** `--rpc-url` of the paying chain. */
  rpcUrl: string;
  /** `--keypair`: a solana-keygen keypair file. */
  keypair?: string;
}

/** `<url> --chain … --service … --rpc-url … [--keypair …]`, then `extra` as given. */
export function payCheckArgs(target: PayCheckTarget, ...extra: string[]): string[] {
  return [
    target.url ?? 'https://example.com/',
    '--chain',
    target.chain,
    '--service',
    target.service,
    '--rpc-url',
    target.rpcUrl,
    ...(target.keypair === undefined ? [] : ['--keypair', target.keypair]),
    ...extra,
  ];
}

/** `linkguard pay-check <args>` with `env` added to the environment. */
export function runPayCheck(
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<CliResult> {
  return runCli(['pay-check', ...args], env);
}
