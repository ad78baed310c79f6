/**
 * @module engine/page/analyze-page
 * Layer 3's pure part: a parsed page (external scripts already filled in by the fetcher) and its
 * context → findings, the page language and the target country. Every analyzer reads the same
 * {@link PageView}; they are independent and run in a fixed order so results are deterministic.
 */
import { analyzeCredentials } from './analyzers/credential.js';
import { analyzeCryptoScams } from './analyzers/crypto-scams.js';
import { pageDocuments } from './analyzers/decoded-documents.js';
import { analyzeFakeCaptcha } from './analyzers/fake-captcha.js';
import { analyzeLureScams } from './analyzers/lure-scams.js';
import { analyzePastejacking } from './analyzers/pastejacking.js';
import { analyzeSeedPhrase } from './analyzers/seed-phrase.js';
import { analyzeSocialEngineering } from './analyzers/social.js';
import { analyzeTechSupport } from './analyzers/tech-support.js';
import { analyzeWalletDrainer } from './analyzers/wallet-drainer.js';
import type { PageContext, PageView } from './page-context.js';
import type { PageDocument } from './page-document.js';
import type { PageFinding } from './page-finding.js';
import { pageLanguage, targetCountry } from './page-language.js';
import { decodeScriptStrings } from './script-decoding.js';

/** An analyzer: pure, synchronous, never throws on any page. */
export type PageAnalyzer = (page: PageView, context: PageContext) => PageFinding[];

/** Every analyzer, in reporting order. */
export const PAGE_ANALYZERS: readonly PageAnalyzer[] = [
  analyzeSeedPhrase,
  analyzeWalletDrainer,
  analyzeFakeCaptcha,
  analyzePastejacking,
  analyzeTechSupport,
  analyzeCredentials,
  analyzeLureScams,
  analyzeCryptoScams,
  analyzeSocialEngineering,
];

/** What layer 3 found in one page. */
export interface PageAnalysis {
  findings: PageFinding[];
  /** BCP 47 primary language (`en`, `pt`), or null when it cannot be told. */
  language: string | null;
  /** ISO 3166-1 alpha-2 of the country the page targets, or null. */
  targetCountry: string | null;
}

/** Build the shared view of a page: lower-cased text, identity text, all code, decoded strings. */
export function pageView(doc: PageDocument): PageView {
  const identity = [
    doc.title,
    doc.meta.get('og:site_name') ?? '',
    doc.meta.get('og:title') ?? '',
    doc.meta.get('description') ?? '',
    ...doc.headings.slice(0, 8),
  ].filter((part) => part !== '');
  const code = [
    ...doc.scripts.filter((s) => s.type !== 'application/ld+json').map((s) => s.code),
    ...doc.handlers.map((h) => h.code),
    ...doc.links.filter((l) => /^\s*javascript:/i.test(l.href)).map((l) => l.href),
  ]
    .filter((part) => part !== '')
    .join('\n');
  return {
    doc,
    textLower: doc.text.normalize('NFKC').toLowerCase(),
    identityLower: identity.join(' | ').normalize('NFKC').toLowerCase(),
    code,
    decoded: decodeScriptStrings(code),
  };
}

/**
 * Analyse a page.
 *
 * @param doc the parsed page; external scripts' `code` filled in where fetched.
 * @param context the final URL's layer-1/2 context.
 * @returns findings in analyzer order (an analyzer reports each rule id at most once).
 */
export function analyzePage(doc: PageDocument, context: PageContext): PageAnalysis {
  const view = pageView(doc);
  const findings = PAGE_ANALYZERS.flatMap((analyze) => analyze(view, context));
  // A cloaked page says little until its decoded HTML is written: read that too.
  const language =
    pageDocuments(view)
      .map(pageLanguage)
      .find((found) => found !== null) ?? null;
  return { findings, language, targetCountry: targetCountry(findings, doc, language) };
}
