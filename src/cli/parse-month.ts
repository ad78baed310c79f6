/**
 * @module cli/parse-month
 * The `--month YYYY-MM` option of the usage commands (`keys usage`, `licenses usage`).
 */
import { InvalidArgumentError } from 'commander';

/**
 * Commander option parser: `value` unchanged when it is `YYYY-MM` with a month 01–12 (UTC months,
 * as in `store/ports/`).
 *
 * @throws InvalidArgumentError otherwise (commander prints it and exits non-zero).
 */
export function parseMonth(value: string): string {
  if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(value))
    throw new InvalidArgumentError('expected a month as YYYY-MM');
  return value;
}
