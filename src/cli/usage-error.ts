/**
 * @module cli/usage-error
 * A mistake in how a command was called (bad flag combination, unknown id): printed without a
 * stack trace, exit code 2.
 */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}
