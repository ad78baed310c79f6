/**
 * @module cli/correction-views
 * Reports and overrides as the operator commands print them: the JSON views of `--json`
 * (snake_case, times as ISO 8601 UTC, like `keys list --json`) and the words of the plain output.
 */
import type { OverrideRecord, ReportRecord } from '../store/ports/correction-store.js';
import { isoOrEmpty } from './format-time.js';

/** Whether an override applies now. */
export type OverrideState = 'active' | 'expired' | 'removed';

/** `removed` once removed; else `expired` from its expiry (exclusive) on; else `active`. */
export function overrideState(override: OverrideRecord, now: number): OverrideState {
  if (override.removedAt !== null) return 'removed';
  if (override.expiresAt !== null && override.expiresAt <= now) return 'expired';
  return 'active';
}

const isoOrNull = (ms: number | null): string | null => (ms === null ? null : isoOrEmpty(ms));

/** An override for `--json`: every stored field plus its `state` at `now`. */
export function overrideView(override: OverrideRecord, now: number) {
  return {
    id: override.id,
    action: override.action,
    scope: override.scope,
    target: override.target,
    reason: override.reason,
    state: overrideState(override, now),
    created_by: override.createdBy,
    created_at: isoOrEmpty(override.createdAt),
    expires_at: isoOrNull(override.expiresAt),
    removed_by: override.removedBy,
    removed_at: isoOrNull(override.removedAt),
    report_id: override.reportId,
  };
}

/**
 * A report for `--json`: every stored field, the verdict at filing whole (the API's verdict
 * object), and with `override` the override its resolution created (or null).
 */
export function reportView(report: ReportRecord) {
  return {
    id: report.id,
    created_at: isoOrEmpty(report.createdAt),
    url: report.url,
    kind: report.kind,
    comment: report.comment,
    contact: report.contact,
    source: report.source,
    source_id: report.sourceId,
    verdict: report.verdict,
    engine_version: report.engineVersion,
    data_version: report.dataVersion,
    status: report.status,
    resolved_at: isoOrNull(report.resolvedAt),
    resolved_by: report.resolvedBy,
    resolution_note: report.resolutionNote,
    override_id: report.overrideId,
    redacted_at: isoOrNull(report.redactedAt),
    redacted_by: report.redactedBy,
  };
}

/**
 * What an override covers, in words: `domain example.com`, `host login.example.com`, `URL prefix
 * https://example.com/app/ (http or https)` (a prefix covers both schemes).
 */
export function overrideScopeText(override: Pick<OverrideRecord, 'scope' | 'target'>): string {
  if (override.scope === 'url_prefix') return `URL prefix ${override.target} (http or https)`;
  return `${override.scope} ${override.target}`;
}
