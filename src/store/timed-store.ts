/**
 * @module store/timed-store
 * The store with the duration and failure of every port operation reported to the metrics
 * (`linkguard_store_operation_duration_seconds`, `linkguard_store_operation_errors_total`): one
 * decorator applied where the store is opened (the composition root), so no adapter's SQL method
 * changes and SQLite and PostgreSQL are measured alike (docs/decisions.md, decision 169).
 */
import type { OperationRecorder, StoreObserver } from '../observability/observer.js';
import type { Store } from './ports/store.js';

/**
 * `store` with every method of its ports timed; `close()` passes through untimed.
 *
 * @param observer asked once per port method for its recorder, then told each call's duration
 *   (ms, until the promise settles) and whether it succeeded.
 * @returns a store that behaves exactly like `store` (same results, same errors); closing it
 *   closes `store`.
 */
export function timedStore(store: Store, observer: StoreObserver): Store {
  const ping = timedMethod(store, () => store.ping(), observer.storeOperation('store', 'ping'));
  return {
    keys: timedPort(store.keys, 'keys', observer),
    usage: timedPort(store.usage, 'usage', observer),
    payments: timedPort(store.payments, 'payments', observer),
    intel: timedPort(store.intel, 'intel', observer),
    licenses: timedPort(store.licenses, 'licenses', observer),
    oauth: timedPort(store.oauth, 'oauth', observer),
    reports: timedPort(store.reports, 'reports', observer),
    overrides: timedPort(store.overrides, 'overrides', observer),
    ping: () => ping() as Promise<void>,
    close: () => store.close(),
  };
}

type Method = (...args: unknown[]) => unknown;

/**
 * An object whose prototype is `port` (so anything not wrapped reads through) with each of the
 * port's methods replaced by a timed call of the original on `port` itself.
 */
function timedPort<T extends object>(port: T, name: string, observer: StoreObserver): T {
  const timed = Object.create(port) as Record<string, unknown>;
  for (const method of methodNames(port)) {
    const original = (port as Record<string, unknown>)[method] as Method;
    timed[method] = timedMethod(port, original, observer.storeOperation(name, method));
  }
  return timed as T;
}

function timedMethod(target: object, original: Method, record: OperationRecorder): Method {
  return (...args: unknown[]): unknown => {
    const started = performance.now();
    let result: unknown;
    try {
      result = original.apply(target, args);
    } catch (error) {
      record(performance.now() - started, false);
      throw error;
    }
    if (!(result instanceof Promise)) {
      record(performance.now() - started, true);
      return result;
    }
    return result.then(
      (value: unknown) => {
        record(performance.now() - started, true);
        return value;
      },
      (error: unknown) => {
        record(performance.now() - started, false);
        throw error;
      },
    );
  };
}

/** The names of the functions `object` offers, own or inherited, short of `Object.prototype`. */
function methodNames(object: object): string[] {
  const names = new Set<string>();
  for (
    let level: object | null = object;
    level !== null && level !== Object.prototype;
    level = Object.getPrototypeOf(level) as object | null
  ) {
    for (const name of Object.getOwnPropertyNames(level)) {
      if (name === 'constructor') continue;
      const descriptor = Object.getOwnPropertyDescriptor(level, name);
      if (typeof descriptor?.value === 'function') names.add(name);
    }
  }
  return [...names];
}
