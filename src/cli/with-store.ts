/**
 * @module cli/with-store
 * Open the configured store for one command and close it afterwards, also when the command fails.
 */
import { loadConfig } from '../config/config.js';
import { openStore, type StoreLocation } from '../store/open-store.js';
import type { Store } from '../store/ports/store.js';
import { OperationalError, operationalMessage } from './exit-codes.js';

/** Where the store is, for a message: the SQLite path, or PostgreSQL's host, port and database. */
function describeLocation(location: StoreLocation): string {
  if (location.kind === 'sqlite') return `sqlite:${location.path}`;
  // Never the user name, password or query parameters of DATABASE_URL.
  return location.url.replace(/^([a-z]+:\/\/)[^?#]*@/i, '$1').replace(/[?#].*$/, '');
}

/**
 * Open the store at `location` for a CLI command.
 *
 * @throws OperationalError (exit code 3, one line) when the store cannot be opened or reached
 *   (a path that is not a writable directory, a file that is not a database, PostgreSQL down);
 *   other errors (a bug) unchanged.
 */
export async function openCliStore(location: StoreLocation): Promise<Store> {
  try {
    return await openStore(location);
  } catch (error) {
    const message = operationalMessage(error);
    if (message === null) throw error;
    throw new OperationalError(
      `Cannot open the store (${describeLocation(location)}): ${message}`,
      { cause: error },
    );
  }
}

/** Run `action` with the store named by the environment (README "Configuration"). */
export async function withStore<T>(action: (store: Store) => Promise<T>): Promise<T> {
  const store = await openCliStore(loadConfig().store);
  try {
    return await action(store);
  } finally {
    await store.close();
  }
}
