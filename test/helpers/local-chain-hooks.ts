/**
 * Per-file hooks that start a real local chain (scripts/local-chains: Surfpool as Solana, anvil as
 * Base) before the calling file's tests and stop it after them. Each returns a handle that can be
 * used at module level and reads the running chain when a test touches it, so a file names only
 * the chains it needs:
 *
 *   const solana = useLocalSolana();
 *   it('…', async () => { await solana.newFundedWallet(1n); });
 */
import { afterAll, beforeAll } from 'vitest';

import {
  type LocalBase,
  type LocalSolana,
  startLocalBase,
  startLocalSolana,
} from '../../scripts/local-chains/index.js';

/** Surfpool for the calling file (beforeAll / afterAll). */
export function useLocalSolana(): LocalSolana {
  return useLocalChain('Surfpool', startLocalSolana);
}

/** anvil answering as Base mainnet for the calling file (beforeAll / afterAll). */
export function useLocalBase(): LocalBase {
  return useLocalChain('anvil', startLocalBase);
}

function useLocalChain<T extends object & { stop(): Promise<void> }>(
  name: string,
  start: () => Promise<T>,
): T {
  let running: T | undefined;
  beforeAll(async () => {
    running = await start();
  });
  afterAll(async () => {
    await running?.stop();
    running = undefined;
  });
  const current = (): T => {
    if (running === undefined) throw new Error(`${name} is used outside the file's tests`);
    return running;
  };
  // A proxy rather than a `let` per file: the handle exists before beforeAll has started the chain.
  return new Proxy({} as T, {
    get: (_target, key): unknown => Reflect.get(current(), key),
  });
}
