/**
 * @module service/report-service
 * Reports from users: a URL whose verdict they dispute (`false_positive`: warned wrongly;
 * `false_negative`: a threat the service missed), filed through `POST /v1/reports`, the MCP tool
 * `report_url` or the `GET /report` page. Every door calls {@link ReportService.file}, which
 * validates the submission the same way, judges the URL as it would be served now and stores the
 * report with that verdict whole, the service version and the engine data's digest, so the
 * operator reviews exactly what the user saw (README "Verdict corrections").
 */
import type { Clock } from '../clock.js';
import { codePointLength } from '../corrections/code-points.js';
import { newReportId } from '../corrections/correction-ids.js';
import { AppError } from '../errors.js';
import {
  REPORT_KINDS,
  type ReportKind,
  type ReportRecord,
  type ReportSource,
} from '../store/ports/correction-store.js';
import type { Store } from '../store/ports/store.js';
import type { DetectionService } from './detection-service.js';

/** Longest comment, in characters (Unicode code points). */
export const MAX_REPORT_COMMENT = 1000;

/** Longest contact: an email address, RFC 5321 §4.5.3.1.3's 256-octet path minus the brackets. */
export const MAX_REPORT_CONTACT = 254;

/**
 * An email address as browsers check `<input type="email">` (WHATWG HTML, "valid email address"):
 * the same rule on the page and the API, so what the page accepts the API accepts.
 */
const EMAIL =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;

/**
 * C0 and C1 control characters other than tab and line breaks (Unicode category Cc): refused in
 * comments, since PostgreSQL refuses NUL and a terminal showing `reports show` must not be
 * steered by escape sequences (ESC, and the single-byte CSI U+009B).
 */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

/** What a user submits. */
export interface ReportSubmission {
  /** The URL disputed, as submitted (validated like `/v1/detect`'s). */
  url: string;
  /** `false_positive` or `false_negative` (any other text is refused). */
  kind: string;
  comment?: string | null;
  contact?: string | null;
}

/** Who submitted it: never an address, only the door and the credential's public id. */
export interface ReportOrigin {
  source: ReportSource;
  /** Key id (`key_…`) or license id (`lk_…`) behind the credential; null without one. */
  sourceId: string | null;
}

/** Versions recorded with every report. */
export interface ReportVersions {
  /** `SERVICE_VERSION`. */
  engineVersion: string;
  /** `engineDataDigest()` of the data the engine was built from. */
  dataVersion: string;
}

export class ReportService {
  /**
   * @param detection judges the URL as it is served now (overrides included).
   * @param store where reports are kept.
   * @param clock the report's time.
   * @param versions recorded with each report; called per report (the data digest is read once
   *   per process, on the first report, not at start).
   */
  constructor(
    private readonly detection: DetectionService,
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly versions: () => ReportVersions,
  ) {}

  /**
   * Refuse a submission {@link ReportService.file} would refuse, without judging or storing
   * anything: the doors call it before they count a report budget, so a mistyped report costs
   * the reporter nothing.
   *
   * @throws {AppError} what {@link ReportService.file} throws for the submission itself
   *   (`invalid_url`, `invalid_request` with its reason).
   */
  check(submission: ReportSubmission): void {
    reportKind(submission.kind);
    reportComment(submission.comment);
    reportContact(submission.contact);
    this.detection.parse(submission.url);
  }

  /**
   * Validate a submission, judge its URL (from the verdict cache when it was just checked) and
   * store the report. Free for the reporter: no usage row, no monthly allowance.
   *
   * @returns the stored report (its `id` is what the reporter is told).
   * @throws {AppError} `invalid_url` (with the URL's rejection reason); `invalid_request` with
   *   reason `unknown_kind`, `comment_too_long` (> {@link MAX_REPORT_COMMENT} characters),
   *   `invalid_comment` (control characters) or `invalid_contact` (not an email address or
   *   longer than {@link MAX_REPORT_CONTACT}); what judging or the store throws.
   */
  async file(submission: ReportSubmission, origin: ReportOrigin): Promise<ReportRecord> {
    const kind = reportKind(submission.kind);
    const comment = reportComment(submission.comment);
    const contact = reportContact(submission.contact);
    const url = this.detection.parse(submission.url);
    const verdict = await this.detection.judge(url);
    const versions = this.versions();
    const report: ReportRecord = {
      id: newReportId(),
      createdAt: this.clock.now(),
      url: url.href,
      kind,
      comment,
      contact,
      source: origin.source,
      sourceId: origin.sourceId,
      verdict,
      engineVersion: versions.engineVersion,
      dataVersion: versions.dataVersion,
      status: 'open',
      resolvedAt: null,
      resolvedBy: null,
      resolutionNote: null,
      overrideId: null,
      redactedAt: null,
      redactedBy: null,
    };
    await this.store.reports.createReport(report);
    return report;
  }
}

/**
 * A report kind from untrusted text.
 * @throws {AppError} `invalid_request` (reason `unknown_kind`).
 */
export function reportKind(text: string): ReportKind {
  const kind = REPORT_KINDS.find((k) => k === text);
  if (kind === undefined) {
    throw new AppError('invalid_request', `kind must be one of ${REPORT_KINDS.join(', ')}`, {
      reason: 'unknown_kind',
    });
  }
  return kind;
}

/**
 * A comment trimmed; empty or absent → null.
 * @throws {AppError} `invalid_request` (reason `comment_too_long` or `invalid_comment`).
 */
export function reportComment(text: string | null | undefined): string | null {
  const comment = text?.trim() ?? '';
  if (comment === '') return null;
  if (codePointLength(comment) > MAX_REPORT_COMMENT) {
    throw new AppError(
      'invalid_request',
      `comment is longer than ${MAX_REPORT_COMMENT} characters`,
      { reason: 'comment_too_long' },
    );
  }
  if (CONTROL.test(comment)) {
    throw new AppError('invalid_request', 'comment contains control characters', {
      reason: 'invalid_comment',
    });
  }
  return comment;
}

/**
 * A contact email address trimmed; empty or absent → null.
 * @throws {AppError} `invalid_request` (reason `invalid_contact`).
 */
export function reportContact(text: string | null | undefined): string | null {
  const contact = text?.trim() ?? '';
  if (contact === '') return null;
  if (contact.length > MAX_REPORT_CONTACT || !EMAIL.test(contact)) {
    throw new AppError('invalid_request', 'contact must be an email address', {
      reason: 'invalid_contact',
    });
  }
  return contact;
}
