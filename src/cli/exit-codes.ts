/**
 * @module cli/exit-codes
 * The exit codes of every `linkguard` command (README "CLI", `linkguard --help`; docs/decisions.md,
 * decision 147), so scripts can act on them the way they act on a linter's:
 *
 * | code | meaning                                                                                     |
 * | ---- | ------------------------------------------------------------------------------------------- |
 * | 0    | done; `check`: every input is `safe`                                                        |
 * | 1    | done, the answer is no (unknown id or feed, no RDAP answer, `pay-check` not served), or an unexpected error (a bug: printed with its stack trace) |
 * | 2    | usage error: unknown command or option, bad argument, a named file that cannot be read, bad configuration variable |
 * | 3    | operational error: the store cannot be opened or reached, a system call failed (address in use, disk) |
 * | 4    | `check`: the worst verdict is `caution`, or an input is not a URL linkguard judges          |
 * | 5    | `check`: at least one input is `danger`                                                     |
 *
 * Verdicts stay clear of 1 because Node itself exits 1 on an uncaught exception: a crash must
 * never read as a verdict.
 */
import { isAppError } from '../errors.js';

/** The exit codes, by meaning. */
export const EXIT = {
  ok: 0,
  negative: 1,
  usage: 2,
  operational: 3,
  caution: 4,
  danger: 5,
} as const;

/** Appended to `linkguard --help` and `linkguard check --help`. */
export const EXIT_CODES_HELP = `
Exit codes:
  0  done; check: every input is safe
  1  done, the answer is no (unknown id or feed, no RDAP answer, pay-check not served),
     or an unexpected error (printed with its stack trace)
  2  usage error: unknown command or option, bad argument, a named file that cannot be read,
     bad configuration variable
  3  operational error: the store cannot be opened or reached, a system call failed
  4  check: the worst verdict is caution, or an input is not a URL linkguard judges
  5  check: at least one input is danger`;

/**
 * An expected failure of the environment rather than of the command line: printed as one line
 * without a stack trace, exit code 3.
 */
export class OperationalError extends Error {
  override readonly name = 'OperationalError';
}

/**
 * SQLite result codes (better-sqlite3's `SqliteError.code`, https://sqlite.org/rescode.html)
 * that come from the file or the disk, not from a statement linkguard wrote.
 */
const SQLITE_ENVIRONMENT = /^SQLITE_(CANTOPEN|READONLY|PERM|BUSY|LOCKED|FULL|IOERR|NOTADB|CORRUPT)/;

/**
 * The one line to print for an error the environment caused, or null for anything else (a bug,
 * which keeps its stack trace). Covers {@link OperationalError}, Node system errors (`errno` and
 * `syscall` set: `EADDRINUSE`, `ENOSPC`, `EACCES`, …), SQLite file errors and the PostgreSQL
 * adapter's `service_unavailable`. The message never holds more than the error's own text, which
 * for these errors names a path or an address, never a credential.
 */
export function operationalMessage(error: unknown): string | null {
  if (error instanceof OperationalError) return error.message;
  if (isAppError(error) && error.code === 'service_unavailable') return error.message;
  if (!(error instanceof Error)) return null;
  const code = (error as NodeJS.ErrnoException).code;
  if (typeof code !== 'string') return null;
  const system = 'syscall' in error && 'errno' in error;
  if (system || SQLITE_ENVIRONMENT.test(code)) return firstLine(error.message);
  return null;
}

function firstLine(text: string): string {
  return text.split('\n', 1)[0] ?? text;
}
