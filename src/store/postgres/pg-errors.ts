/**
 * @module store/postgres/pg-errors
 * Tell an unreachable database from a bug. A connection that cannot be made, is cut, or a server
 * shutting down means the store is unavailable: callers get 503 `service_unavailable` with a
 * `Retry-After`, and since every exactly-once step is one transaction, nothing was claimed or
 * spent by the failed call. Anything else (a constraint violation, a syntax error) stays a 500.
 */

import { AppError, isAppError } from '../../errors.js';

/** Seconds a client should wait before retrying while the database is unreachable. */
export const STORE_RETRY_AFTER_SECONDS = 5;

/**
 * Node socket errors and libpq/pg messages that mean "cannot talk to the server". The SQLSTATE
 * classes are PostgreSQL's (Appendix A, "PostgreSQL Error Codes"): 08 connection exception,
 * 57P01–57P03 admin/crash shutdown and cannot-connect-now, 53300 too many connections.
 */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  '57P01',
  '57P02',
  '57P03',
  '53300',
]);

const NETWORK_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error',
  'Connection terminated unexpectedly',
  'Query read timeout',
];

/** True when `error` says the database server cannot be reached or is going away. */
export function isUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || code.startsWith('08'))) return true;
  if (NETWORK_MESSAGES.some((m) => error.message.includes(m))) return true;
  return error instanceof AggregateError && error.errors.some(isUnavailable);
}

/**
 * Rethrow `error` as 503 `service_unavailable` when the database is unreachable, unchanged
 * otherwise. The driver's error is kept as `cause` for the log (it names no credentials:
 * pg's messages carry host and port at most).
 */
export function storeError(error: unknown): unknown {
  if (isAppError(error) || !isUnavailable(error)) return error;
  return new AppError(
    'service_unavailable',
    `The store is unavailable; nothing was recorded. Retry in ${STORE_RETRY_AFTER_SECONDS} s.`,
    { cause: error, retryAfter: STORE_RETRY_AFTER_SECONDS, reason: 'store_unavailable' },
  );
}
