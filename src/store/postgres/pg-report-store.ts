/**
 * @module store/postgres/pg-report-store
 * {@link ReportStore} on PostgreSQL: users' reports against verdicts, in table `reports`
 * (migration 005), the verdict kept as `json`. A resolution is one transaction: a conditional
 * `UPDATE … WHERE status = 'open'` claims the report (its row lock makes concurrent resolutions
 * of every instance wait, and they then find the report resolved and change nothing), and only
 * when it changed a row is the resolution's override inserted; so exactly one resolution wins
 * and only its override exists. A redaction (migration 006) is one conditional
 * `UPDATE … WHERE redacted_at IS NULL` that clears comment and contact.
 */

import type {
  NewReport,
  OverrideSnapshot,
  ReportFilter,
  ReportRecord,
  ReportResolution,
  ReportStore,
} from '../ports/correction-store.js';
import { reportFilterValues, reportRecordOf, resolutionOverride } from '../store-values.js';
import type { NotifiedSnapshotCache } from './notified-snapshot-cache.js';
import { type PgDatabase, Rollback } from './pg-database.js';
import { INSERT_OVERRIDE, overrideValues } from './pg-override-store.js';

const SELECT_REPORT = `SELECT id, created_at AS "createdAt", url, kind, comment, contact, source,
  source_id AS "sourceId", verdict, engine_version AS "engineVersion",
  data_version AS "dataVersion", status, resolved_at AS "resolvedAt", resolved_by AS "resolvedBy",
  resolution_note AS "resolutionNote", override_id AS "overrideId",
  redacted_at AS "redactedAt", redacted_by AS "redactedBy" FROM reports`;

/** A row as pg returns it (`json` parsed by the driver). */
function pgReportRecord(row: ReportRecord): ReportRecord {
  return reportRecordOf(row, row.verdict);
}

export class PgReportStore implements ReportStore {
  /** @param overrides the active-overrides cache, shared with the override store. */
  constructor(
    private readonly db: PgDatabase,
    private readonly overrides: NotifiedSnapshotCache<OverrideSnapshot>,
  ) {}

  async createReport(report: NewReport): Promise<void> {
    await this.db.query(
      `INSERT INTO reports (id, created_at, url, kind, comment, contact, source, source_id,
        verdict, engine_version, data_version, status)
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 'open')`,
      [
        report.id,
        report.createdAt,
        report.url,
        report.kind,
        report.comment,
        report.contact,
        report.source,
        report.sourceId,
        JSON.stringify(report.verdict),
        report.engineVersion,
        report.dataVersion,
      ],
    );
  }

  async findReport(id: string): Promise<ReportRecord | null> {
    const { rows } = await this.db.query<ReportRecord>(`${SELECT_REPORT} WHERE id = $1`, [id]);
    return rows[0] === undefined ? null : pgReportRecord(rows[0]);
  }

  async listReports(filter: ReportFilter = {}): Promise<ReportRecord[]> {
    const { status, kind, limit } = reportFilterValues(filter);
    // $1 limit (NULL: all), $2 kind (NULL: any), $3 status when one is named.
    const values: unknown[] = [limit, kind];
    let where = '($2::text IS NULL OR kind = $2)';
    if (status === 'resolved') where += ` AND status IN ('accepted', 'rejected')`;
    else if (status !== null) {
      where += ' AND status = $3';
      values.push(status);
    }
    const { rows } = await this.db.query<ReportRecord>(
      `${SELECT_REPORT} WHERE ${where} ORDER BY created_at DESC, seq DESC LIMIT $1`,
      values,
    );
    return rows.map(pgReportRecord);
  }

  async resolveReport(
    id: string,
    resolution: ReportResolution,
  ): Promise<'resolved' | 'already_resolved' | 'not_found'> {
    const override = resolutionOverride(id, resolution);
    const resolved = await this.db.transaction(async (tx) => {
      const claimed = await tx.query(
        `UPDATE reports SET status = $2, resolved_at = $3, resolved_by = $4,
          resolution_note = $5, override_id = $6 WHERE id = $1 AND status = 'open'`,
        [
          id,
          resolution.status,
          resolution.at,
          resolution.by,
          resolution.note,
          override?.id ?? null,
        ],
      );
      if (claimed.rowCount !== 1) return new Rollback(false);
      if (override !== null) await tx.query(INSERT_OVERRIDE, overrideValues(override));
      return true;
    });
    if (resolved) {
      // This process's cache forgets now; other processes' on the trigger's NOTIFY.
      if (override !== null) this.overrides.invalidate();
      return 'resolved';
    }
    // The conditional UPDATE decided; the look-up only explains a "no" (never deleted).
    const exists = await this.db.query('SELECT 1 FROM reports WHERE id = $1', [id]);
    return exists.rowCount === 0 ? 'not_found' : 'already_resolved';
  }

  async redactReport(
    id: string,
    at: number,
    by: string,
  ): Promise<'redacted' | 'already_redacted' | 'not_found'> {
    const redacted = await this.db.query(
      `UPDATE reports SET comment = NULL, contact = NULL, redacted_at = $2, redacted_by = $3
        WHERE id = $1 AND redacted_at IS NULL`,
      [id, at, by],
    );
    if (redacted.rowCount === 1) return 'redacted';
    // The conditional UPDATE decided; the look-up only explains a "no" (never deleted).
    const exists = await this.db.query('SELECT 1 FROM reports WHERE id = $1', [id]);
    return exists.rowCount === 0 ? 'not_found' : 'already_redacted';
  }
}
