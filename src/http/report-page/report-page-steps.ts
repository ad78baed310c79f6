/**
 * @module http/report-page/report-page-steps
 * What the two forms of the `GET /report` page do, apart from HTTP: look up a verdict
 * (`POST …/report/check`) and file a report (`POST …/report/file`). Each step checks the CSRF
 * result, then the input, then spends its budget — so a mistyped form costs the user nothing —
 * and answers with the page to show and its status: 403 (CSRF), 400 (input), 429 (budget spent,
 * with the wait in minutes), else 200. The verdict comes from the same `DetectionService` as the
 * API's (overrides included) and the report is filed through the same `ReportService`
 * (README "Verdict corrections"), as source `page`.
 */
import { type AppError, isAppError } from '../../errors.js';
import type { RateLimits, RateLimitState } from '../../ratelimit/rate-limits.js';
import type { DetectionService } from '../../service/detection-service.js';
import { MAX_REPORT_COMMENT, type ReportService } from '../../service/report-service.js';
import type { ReportRecord } from '../../store/ports/correction-store.js';
import {
  type PageError,
  preselectedKind,
  renderAskPage,
  renderDisputePage,
  renderFiledPage,
  type ReportPagePaths,
} from './report-page-views.js';

/** What the steps use. */
export interface ReportPageDeps {
  service: DetectionService;
  reports: ReportService;
  limits: RateLimits;
}

/** The fields of a submitted form; an absent field is ''. */
export type ReportForm = Readonly<Record<'url' | 'kind' | 'comment' | 'contact', string>>;

/** A step's answer. */
export interface StepResult {
  status: 200 | 400 | 403 | 429;
  /** The page, given the CSRF token its form carries. */
  html: (csrfToken: string) => string;
  /** The budget spent, for the rate-limit headers; null when none was counted. */
  limit: RateLimitState | null;
  /** The report filed, for the log line (id and kind only). */
  filed?: Pick<ReportRecord, 'id' | 'kind' | 'source'>;
}

/** One submission of a step. */
export interface StepInput {
  paths: ReportPagePaths;
  form: ReportForm;
  /** Whether the form's CSRF token matched the cookie. */
  csrfOk: boolean;
  /** The client's address: the rate-limit key only, never stored or logged. */
  ip: string;
}

const CSRF_MESSAGE =
  'This form has expired or could not be verified. Check your entries and send it again (your browser must accept cookies from this site).';

/** `POST …/report/check`: look up the verdict of `form.url`. */
export async function checkStep(deps: ReportPageDeps, input: StepInput): Promise<StepResult> {
  const { paths, form } = input;
  const ask = (
    status: StepResult['status'],
    error: PageError,
    limit: RateLimitState | null = null,
  ) =>
    ({
      status,
      limit,
      html: (csrfToken: string) => renderAskPage({ paths, csrfToken, url: form.url, error }),
    }) satisfies StepResult;
  if (!input.csrfOk) return ask(403, { field: null, message: CSRF_MESSAGE });
  const url = parseUrl(deps, form.url);
  if ('error' in url) return ask(400, url.error);
  const limit = await deps.limits.consumeReportCheck(input.ip);
  if (!limit.allowed) {
    return ask(
      429,
      {
        field: null,
        message: `This network has looked up ${String(limit.limit)} addresses in the last hour, the most allowed. Try again in ${minutes(limit.resetSeconds)}.`,
      },
      limit,
    );
  }
  const verdict = await deps.service.judge(url.parsed);
  return {
    status: 200,
    limit,
    html: (csrfToken) =>
      renderDisputePage({
        paths,
        csrfToken,
        url: url.parsed.href,
        verdict,
        kind: preselectedKind(verdict.verdict),
        comment: '',
        contact: '',
        error: null,
      }),
  };
}

