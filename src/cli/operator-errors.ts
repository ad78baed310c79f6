/**
 * @module cli/operator-errors
 * How the operator commands (`linkguard reports …`, `linkguard overrides …`) report the
 * `AppError`s of the operator actions, with the exit codes of `cli/exit-codes.ts`: an unknown id
 * is an answer ("no such report", exit 1); a refused request (invalid target, missing reason,
 * expiry in the past, already resolved) is a usage error (exit 2). Either is one line on stderr.
 */
import { userInfo } from 'node:os';

import pc from 'picocolors';

import { isAppError } from '../errors.js';
import { EXIT } from './exit-codes.js';
import { UsageError } from './usage-error.js';

/** Longest operator name, UTF-16 code units (as `keys create --name`). */
const MAX_OPERATOR_NAME = 200;

/**
 * Run an operator action.
 *
 * @returns its result, or null after printing the message of a `not_found` error and setting
 *   exit code 1.
 * @throws UsageError (exit 2) for `invalid_request` and `invalid_url`; anything else unchanged
 *   (store failures are operational errors, exit 3; the rest are bugs).
 */
export async function operatorAction<T>(action: () => Promise<T>): Promise<T | null> {
  try {
    return await action();
  } catch (error) {
    if (!isAppError(error)) throw error;
    if (error.code === 'not_found') {
      console.error(pc.red(error.message));
      process.exitCode = EXIT.negative;
      return null;
    }
    if (error.code === 'invalid_request' || error.code === 'invalid_url') {
      throw new UsageError(error.message, { cause: error });
    }
    throw error;
  }
}

/** Print "No <what> <id>" and set exit code 1: the answer for an unknown id. */
export function notFound(what: string, id: string): void {
  console.error(pc.red(`No ${what} ${id}`));
  process.exitCode = EXIT.negative;
}

/**
 * The operator's name recorded with a change: `--by`, else the OS user running the command
 * (`os.userInfo().username`).
 *
 * @throws UsageError when `--by` is empty or longer than 200 characters, or when no `--by` is
 *   given and the OS has no name for the user (a container without a passwd entry): linkguard
 *   never records a change without a name.
 */
export function operatorName(by: string | undefined): string {
  if (by !== undefined) {
    const name = by.trim();
    if (name === '' || name.length > MAX_OPERATOR_NAME) {
      throw new UsageError(`--by must be 1–${MAX_OPERATOR_NAME} characters`);
    }
    return name;
  }
  let name: string;
  try {
    name = userInfo().username.trim();
  } catch (error) {
    throw new UsageError('Cannot tell the OS user name; give --by NAME', { cause: error });
  }
  if (name === '') throw new UsageError('Cannot tell the OS user name; give --by NAME');
  return name;
}
