/**
 * @module ratelimit/report-budget
 * The refusal of a spent report budget (README, "Reporting a wrong verdict"), the same on
 * `POST /v1/reports` and the connector's `report_url`: a report with a credential counts against
 * that credential's budget (`RateLimits.consumeReportFromCredential`, 100 an hour), one without
 * against its source address's (`consumeReportFromSource`, 10 an hour, shared with the
 * `GET /report` page). Reports never touch a key's per-minute budget, monthly
 * allowance or usage log, nor a license's monthly checks: they are free.
 */
import { AppError } from '../errors.js';
import type { RateLimitState } from './rate-limits.js';

/**
 * The refusal of a spent report budget: `rate_limited` with `retryAfter` = seconds until the
 * window resets, and a message naming the budget; null while the budget allows the report.
 */
export function reportBudgetRefusal(state: RateLimitState): AppError | null {
  if (state.allowed) return null;
  const who = state.policy === 'reports-per-ip' ? 'from this address' : 'with this credential';
  const hours = state.windowSeconds / 3600;
  const per = hours === 1 ? 'hour' : `${String(hours)} hours`;
  return new AppError(
    'rate_limited',
    `Too many reports ${who}: at most ${String(state.limit)} per ${per}`,
    { retryAfter: state.resetSeconds },
  );
}
