/**
 * @module corrections/report-export
 * Resolved reports as labelled evaluation data (`linkguard reports export`), in the CSV format
 * `linkguard eval --malicious F --benign F` reads (header row; `url`, optional `first_seen`;
 * other columns are ignored by eval and kept here so each row can be traced to its report). An
 * operator's resolution says what the URL is, so each resolved report labels its URL:
 *
 * | kind             | accepted (the reporter was right) | rejected (the verdict stands) |
 * | ---------------- | --------------------------------- | ----------------------------- |
 * | `false_positive` | benign                            | malicious                     |
 * | `false_negative` | malicious                         | benign                        |
 */
import { stringify } from 'csv-stringify/sync';

import type { ReportKind, ReportRecord } from '../store/ports/correction-store.js';

/** Which file of `linkguard eval` a URL belongs in. */
export type EvalLabel = 'malicious' | 'benign';

/**
 * What a resolution says the URL is (the table of the module comment).
 *
 * @param kind what the reporter disputed.
 * @param status how the operator resolved it.
 */
export function resolutionLabel(kind: ReportKind, status: 'accepted' | 'rejected'): EvalLabel {
  const reporterSaysMalicious = kind === 'false_negative';
  const reporterRight = status === 'accepted';
  return reporterSaysMalicious === reporterRight ? 'malicious' : 'benign';
}

/** One labelled URL. */
export interface ExportRow {
  /** The normalized URL reported. */
  url: string;
  /** When this service first heard of the URL: the earliest filing among its reports, epoch ms. */
  firstSeen: number;
  /** The report whose resolution gave the label. */
  reportId: string;
  kind: ReportKind;
  status: 'accepted' | 'rejected';
}

/** The labelled URLs, each in one list, in order of `firstSeen` (then URL). */
export interface ReportExport {
  malicious: ExportRow[];
  benign: ExportRow[];
  /** Reports left out because they are still open. */
  open: number;
  /** Resolved reports left out because a later resolution of the same URL labels it. */
  superseded: number;
}

/**
 * Label resolved reports. A URL reported more than once appears once, labelled by its latest
 * resolution (latest `resolvedAt`, then latest filing, then greatest id): the operator's last
 * word on it, and no URL in both files or counted twice.
 *
 * @param reports any reports (open ones are counted and left out).
 */
export function labelReports(reports: readonly ReportRecord[]): ReportExport {
  let open = 0;
  const latest = new Map<string, ReportRecord & { status: 'accepted' | 'rejected' }>();
  const firstFiled = new Map<string, number>();
  for (const report of reports) {
    if (report.status === 'open') {
      open++;
      continue;
    }
    const resolved = { ...report, status: report.status };
    const known = latest.get(report.url);
    if (known === undefined || resolvedLater(resolved, known)) latest.set(report.url, resolved);
    firstFiled.set(report.url, Math.min(firstFiled.get(report.url) ?? Infinity, report.createdAt));
  }
  const rows = [...latest.values()]
    .map((report): ExportRow => ({
      url: report.url,
      firstSeen: firstFiled.get(report.url) ?? report.createdAt,
      reportId: report.id,
      kind: report.kind,
      status: report.status,
    }))
    .sort((a, b) => a.firstSeen - b.firstSeen || (a.url < b.url ? -1 : a.url > b.url ? 1 : 0));
  const resolvedCount = reports.length - open;
  return {
    malicious: rows.filter((row) => resolutionLabel(row.kind, row.status) === 'malicious'),
    benign: rows.filter((row) => resolutionLabel(row.kind, row.status) === 'benign'),
    open,
    superseded: resolvedCount - rows.length,
  };
}

function resolvedLater(a: ReportRecord, b: ReportRecord): boolean {
  const at = (a.resolvedAt ?? 0) - (b.resolvedAt ?? 0);
  if (at !== 0) return at > 0;
  if (a.createdAt !== b.createdAt) return a.createdAt > b.createdAt;
  return a.id > b.id;
}

/** Columns of the exported CSV; `url` and `first_seen` are the ones `linkguard eval` reads. */
export const EXPORT_COLUMNS = ['url', 'first_seen', 'report_id', 'kind', 'status'] as const;

/**
 * Rows as CSV (RFC 4180 quoting by csv-stringify; `\n` line ends), header row first even when
 * there are no rows, `first_seen` as an ISO 8601 UTC date-time.
 */
export function evalCsv(rows: readonly ExportRow[]): string {
  return stringify(
    rows.map((row) => [
      row.url,
      new Date(row.firstSeen).toISOString(),
      row.reportId,
      row.kind,
      row.status,
    ]),
    { header: true, columns: [...EXPORT_COLUMNS] },
  );
}
