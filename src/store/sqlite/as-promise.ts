/**
 * Run a synchronous better-sqlite3 call behind an async port method. The call runs right away
 * (no extra tick, so a statement's atomicity is not stretched over an await), and a throw becomes
 * a rejected promise instead of escaping synchronously, as callers of an async port expect.
 */
export function asPromise<T>(fn: () => T): Promise<T> {
  return new Promise<T>((resolve) => {
    resolve(fn());
  });
}
