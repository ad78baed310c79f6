/**
 * @module engine/page-evidence
 * What layer 3 contributes to a verdict: the analysis of the page, or why the page could not be
 * analysed. The service fetches (I/O); the engine only reads this.
 */
import type { PageAnalysis } from './page/analyze-page.js';

/** Why a page could not be analysed (stable codes, shown as `page_not_analysed:<code>`). */
export type PageFailure =
  /** The page did not arrive within the time budget. */
  | 'timeout'
  /** The name did not resolve, or no connection could be made (refused, unreachable, TLS). */
  | 'unreachable'
  /** The host is or resolves to a private, loopback or reserved address (SSRF policy). */
  | 'blocked_address'
  /** The page is larger than the size cap. */
  | 'too_large'
  | 'too_many_redirects'
  /** The server broke HTTP, or sent a compressed body although identity was asked for. */
  | 'protocol_error'
  /** The address serves something other than an HTML page (a download, an image, JSON). */
  | 'not_html'
  /** Too many pages were being fetched at once and the budget ran out while waiting. */
  | 'busy'
  /** An analyzer failed on this page (a bug, logged): the page must not make the verdict fail. */
  | 'analysis_failed';

/** Layer 3's evidence for one URL. */
export type PageEvidence =
  { status: 'analysed'; analysis: PageAnalysis } | { status: 'not_analysed'; failure: PageFailure };

/** Human words for each failure, used in the reason ("Page not analysed: …"). */
export const PAGE_FAILURE_TEXT: Readonly<Record<PageFailure, string>> = {
  timeout: 'the site did not answer in time',
  unreachable: 'the site could not be reached',
  blocked_address: 'the site points to a private or reserved network address',
  too_large: 'the page is too large',
  too_many_redirects: 'the page redirects too many times',
  protocol_error: 'the site sent a malformed or compressed response',
  not_html: 'the address does not serve a web page',
  busy: 'the service was too busy to fetch it in time',
  analysis_failed: 'the page could not be analysed',
};
