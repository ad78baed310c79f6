/**
 * @module store/store-values
 * Value rules both store adapters apply the same way: months, counts, and how long spent OAuth
 * codes are kept, report filters and resolutions. One copy, so SQLite and PostgreSQL cannot drift
 * apart.
 */

import type { Verdict } from '../engine/verdict.js';
import {
  type NewOverride,
  type OverrideRecord,
  REPORT_KINDS,
  type ReportFilter,
  type ReportKind,
  type ReportRecord,
  type ReportResolution,
  type ReportStatus,
} from './ports/correction-store.js';

/** A `YYYY-MM` month with a month 01–12. */
export const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;

/**
 * The UTC instants bounding a `YYYY-MM` month: `[from, to)` in epoch ms, `to` being the first
 * instant of the next month (December rolls over into January of the next year).
 *
 * @throws RangeError when `month` is not `YYYY-MM` with a month 01–12.
 */
export function monthRange(month: string): { from: number; to: number } {
  const match = MONTH.exec(month);
  if (match === null) throw new RangeError(`month must be YYYY-MM, got "${month}"`);
  const year = Number(match[1]);
  const index = Number(match[2]) - 1;
  return { from: Date.UTC(year, index, 1), to: Date.UTC(year, index + 1, 1) };
}

/** @throws RangeError unless `value` is a safe integer ≥ `min`. */
export function requireInteger(name: string, value: number, min: number): void {
  if (!Number.isSafeInteger(value) || value < min) {
    throw new RangeError(`${name} must be an integer ≥ ${String(min)}, got ${String(value)}`);
  }
}

/**
 * How long a spent or expired authorization code is kept after its expiry, so that its reuse
 * can still revoke the grant it issued (RFC 6749 §4.1.2). One day: clients retry within seconds.
 */
export const CODE_RETENTION_MS = 24 * 60 * 60 * 1000;

/**
 * How long a registered OAuth client that never completed a sign-in (no grant, no code, no
 * pending sign-in) is kept: one day. MCP clients register right before they open the sign-in
 * page, so a registration unused for a day was abandoned (docs/decisions.md, decision 140).
 */
export const ABANDONED_REGISTRATION_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * How long the (hashed) source address of a registration is kept: the window of the per-source
 * registration cap, one hour. After it the column is cleared.
 */
export const REGISTRATION_SOURCE_WINDOW_MS = 60 * 60 * 1000;

/**
 * A report filter's values as both adapters query them, checked: the CLI passes operator input
 * through, and an unknown status or kind must be an error, not an empty list.
 *
 * @returns `status` (null: any), `kind` (null: any) and `limit` (null: all).
 * @throws RangeError for a status other than `open`, `accepted`, `rejected`, `resolved`; a kind
 *   other than `false_positive`, `false_negative`; a limit that is not an integer ≥ 1.
 */
/** The statuses a report filter may name. */
const FILTER_STATUSES: ReadonlySet<string> = new Set(['open', 'accepted', 'rejected', 'resolved']);

export function reportFilterValues(filter: ReportFilter): {
  status: ReportStatus | 'resolved' | null;
  kind: ReportKind | null;
  limit: number | null;
} {
  const status = filter.status ?? null;
  if (status !== null && !FILTER_STATUSES.has(status)) {
    throw new RangeError(`unknown report status "${status}"`);
  }
  const kind = filter.kind ?? null;
  if (kind !== null && !REPORT_KINDS.includes(kind)) {
    throw new RangeError(`unknown report kind "${kind}"`);
  }
  const limit = filter.limit ?? null;
  if (limit !== null) requireInteger('limit', limit, 1);
  return { status, kind, limit };
}

/**
 * The override a resolution adds, with `reportId` set to the resolved report, after checking
 * the resolution.
 *
 * @returns null when the resolution adds no override.
 * @throws RangeError when `resolution.status` is not `accepted` or `rejected`, or when its
 *   override already names another report.
 */
export function resolutionOverride(id: string, resolution: ReportResolution): NewOverride | null {
  // Typed as a string: callers pass operator input through, whatever the type says.
  const status: string = resolution.status;
  if (status !== 'accepted' && status !== 'rejected') {
    throw new RangeError(`a report resolves as accepted or rejected, not "${status}"`);
  }
  const override = resolution.override;
  if (override === null) return null;
  if (override.reportId !== null && override.reportId !== id) {
    throw new RangeError(`the override of report ${id} names report ${override.reportId}`);
  }
  return { ...override, reportId: id };
}

/**
 * An override record built field by field from a driver's row (columns aliased to the record's
 * names), so both adapters hand out one shape whatever else the row carries.
 */
export function overrideRecordOf(row: OverrideRecord): OverrideRecord {
  return {
    id: row.id,
    action: row.action,
    scope: row.scope,
    target: row.target,
    reason: row.reason,
    createdBy: row.createdBy,
    createdAt: row.createdAt,
    expiresAt: row.expiresAt,
    removedAt: row.removedAt,
    removedBy: row.removedBy,
    reportId: row.reportId,
  };
}

/**
 * A report record built field by field from a driver's row, with its verdict as the adapter
 * decoded it (SQLite keeps JSON text, pg parses `json` itself).
 */
export function reportRecordOf(row: Omit<ReportRecord, 'verdict'>, verdict: Verdict): ReportRecord {
  return {
    id: row.id,
    createdAt: row.createdAt,
    url: row.url,
    kind: row.kind,
    comment: row.comment,
    contact: row.contact,
    source: row.source,
    sourceId: row.sourceId,
    verdict,
    engineVersion: row.engineVersion,
    dataVersion: row.dataVersion,
    status: row.status,
    resolvedAt: row.resolvedAt,
    resolvedBy: row.resolvedBy,
    resolutionNote: row.resolutionNote,
    overrideId: row.overrideId,
    redactedAt: row.redactedAt,
    redactedBy: row.redactedBy,
  };
}
