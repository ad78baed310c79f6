/**
 * Inputs for calling one page analyzer directly: the shared view of a page and the context of its
 * URL, for an inline HTML string (synthetic edge cases) or a corpus fixture. Tests of a single
 * analyzer use these instead of `analyzeFixture()` so other analyzers' findings do not mix in.
 */
import { pageView } from '../../src/engine/page/analyze-page.js';
import { createPageContext } from '../../src/engine/page/create-page-context.js';
import type { PageContext, PageView } from '../../src/engine/page/page-context.js';
import type { PageFinding } from '../../src/engine/page/page-finding.js';
import { parsePage } from '../../src/engine/page/parse-page.js';
import { normalizeUrl } from '../../src/engine/url/normalize-url.js';
import { fixtureDocument, fixtureUrl, type PageFixture } from './page-fixtures.js';
import { rulesEngine } from './rules-engine.js';

export interface AnalyzerInput {
  page: PageView;
  context: PageContext;
}

/** The context of `url` (domain age unknown unless given). */
export function urlContext(url: string, fresh: boolean | null = null): PageContext {
  const parsed = normalizeUrl(url);
  if (!parsed.ok) throw new Error(`${url}: ${parsed.message}`);
  return createPageContext(rulesEngine(), parsed.url, fresh);
}

/** An inline page at `url`. */
export function htmlInput(html: string, url: string): AnalyzerInput {
  return { page: pageView(parsePage(html)), context: urlContext(url) };
}

/** A corpus page at its realistic URL, same-host scripts filled in. */
export function fixtureInput(fixture: PageFixture): AnalyzerInput {
  return { page: pageView(fixtureDocument(fixture)), context: urlContext(fixtureUrl(fixture)) };
}

/** Findings at `danger` or `caution` level, as `level:id` (what a benign page must not have). */
export function alarming(findings: readonly PageFinding[]): string[] {
  return findings.filter((f) => f.level !== 'soft').map((f) => `${f.level}:${f.id}`);
}

/**
 * True when `evidence` (whitespace collapsed, a trailing ellipsis dropped) occurs in one of the
 * page's texts, code or decoded strings: the evidence was taken from the page, not made up.
 */
export function fromPage(evidence: string, page: PageView, extra: readonly string[] = []): boolean {
  const squash = (text: string): string => text.replace(/\s+/g, ' ').toLowerCase();
  const needle = squash(evidence.replace(/…$/, '')).trim();
  if (needle === '') return false;
  const sources = [
    page.doc.text,
    page.code,
    ...page.decoded,
    ...page.doc.codeBlocks.map((b) => b.hidden),
    ...extra,
  ];
  return sources.some((source) => squash(source).includes(needle));
}
