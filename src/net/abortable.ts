/**
 * @module net/abortable
 * Stop waiting for a promise when a signal aborts. Used where the awaited work itself ignores
 * the signal for a while: `getaddrinfo` cannot be cancelled, and undici applies a request's
 * signal only once a connection is up (`onConnect`), so a connect or TLS handshake that hangs
 * would otherwise hold the caller for the connector's own timeout (issue 14, finding 12).
 */

/**
 * Settle with `promise`, or reject with `signal.reason` as soon as the signal aborts.
 *
 * @param promise the work; it goes on after an abort, so its late outcome is handed to `late`.
 * @param signal the caller's deadline or cancellation.
 * @param late called with the value should `promise` fulfil after the abort (e.g. to release a
 *   response body); a late rejection is swallowed, the caller has its answer already.
 * @returns the value of `promise`.
 * @throws `signal.reason` (an Error; a non-Error reason is wrapped) when the signal aborts first,
 *   else whatever `promise` rejects with.
 */
export function abortable<T>(
  promise: Promise<T>,
  signal: AbortSignal,
  late?: (value: T) => void,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const onAbort = (): void => {
      settled = true;
      reject(abortReason(signal));
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        if (settled) late?.(value);
        else resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        if (!settled) reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

function abortReason(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason : new Error('aborted', { cause: reason });
}
