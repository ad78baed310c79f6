/**
 * @module http/report-page/report-page-views
 * The HTML of the `GET /report` page's three steps, server-rendered and script-free: the URL
 * form, the verdict with the dispute form, and the confirmation. Every value that came from the
 * user or the engine is escaped (`escape-html`). Errors follow the GOV.UK Design System's error
 * summary pattern (design-system.service.gov.uk/components/error-summary): a focused summary
 * with `role="alert"` at the top linking to the field, the message again above the field, the
 * field marked `aria-invalid` and described by its message, and "Error: " before the title.
 */
import escapeHtml from 'escape-html';

import type { Verdict, VerdictValue } from '../../engine/verdict.js';
import type { ReportKind } from '../../store/ports/correction-store.js';
import { htmlDocument } from '../html-page.js';
import { REPORT_PAGE_STYLE } from './report-page-style.js';

/** The fields of the two forms. */
export type ReportField = 'url' | 'kind' | 'comment' | 'contact';

/** Why a submission was refused: shown in the summary, and beside `field` when there is one. */
export interface PageError {
  message: string;
  /** The field at fault; null for an error of the whole form (CSRF, rate limit). */
  field: ReportField | null;
}

/** Where the forms post (with the base path of PUBLIC_BASE_URL). */
export interface ReportPagePaths {
  /** `GET`: the URL form. */
  page: string;
  /** `POST`: look up the verdict. */
  check: string;
  /** `POST`: file the report. */
  file: string;
}

/** Step 1: the URL form. */
export interface AskView {
  paths: ReportPagePaths;
  csrfToken: string;
  /** The URL as typed, kept after an error. */
  url: string;
  error: PageError | null;
}

/** Step 2: the verdict (when just looked up) and the dispute form. */
export interface DisputeView {
  paths: ReportPagePaths;
  csrfToken: string;
  /** The URL judged (normalized), or as submitted when the form comes back with an error. */
  url: string;
  /** The verdict just looked up; null when the form comes back with an error. */
  verdict: Verdict | null;
  /** The kind selected (a verdict preselects one), or what was submitted. */
  kind: string;
  comment: string;
  contact: string;
  error: PageError | null;
}

/** Step 3: the confirmation. */
export interface FiledView {
  paths: ReportPagePaths;
  reportId: string;
  url: string;
  kind: ReportKind;
}

const SITE = 'linkguard';

/** The answers of the dispute form, in the order shown. */
const KIND_CHOICES: readonly { kind: ReportKind; label: string }[] = [
  { kind: 'false_positive', label: 'This site is safe — it was flagged wrongly' },
  { kind: 'false_negative', label: 'This site is dangerous — it was missed' },
];

/** How each verdict is told: a symbol (hidden from screen readers) and words, never colour alone. */
const VERDICT_WORDS: Record<VerdictValue, { symbol: string; word: string; meaning: string }> = {
  safe: { symbol: '✓', word: 'Safe', meaning: 'linkguard found no sign of a threat.' },
  caution: {
    symbol: '!',
    word: 'Caution',
    meaning: 'linkguard advises care with this address.',
  },
  danger: { symbol: '✕', word: 'Danger', meaning: 'linkguard warns people against this address.' },
};

/**
 * The kind a verdict preselects: a warning is most likely disputed as wrong, a safe verdict as a
 * missed threat.
 */
export function preselectedKind(verdict: VerdictValue): ReportKind {
  return verdict === 'safe' ? 'false_negative' : 'false_positive';
}

/** Step 1: intro, the URL field and its button. */
export function renderAskPage(view: AskView): string {
  const fieldError = view.error?.field === 'url' ? view.error.message : null;
  const body = `
<h1>Report a wrong verdict</h1>
<p>linkguard warns people about dangerous links. If it warns about your site by mistake, or misses a site that is dangerous, tell the operator of this service here.</p>
${errorSummary(view.error)}<form method="post" action="${escapeHtml(view.paths.check)}" novalidate>
<input type="hidden" name="csrf_token" value="${escapeHtml(view.csrfToken)}">
<label for="url">Address of the site (URL)</label>
<p id="url-hint" class="hint">For example https://www.example.com/login — paste it as people see it.</p>
${fieldErrorLine('url', fieldError)}<input id="url" name="url" type="text" inputmode="url" autocomplete="url" spellcheck="false" autocapitalize="off" required maxlength="4096" value="${escapeHtml(view.url)}" ${describedBy('url', fieldError)}>
<button type="submit">Check the verdict</button>
</form>
<p class="privacy">Nothing is filed until you send a report in the next step. A report keeps the address, your answer, your comment and the email address you give, so the operator can review it; never your IP address.</p>`;
  return htmlDocument(title('Report a wrong verdict', view.error), REPORT_PAGE_STYLE, body);
}

