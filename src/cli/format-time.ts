/**
 * @module cli/format-time
 * Times in CLI output: ISO 8601 UTC, empty for "never".
 */

/** `2026-11-21T03:20:23.355Z`, or '' for null. */
export function isoOrEmpty(ms: number | null): string {
  return ms === null ? '' : new Date(ms).toISOString();
}