/** `POST …/report/file`: file a report on `form.url` as source `page`. */
export async function fileStep(deps: ReportPageDeps, input: StepInput): Promise<StepResult> {
  const { paths, form } = input;
  const dispute = (
    status: StepResult['status'],
    error: PageError,
    limit: RateLimitState | null = null,
  ) =>
    ({
      status,
      limit,
      html: (csrfToken: string) =>
        renderDisputePage({ paths, csrfToken, ...form, verdict: null, error }),
    }) satisfies StepResult;
  if (!input.csrfOk) return dispute(403, { field: null, message: CSRF_MESSAGE });
  const url = parseUrl(deps, form.url);
  if ('error' in url) {
    // The URL is a hidden field here: start again from the URL form, with the message.
    return {
      status: 400,
      limit: null,
      html: (csrfToken) => renderAskPage({ paths, csrfToken, url: form.url, error: url.error }),
    };
  }
  const problem = formProblem(deps, form);
  if (problem !== null) return dispute(400, problem);
  const limit = await deps.limits.consumeReportFromSource(input.ip);
  if (!limit.allowed) {
    return dispute(
      429,
      {
        field: null,
        message: `This network has filed ${String(limit.limit)} reports in the last hour, the most allowed. Your report was not sent; try again in ${minutes(limit.resetSeconds)}.`,
      },
      limit,
    );
  }
  let report: ReportRecord;
  try {
    report = await deps.reports.file(
      { url: form.url, kind: form.kind, comment: form.comment, contact: form.contact },
      { source: 'page', sourceId: null },
    );
  } catch (error) {
    const refused = isAppError(error) ? fieldError(error, form) : null;
    if (refused === null) throw error;
    return dispute(400, refused, limit);
  }
  return {
    status: 200,
    limit,
    filed: { id: report.id, kind: report.kind, source: report.source },
    html: () => renderFiledPage({ paths, reportId: report.id, url: report.url, kind: report.kind }),
  };
}

/** The URL parsed as `/v1/detect` parses it, or the message for the URL field. */
function parseUrl(
  deps: ReportPageDeps,
  text: string,
): { parsed: ReturnType<DetectionService['parse']> } | { error: PageError } {
  if (text.trim() === '') {
    return { error: { field: 'url', message: 'Enter the address of the site.' } };
  }
  try {
    return { parsed: deps.service.parse(text) };
  } catch (error) {
    if (isAppError(error) && error.code === 'invalid_url') {
      return {
        error: { field: 'url', message: `That address cannot be checked: ${error.message}.` },
      };
    }
    throw error;
  }
}

/**
 * The first problem of the dispute form, found by `ReportService.check()` — what `file()` would
 * refuse — so the page and `POST /v1/reports` accept the same input; null when there is none.
 */
function formProblem(deps: ReportPageDeps, form: ReportForm): PageError | null {
  if (form.kind === '') {
    return {
      field: 'kind',
      message: 'Choose what is wrong with the verdict: the site is safe, or it is dangerous.',
    };
  }
  try {
    deps.reports.check(form);
    return null;
  } catch (error) {
    const refused = isAppError(error) ? fieldError(error, form) : null;
    if (refused === null) throw error;
    return refused;
  }
}

/** A person's words for a refusal of `ReportService`'s checks; null for any other error. */
function fieldError(error: AppError, form: ReportForm): PageError | null {
  if (error.code !== 'invalid_request') return null;
  switch (error.reason) {
    case 'unknown_kind':
      return {
        field: 'kind',
        message: 'Choose one of the two answers: the site is safe, or it is dangerous.',
      };
    case 'comment_too_long':
      return {
        field: 'comment',
        message: `The comment has ${String(Array.from(form.comment.trim()).length)} characters: shorten it to ${MAX_REPORT_COMMENT.toLocaleString('en')} or fewer.`,
      };
    case 'invalid_comment':
      return {
        field: 'comment',
        message: 'The comment contains control characters: remove them.',
      };
    case 'invalid_contact':
      return {
        field: 'contact',
        message: 'Enter an email address such as name@example.com, or leave the field empty.',
      };
    default:
      return null;
  }
}

/** Whole minutes until `seconds` have passed, at least one, in words. */
export function minutes(seconds: number): string {
  const count = Math.max(1, Math.ceil(seconds / 60));
  return count === 1 ? '1 minute' : `${String(count)} minutes`;
}
