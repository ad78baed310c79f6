/**
 * @module corrections/operator-actions
 * What the operator does with reports and overrides (`linkguard reports …`, `linkguard overrides
 * …`): add an override, remove one, resolve a report and create its override in one step. Every
 * change records who made it, when and why; overrides are never deleted, only marked removed.
 */
import type { Clock } from '../clock.js';
import { AppError } from '../errors.js';
import type {
  NewOverride,
  OverrideAction,
  OverrideRecord,
  ReportRecord,
} from '../store/ports/correction-store.js';
import type { Store } from '../store/ports/store.js';
import { codePointLength } from './code-points.js';
import { newOverrideId } from './correction-ids.js';
import { parseOverrideTarget } from './override-target.js';

/** Longest override reason and resolution note, characters: a sentence or two, shown in verdicts. */
export const MAX_OPERATOR_TEXT = 500;

/** An override as the operator asks for it. */
export interface OverrideRequest {
  action: OverrideAction;
  /** Host, registrable domain or URL prefix (`parseOverrideTarget()`). */
  target: string;
  /** Why; shown in every verdict the override decides. Required. */
  reason: string;
  /** Who (the operator's name). Required. */
  by: string;
  /** Expiry, ms since the epoch (must be in the future), or null for none. */
  expiresAt: number | null;
}

/**
 * Validate an override request into the record to store.
 *
 * @throws {AppError} `invalid_request` with reason `override_target` (see `parseOverrideTarget`),
 *   `missing_reason`, `reason_too_long` (> {@link MAX_OPERATOR_TEXT}), `missing_operator` or
 *   `expiry_in_past`.
 */
export function overrideRecord(
  request: OverrideRequest,
  now: number,
  reportId: string | null,
): NewOverride {
  const { scope, target } = parseOverrideTarget(request.target);
  const reason = operatorText(request.reason, 'reason');
  if (reason === null) {
    throw new AppError('invalid_request', 'An override needs a reason', {
      reason: 'missing_reason',
    });
  }
  const by = request.by.trim();
  if (by === '') {
    throw new AppError('invalid_request', 'An override needs the operator name', {
      reason: 'missing_operator',
    });
  }
  if (request.expiresAt !== null && request.expiresAt <= now) {
    throw new AppError('invalid_request', 'The expiry is not in the future', {
      reason: 'expiry_in_past',
    });
  }
  return {
    id: newOverrideId(),
    action: request.action,
    scope,
    target,
    reason,
    createdBy: by,
    createdAt: now,
    expiresAt: request.expiresAt,
    reportId,
  };
}

/**
 * Add an override; it applies on the next request of every instance sharing the store.
 *
 * @returns the stored override.
 * @throws {AppError} as {@link overrideRecord}; what the store throws.
 */
export async function addOverride(
  store: Store,
  clock: Clock,
  request: OverrideRequest,
): Promise<OverrideRecord> {
  const record = overrideRecord(request, clock.now(), null);
  await store.overrides.addOverride(record);
  return { ...record, removedAt: null, removedBy: null };
}

/**
 * Remove an override (it stops applying on the next request; the record stays).
 *
 * @returns the override as it is now.
 * @throws {AppError} `not_found` for an unknown id; `invalid_request` (reason
 *   `already_removed`) when it was removed before.
 */
export async function removeOverride(
  store: Store,
  clock: Clock,
  id: string,
  by: string,
): Promise<OverrideRecord> {
  const outcome = await store.overrides.removeOverride(id, clock.now(), by);
  if (outcome === 'not_found') throw new AppError('not_found', `No override ${id}`);
  if (outcome === 'already_removed') {
    throw new AppError('invalid_request', `Override ${id} was already removed`, {
      reason: 'already_removed',
    });
  }
  const removed = await store.overrides.findOverride(id);
  if (removed === null) throw new AppError('not_found', `No override ${id}`);
  return removed;
}

/** How the operator resolves a report. */
export interface ResolveRequest {
  /** `accepted`: the reporter was right; `rejected`: the verdict stands. */
  status: 'accepted' | 'rejected';
  by: string;
  note: string | null;
  /** An override created in the same transaction (its `by` is the resolver), or null. */
  override: Omit<OverrideRequest, 'by'> | null;
}

/**
 * Resolve an open report, and create its override in the same step when asked.
 *
 * @returns the report as resolved and the override created (or null).
 * @throws {AppError} `not_found` for an unknown id; `invalid_request` with reason
 *   `already_resolved` (nothing changed), `note_too_long`, `missing_operator`, or an override
 *   reason of {@link overrideRecord}.
 */
export async function resolveReport(
  store: Store,
  clock: Clock,
  id: string,
  request: ResolveRequest,
): Promise<{ report: ReportRecord; override: OverrideRecord | null }> {
  const now = clock.now();
  const by = request.by.trim();
  if (by === '') {
    throw new AppError('invalid_request', 'A resolution needs the operator name', {
      reason: 'missing_operator',
    });
  }
  const note = operatorText(request.note ?? '', 'note');
  const override =
    request.override === null ? null : overrideRecord({ ...request.override, by }, now, id);
  const outcome = await store.reports.resolveReport(id, {
    status: request.status,
    at: now,
    by,
    note,
    override,
  });
  if (outcome === 'not_found') throw new AppError('not_found', `No report ${id}`);
  if (outcome === 'already_resolved') {
    throw new AppError('invalid_request', `Report ${id} is already resolved`, {
      reason: 'already_resolved',
    });
  }
  const report = await store.reports.findReport(id);
  if (report === null) throw new AppError('not_found', `No report ${id}`);
  return {
    report,
    override: override === null ? null : { ...override, removedAt: null, removedBy: null },
  };
}

/**
 * Erase the reporter's personal data from a report, open or resolved: its `comment` and
 * `contact` become null and the report records who did it and when (README "Verdict
 * corrections"). URL, kind, verdict at filing and resolution stay.
 *
 * @returns the report as redacted.
 * @throws {AppError} `not_found` for an unknown id; `invalid_request` with reason
 *   `already_redacted` (nothing changed) or `missing_operator`.
 */
export async function redactReport(
  store: Store,
  clock: Clock,
  id: string,
  by: string,
): Promise<ReportRecord> {
  const name = by.trim();
  if (name === '') {
    throw new AppError('invalid_request', 'A redaction needs the operator name', {
      reason: 'missing_operator',
    });
  }
  const outcome = await store.reports.redactReport(id, clock.now(), name);
  if (outcome === 'not_found') throw new AppError('not_found', `No report ${id}`);
  if (outcome === 'already_redacted') {
    throw new AppError('invalid_request', `Report ${id} was already redacted`, {
      reason: 'already_redacted',
    });
  }
  const report = await store.reports.findReport(id);
  if (report === null) throw new AppError('not_found', `No report ${id}`);
  return report;
}

/**
 * Operator text trimmed; empty → null.
 * @throws {AppError} `invalid_request` (reason `<field>_too_long`).
 */
function operatorText(text: string, field: 'reason' | 'note'): string | null {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  if (codePointLength(trimmed) > MAX_OPERATOR_TEXT) {
    throw new AppError(
      'invalid_request',
      `The ${field} is longer than ${MAX_OPERATOR_TEXT} characters`,
      {
        reason: `${field}_too_long`,
      },
    );
  }
  return trimmed;
}