/** Step 2: the verdict just looked up (if any) and the dispute form. */
export function renderDisputePage(view: DisputeView): string {
  const error = view.error;
  const at = (field: ReportField) => (error?.field === field ? error.message : null);
  const kindError = at('kind');
  const commentError = at('comment');
  const contactError = at('contact');
  const verdict =
    view.verdict === null
      ? `<p>Address: <span class="url">${escapeHtml(view.url)}</span></p>`
      : `<h2>Current verdict</h2>\n${verdictBox(view.url, view.verdict)}`;
  const radios = KIND_CHOICES.map(
    ({ kind, label }) =>
      `<div class="radio"><input type="radio" id="kind-${kind}" name="kind" value="${kind}"${view.kind === kind ? ' checked' : ''}><label for="kind-${kind}">${escapeHtml(label)}</label></div>`,
  ).join('\n');
  const body = `
<h1>Report a wrong verdict</h1>
${errorSummary(error)}${verdict}
<h2>Dispute this verdict</h2>
<form method="post" action="${escapeHtml(view.paths.file)}" novalidate>
<input type="hidden" name="csrf_token" value="${escapeHtml(view.csrfToken)}">
<input type="hidden" name="url" value="${escapeHtml(view.url)}">
<fieldset${kindError === null ? '' : ' aria-describedby="kind-error"'}>
<legend>What is wrong with the verdict?</legend>
${fieldErrorLine('kind', kindError)}${radios}
</fieldset>
<label for="comment">Comment (optional)</label>
<p id="comment-hint" class="hint">What should the operator know? If the site is yours, say how they can confirm it. Up to 1,000 characters.</p>
${fieldErrorLine('comment', commentError)}<textarea id="comment" name="comment" rows="5" maxlength="1000" ${describedBy('comment', commentError)}>${escapeHtml(view.comment)}</textarea>
<label for="contact">Your email address (optional)</label>
<p id="contact-hint" class="hint">Only if you want the operator to be able to reply. It is stored with the report.</p>
${fieldErrorLine('contact', contactError)}<input id="contact" name="contact" type="email" autocomplete="email" spellcheck="false" autocapitalize="off" maxlength="254" value="${escapeHtml(view.contact)}" ${describedBy('contact', contactError)}>
<button type="submit">Send the report</button>
</form>
<p><a href="${escapeHtml(view.paths.page)}">Check another address</a></p>`;
  return htmlDocument(title('Dispute a verdict', error), REPORT_PAGE_STYLE, body);
}

/** Step 3: the report id and what happens next. */
export function renderFiledPage(view: FiledView): string {
  const what =
    view.kind === 'false_positive'
      ? 'that this site was flagged wrongly'
      : 'that this site is dangerous and was missed';
  const body = `
<h1>Report filed</h1>
<div class="done">
<p>Thank you. Your report ${escapeHtml(what)} has been filed.</p>
<p>Address: <span class="url">${escapeHtml(view.url)}</span></p>
<p>Report id: <span class="report-id" id="report-id">${escapeHtml(view.reportId)}</span></p>
</div>
<h2>What happens next</h2>
<ul>
<li>The operator of this linkguard service reviews your report, with the verdict as it was when you filed it.</li>
<li>If they agree, they set an override: the verdict changes for everyone, on the next check.</li>
<li>If you gave an email address, they may write to you. Quote the report id when you reply.</li>
</ul>
<p><a href="${escapeHtml(view.paths.page)}">Report another address</a></p>`;
  return htmlDocument('Report filed – linkguard', REPORT_PAGE_STYLE, body);
}

/** A page for a request that cannot show a form (a malformed request, a server failure). */
export function renderReportErrorPage(paths: ReportPagePaths, message: string): string {
  const body = `
<h1>Report a wrong verdict</h1>
<div class="error-summary" role="alert"><h2>There is a problem</h2><p>${escapeHtml(message)}</p></div>
<p><a href="${escapeHtml(paths.page)}">Start again</a></p>`;
  return htmlDocument('Error: Report a wrong verdict – linkguard', REPORT_PAGE_STYLE, body);
}

function verdictBox(url: string, verdict: Verdict): string {
  const words = VERDICT_WORDS[verdict.verdict];
  return `<div class="verdict verdict-${verdict.verdict}" id="verdict">
<p class="verdict-word"><span aria-hidden="true">${words.symbol}</span> ${words.word}</p>
<p>${escapeHtml(words.meaning)}</p>
<dl>
<dt>Address checked</dt><dd class="url">${escapeHtml(url)}</dd>
<dt>Reason</dt><dd>${escapeHtml(verdict.reason)}</dd>
<dt>Brand</dt><dd>${brandLine(verdict)}</dd>
</dl>
</div>`;
}

/** The brand line: impersonated, owned, or none. */
function brandLine(verdict: Verdict): string {
  if (verdict.brand !== null) {
    return `${escapeHtml(verdict.brand)} — the address appears to imitate this brand`;
  }
  const matched = verdict.details.matched_brand;
  if (matched !== null && verdict.details.domain_matches_brand) {
    return `${escapeHtml(matched)} — an official address of this brand`;
  }
  return 'None recognised';
}

function errorSummary(error: PageError | null): string {
  if (error === null) return '';
  const item =
    error.field === null
      ? escapeHtml(error.message)
      : `<a href="#${fieldId(error.field)}">${escapeHtml(error.message)}</a>`;
  // Focused on load (autofocus works without scripts) so the problem is read out first.
  return `<div class="error-summary" role="alert" aria-labelledby="error-summary-title" tabindex="-1" autofocus>
<h2 id="error-summary-title">There is a problem</h2>
<ul><li>${item}</li></ul>
</div>
`;
}

/** The element an error summary links to: the field, or the first radio of the kind. */
function fieldId(field: ReportField): string {
  return field === 'kind' ? 'kind-false_positive' : field;
}

function fieldErrorLine(field: ReportField, message: string | null): string {
  if (message === null) return '';
  return `<p id="${field}-error" class="field-error"><span class="visually-hidden">Error: </span>${escapeHtml(message)}</p>\n`;
}

function describedBy(field: ReportField, error: string | null): string {
  const ids = error === null ? `${field}-hint` : `${field}-hint ${field}-error`;
  return `aria-describedby="${ids}"${error === null ? '' : ' aria-invalid="true"'}`;
}

function title(text: string, error: PageError | null): string {
  return `${error === null ? '' : 'Error: '}${text} – ${SITE}`;
}
