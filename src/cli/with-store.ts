/**
 * @module cli/with-store
 * Open the configured store for one command and close it afterwards, also when the command fails.
 */
import { loadConfig } from '../config/config.js';
import { openStore } from '../store/open-store.js';
import type { Store } from '../store/ports/store.js';

/** Run `action` with the store named by the environment (README "Configuration"). */
export async function withStore<T>(action: (store: Store) => Promise<T>): Promise<T> {
  const store = await openStore(loadConfig().store);
  try {
    return await action(store);
  } finally {
    await store.close();
  }
}
