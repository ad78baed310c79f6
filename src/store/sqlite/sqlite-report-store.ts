/**
 * @module store/sqlite/sqlite-report-store
 * {@link ReportStore} on better-sqlite3: users' reports against verdicts, in table `reports`
 * (migration 008), the verdict kept as JSON text. A resolution is one IMMEDIATE transaction: a
 * conditional `UPDATE … WHERE status = 'open'` claims the report, and only when it changed a row
 * is the resolution's override inserted; so of concurrent resolutions (this or another process)
 * exactly one wins and only its override exists. Adding an override clears the active-overrides
 * cache it shares with the override store. A redaction (migration 009) is one conditional
 * `UPDATE … WHERE redacted_at IS NULL` that clears comment and contact.
 */

import type Database from 'better-sqlite3';

import type { Verdict } from '../../engine/verdict.js';
import type {
  NewOverride,
  NewReport,
  OverrideSnapshot,
  ReportFilter,
  ReportRecord,
  ReportResolution,
  ReportStore,
} from '../ports/correction-store.js';
import { reportFilterValues, reportRecordOf, resolutionOverride } from '../store-values.js';
import { asPromise } from './as-promise.js';
import type { SnapshotCache } from './snapshot-cache.js';
import { INSERT_OVERRIDE, overrideParams } from './sqlite-override-store.js';

type ReportRow = Omit<ReportRecord, 'verdict'> & { verdict: string };

const SELECT_REPORT = `SELECT id, created_at AS createdAt, url, kind, comment, contact, source,
  source_id AS sourceId, verdict, engine_version AS engineVersion, data_version AS dataVersion,
  status, resolved_at AS resolvedAt, resolved_by AS resolvedBy,
  resolution_note AS resolutionNote, override_id AS overrideId, redacted_at AS redactedAt,
  redacted_by AS redactedBy FROM reports`;

/** Newest first; rowid breaks ties between reports filed in the same millisecond. */
const NEWEST_FIRST = 'ORDER BY created_at DESC, rowid DESC LIMIT @limit';

interface ListParams {
  status: string | null;
  kind: string | null;
  /** -1: no limit (SQLite's LIMIT). */
  limit: number;
}

type Resolve = (id: string, resolution: ReportResolution, override: NewOverride | null) => boolean;

/** A row with its verdict decoded from its JSON text. */
function reportRecordOfRow(row: ReportRow): ReportRecord {
  return reportRecordOf(row, JSON.parse(row.verdict) as Verdict);
}

export class SqliteReportStore implements ReportStore {
  readonly #insert: Database.Statement<[Record<string, unknown>]>;
  readonly #byId: Database.Statement<[string], ReportRow>;
  readonly #listAll: Database.Statement<[ListParams], ReportRow>;
  readonly #listStatus: Database.Statement<[ListParams], ReportRow>;
  readonly #listResolved: Database.Statement<[ListParams], ReportRow>;
  readonly #exists: Database.Statement<[string], { one: 1 }>;
  readonly #resolve: Database.Transaction<Resolve>;
  readonly #redact: Database.Statement<[{ id: string; at: number; by: string }]>;
  readonly #overrides: SnapshotCache<OverrideSnapshot>;

  /** @param overrides the active-overrides cache, shared with the override store. */
  constructor(db: Database.Database, overrides: SnapshotCache<OverrideSnapshot>) {
    this.#insert = db.prepare(`INSERT INTO reports (id, created_at, url, kind, comment, contact,
      source, source_id, verdict, engine_version, data_version, status)
      VALUES (@id, @createdAt, @url, @kind, @comment, @contact, @source, @sourceId, @verdict,
      @engineVersion, @dataVersion, 'open')`);
    this.#byId = db.prepare(`${SELECT_REPORT} WHERE id = ?`);
    const kind = '(@kind IS NULL OR kind = @kind)';
    // One statement per status filter, so each can use its index.
    this.#listAll = db.prepare(`${SELECT_REPORT} WHERE ${kind} ${NEWEST_FIRST}`);
    this.#listStatus = db.prepare(
      `${SELECT_REPORT} WHERE status = @status AND ${kind} ${NEWEST_FIRST}`,
    );
    this.#listResolved = db.prepare(
      `${SELECT_REPORT} WHERE status IN ('accepted', 'rejected') AND ${kind} ${NEWEST_FIRST}`,
    );
    this.#exists = db.prepare('SELECT 1 AS one FROM reports WHERE id = ?');
    const claim = db.prepare<[Record<string, unknown>]>(`UPDATE reports SET status = @status,
      resolved_at = @at, resolved_by = @by, resolution_note = @note, override_id = @overrideId
      WHERE id = @id AND status = 'open'`);
    const insertOverride = db.prepare<[NewOverride]>(INSERT_OVERRIDE);
    this.#resolve = db.transaction((id, resolution, override) => {
      const claimed = claim.run({
        id,
        status: resolution.status,
        at: resolution.at,
        by: resolution.by,
        note: resolution.note,
        overrideId: override?.id ?? null,
      });
      if (claimed.changes === 0) return false;
      if (override !== null) insertOverride.run(overrideParams(override));
      return true;
    });
    this.#redact = db.prepare(`UPDATE reports SET comment = NULL, contact = NULL,
      redacted_at = @at, redacted_by = @by WHERE id = @id AND redacted_at IS NULL`);
    this.#overrides = overrides;
  }

  createReport(report: NewReport): Promise<void> {
    return asPromise(() => {
      this.#insert.run({
        id: report.id,
        createdAt: report.createdAt,
        url: report.url,
        kind: report.kind,
        comment: report.comment,
        contact: report.contact,
        source: report.source,
        sourceId: report.sourceId,
        verdict: JSON.stringify(report.verdict),
        engineVersion: report.engineVersion,
        dataVersion: report.dataVersion,
      });
    });
  }

  findReport(id: string): Promise<ReportRecord | null> {
    return asPromise(() => {
      const row = this.#byId.get(id);
      return row === undefined ? null : reportRecordOfRow(row);
    });
  }

  listReports(filter: ReportFilter = {}): Promise<ReportRecord[]> {
    return asPromise(() => {
      const { status, kind, limit } = reportFilterValues(filter);
      const params = { status, kind, limit: limit ?? -1 };
      const statement =
        status === null
          ? this.#listAll
          : status === 'resolved'
            ? this.#listResolved
            : this.#listStatus;
      return statement.all(params).map(reportRecordOfRow);
    });
  }

  resolveReport(
    id: string,
    resolution: ReportResolution,
  ): Promise<'resolved' | 'already_resolved' | 'not_found'> {
    return asPromise(() => {
      const override = resolutionOverride(id, resolution);
      if (override !== null) this.#overrides.clear();
      if (this.#resolve.immediate(id, resolution, override)) return 'resolved';
      // The conditional UPDATE decided; the look-up only explains a "no" (never deleted).
      return this.#exists.get(id) === undefined ? 'not_found' : 'already_resolved';
    });
  }

  redactReport(
    id: string,
    at: number,
    by: string,
  ): Promise<'redacted' | 'already_redacted' | 'not_found'> {
    return asPromise(() => {
      if (this.#redact.run({ id, at, by }).changes === 1) return 'redacted';
      // The conditional UPDATE decided; the look-up only explains a "no" (never deleted).
      return this.#exists.get(id) === undefined ? 'not_found' : 'already_redacted';
    });
  }
}
