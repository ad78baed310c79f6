/**
 * @module net/to-net-error
 * Maps what a hop of the outbound client threw to the {@link NetError} contract.
 */
import { isNetError, NetError } from './net-error.js';

/** undici codes for its own header/body timers (only reached if they fire before the budget). */
const UNDICI_TIMEOUT_CODES: ReadonlySet<string> = new Set([
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

/**
 * Map whatever a hop threw to the client's contract. A caller abort is passed through as the
 * caller's own reason; the deadline becomes `timeout`; connect failures arrive already wrapped by
 * the pinned connector; anything else the peer caused (socket closed, parser error, length
 * mismatch, oversized headers) is `protocol_error`.
 */
export function toNetError(
  error: unknown,
  url: string,
  deadline: AbortSignal,
  callerSignal: AbortSignal | undefined,
): unknown {
  if (error instanceof TypeError) return error;
  if (isNetError(error)) {
    // The pinned connector knows only the origin; name the hop instead.
    return error.code === 'connect_failed'
      ? new NetError(error.code, error.message, url, { cause: error.cause })
      : error;
  }
  if (callerSignal?.aborted === true && !deadline.aborted) return callerSignal.reason;
  const code = errorCode(error);
  if (deadline.aborted || (code !== undefined && UNDICI_TIMEOUT_CODES.has(code))) {
    return new NetError('timeout', 'time budget exhausted', url, { cause: error });
  }
  // An invalid argument reaching undici is a bug in the caller's options, not a network outcome.
  if (code === 'UND_ERR_INVALID_ARG') return error;
  const message = error instanceof Error ? error.message : 'request failed';
  return new NetError('protocol_error', message, url, { cause: error });
}

function errorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined;
  return typeof error.code === 'string' ? error.code : undefined;
}
