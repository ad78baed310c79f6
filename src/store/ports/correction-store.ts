/**
 * @module store/ports/correction-store
 * Verdict corrections: reports filed by users (a verdict they dispute) and overrides set by the
 * operator (a host, registrable domain or URL prefix always allowed or always denied). Part of
 * the persistence ports: services depend on these interfaces only; `store/sqlite/` and
 * `store/postgres/` implement them. Every operation that must happen exactly once is a single
 * atomic statement or transaction in the adapter; all methods are async. Times are epoch
 * milliseconds (UTC).
 */
import type { Verdict } from '../../engine/verdict.js';

/** What a report disputes: a verdict that warned wrongly, or one that missed a threat. */
export type ReportKind = 'false_positive' | 'false_negative';

/** Report kinds, in the order the API documents them. */
export const REPORT_KINDS: readonly ReportKind[] = ['false_positive', 'false_negative'];

/**
 * Where a report came from. `key`: an enterprise key (`sourceId` its key id); `connector`: the MCP
 * connector (`sourceId` the key id or license id behind the token); `anonymous`: `POST
 * /v1/reports` without a credential; `page`: the `GET /report` form. Never an IP address.
 */
export type ReportSource = 'key' | 'connector' | 'anonymous' | 'page';

/** `open` until the operator resolves it as `accepted` (the user was right) or `rejected`. */
export type ReportStatus = 'open' | 'accepted' | 'rejected';

/** A report as stored. */
export interface ReportRecord {
  /** Public identifier, `rpt_` + 16 base62 characters. */
  id: string;
  createdAt: number;
  /**
   * The normalized URL reported (a report is a deliberate submission, so the URL itself is kept;
   * README "Verdict corrections").
   */
  url: string;
  kind: ReportKind;
  /** The reporter's words, ≤ 1,000 characters, or null. */
  comment: string | null;
  /** How to reach the reporter (an email address), or null. */
  contact: string | null;
  source: ReportSource;
  sourceId: string | null;
  /** The verdict the service gave for the URL when the report was filed, whole. */
  verdict: Verdict;
  /** `SERVICE_VERSION` of the build that judged it. */
  engineVersion: string;
  /** Digest of the engine's data directory that judged it (`engineDataDigest()`). */
  dataVersion: string;
  status: ReportStatus;
  resolvedAt: number | null;
  /** Who resolved it (the operator's name as given to the CLI), or null while open. */
  resolvedBy: string | null;
  /** The operator's note on the resolution, or null. */
  resolutionNote: string | null;
  /** The override created with the resolution, or null. */
  overrideId: string | null;
  /**
   * When the operator erased the reporter's `comment` and `contact` (`redactReport`), or null.
   * The rest of the report stays: it is the service's record, not the reporter's data.
   */
  redactedAt: number | null;
  /** Who erased them (the operator's name as given to the CLI), or null. */
  redactedBy: string | null;
}

/** Fields given when filing a report. */
export type NewReport = Omit<
  ReportRecord,
  | 'status'
  | 'resolvedAt'
  | 'resolvedBy'
  | 'resolutionNote'
  | 'overrideId'
  | 'redactedAt'
  | 'redactedBy'
>;

/** What an override does: `allow` serves `safe`, `deny` serves `danger`, whatever the layers say. */
export type OverrideAction = 'allow' | 'deny';

/**
 * What an override covers. `domain`: a registrable domain and every host under it; `host`: one
 * host exactly; `url_prefix`: every normalized URL that starts with `target`.
 */
export type OverrideScope = 'domain' | 'host' | 'url_prefix';

/** An override as stored; never deleted, only marked removed (the record of who/when/why). */
export interface OverrideRecord {
  /** Public identifier, `ovr_` + 12 base62 characters. */
  id: string;
  action: OverrideAction;
  scope: OverrideScope;
  /** Lower-case host or registrable domain, or a normalized URL prefix (`corrections/override-target.ts`). */
  target: string;
  /** Why the operator set it; named in every verdict it changes. */
  reason: string;
  createdBy: string;
  createdAt: number;
  /** Instant (exclusive) after which it no longer applies, or null for no expiry. */
  expiresAt: number | null;
  removedAt: number | null;
  removedBy: string | null;
  /** The report whose resolution created it, or null. */
  reportId: string | null;
}

/** Fields given when adding an override. */
export type NewOverride = Omit<OverrideRecord, 'removedAt' | 'removedBy'>;

/** How a report is resolved; `override` is added in the same transaction. */
export interface ReportResolution {
  status: 'accepted' | 'rejected';
  at: number;
  by: string;
  note: string | null;
  override: NewOverride | null;
}

/** Which reports to list. `resolved` = accepted or rejected. */
export interface ReportFilter {
  status?: ReportStatus | 'resolved';
  kind?: ReportKind;
  /** At most this many, newest first (default: all). */
  limit?: number;
}

export interface ReportStore {
  /** Insert a new report. @throws if the id already exists. */
  createReport(report: NewReport): Promise<void>;
  /** One report by id; null when unknown. */
  findReport(id: string): Promise<ReportRecord | null>;
  /** Reports matching `filter`, newest first. */
  listReports(filter?: ReportFilter): Promise<ReportRecord[]>;
  /**
   * Resolve an open report, and add `resolution.override` (its `reportId` = `id`) in the same
   * transaction. Atomic: of concurrent resolutions exactly one wins and only its override exists.
   * @returns `resolved`, `already_resolved` (nothing changed, no override added) or `not_found`.
   */
  resolveReport(
    id: string,
    resolution: ReportResolution,
  ): Promise<'resolved' | 'already_resolved' | 'not_found'>;
  /**
   * Erase the reporter's personal data from a report, open or resolved: set `comment` and
   * `contact` to null and record `redactedAt` = `at` (epoch ms) and `redactedBy` = `by`. URL,
   * kind, verdict at filing and resolution stay. One conditional UPDATE (`WHERE redacted_at IS
   * NULL`), so of concurrent redactions exactly one records its who/when.
   * @returns `redacted`, `already_redacted` (nothing changed) or `not_found`.
   */
  redactReport(
    id: string,
    at: number,
    by: string,
  ): Promise<'redacted' | 'already_redacted' | 'not_found'>;
}

/**
 * The overrides in force, as one immutable snapshot. Adapters return the same object while
 * nothing changed, so the caller can rebuild its index only when the identity changes.
 */
export interface OverrideSnapshot {
  /** Overrides not removed, oldest first, expired ones included (expiry is judged at use). */
  readonly overrides: readonly OverrideRecord[];
}

export interface OverrideStore {
  /** Insert a new override. @throws if the id already exists. */
  addOverride(override: NewOverride): Promise<void>;
  /** One override by id (removed ones too); null when unknown. */
  findOverride(id: string): Promise<OverrideRecord | null>;
  /** Every override ever added (removed ones too), oldest first. */
  listOverrides(): Promise<OverrideRecord[]>;
  /**
   * Mark an override removed at `at` by `by`. Atomic and idempotent.
   * @returns `removed`, `already_removed` or `not_found`.
   */
  removeOverride(
    id: string,
    at: number,
    by: string,
  ): Promise<'removed' | 'already_removed' | 'not_found'>;
  /**
   * The overrides not removed. Called on every verdict served, so adapters cache it; a change
   * committed by any process (another instance, the CLI) is seen on the next call: SQLite by
   * `PRAGMA data_version`, PostgreSQL by a NOTIFY from a trigger (the cache is bypassed while
   * the listening connection is down).
   */
  activeOverrides(): Promise<OverrideSnapshot>;
}
