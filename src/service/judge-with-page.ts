/**
 * @module service/judge-with-page
 * A fresh verdict with all three layers (docs/architecture.md, "Page analysis"): layers 1–2
 * first; when they are not conclusive (not allowlisted, not a listed threat), the page is
 * fetched in parallel with the layer-2 lookups, the URL it lands on after redirects is judged by
 * layers 1–2 too (a redirect to a known drainer is a drainer), the page is analysed in that
 * URL's context, the optional LLM judge is asked when the static result is ambiguous, and
 * everything is scored once. The whole verdict fits in the page budget: every outbound step —
 * DNS, connect, TLS, body, redirects, the RDAP and Web Risk lookups, the LLM — stops at the
 * deadline, the LLM gets what is left, and a page that could not be read leaves the verdict to
 * layers 1–2, which say so.
 */
import type { Engine } from '../engine/create-engine.js';
import {
  allowlistedSite,
  analyzeParsedUrl,
  judgeAnalysedUrl,
  judgeLanding,
} from '../engine/detect.js';
import { FRESH_DOMAIN_DAYS, type IntelEvidence, NO_INTEL } from '../engine/intel-evidence.js';
import { analyzePage, type PageAnalysis } from '../engine/page/analyze-page.js';
import { pageContextOf } from '../engine/page/create-page-context.js';
import { llmFindings } from '../engine/page/llm-findings.js';
import { summarizeForLlm } from '../engine/page/llm-summary.js';
import type { PageContext } from '../engine/page/page-context.js';
import type { PageDocument } from '../engine/page/page-document.js';
import type { PageEvidence } from '../engine/page-evidence.js';
import type { UrlAnalysis } from '../engine/rules/analyze-url.js';
import type { LayerCoverage } from '../engine/scoring/build-verdict.js';
import type { ParsedUrl } from '../engine/url/normalize-url.js';
import type { Verdict } from '../engine/verdict.js';
import type { IntelLayer } from '../intel/intel-layer.js';
import type { DetectionObserver } from '../observability/observer.js';
import type { FetchedPage } from '../page/page-fetcher.js';
import type { PageLayer } from '../page/page-layer.js';
import { timedStep } from './timed-step.js';

/** A verdict and whether it has a gap that makes it worth re-judging soon. */
export interface JudgedVerdict {
  verdict: Verdict;
  /** The page could not be read, or the domain age was unknown while RDAP is on. */
  incomplete: boolean;
}

/** The LLM is not started with less than this left of the budget (ms). */
const MIN_LLM_MS = 250;

/**
 * Judge a URL with every layer that applies.
 *
 * @param analysis the URL's analysis (`analyzeParsedUrl()`), made once by the detection service
 *   and handed to layer 2, the allowlist check, the page context and the verdict.
 * @param started `performance.now()` when the request began (the budget counts from there).
 */
export async function judgeWithPage(
  deps: {
    engine: Engine;
    intel: IntelLayer | null;
    page: PageLayer;
    coverage: LayerCoverage;
    /**
     * Told about an analyzer that threw (the verdict then says the page was not analysed) and
     * about a failed LLM judge call (the verdict goes on without it).
     */
    onPageError?: (error: unknown) => void;
    /** Told how long layer 2, the page fetch, its analysis and the LLM judge took (metrics). */
    observer?: DetectionObserver | null;
  },
  analysis: UrlAnalysis,
  started: number,
): Promise<JudgedVerdict> {
  const { engine, intel, page } = deps;
  const observer = deps.observer ?? null;
  const coverage = deps.coverage;
  const { url } = analysis;
  const listing = intel?.listing(analysis) ?? NO_INTEL;
  if (listing.denied.length > 0 || allowlistedSite(analysis, listing)) {
    const evidence =
      intel === null
        ? NO_INTEL
        : await timedStep(intel.evidence(analysis), observer, 'intel', performance.now());
    return {
      verdict: judgeAnalysedUrl(engine, analysis, { ...coverage, page: 'not_needed' }, evidence),
      incomplete: ageUnknown(intel, evidence),
    };
  }

  const deadline = started + page.budgetMs;
  const stepsStarted = performance.now();
  const [evidence, fetched] = await Promise.all([
    intel === null
      ? Promise.resolve(NO_INTEL)
      : timedStep(intel.evidence(analysis, deadline), observer, 'intel', stepsStarted),
    timedStep(page.fetcher.fetch(url, deadline), observer, 'page_fetch', stepsStarted),
  ]);
  if (!fetched.ok) {
    const unread: PageEvidence = { status: 'not_analysed', failure: fetched.failure };
    return {
      verdict: judgeAnalysedUrl(engine, analysis, coverage, evidence, unread),
      incomplete: true,
    };
  }

  const final = fetched.finalUrl;
  const moved = final.hostname !== url.hostname || final.port !== url.port;
  // The fetcher hands back the submitted URL itself when the page did not move: analysed once.
  const finalAnalysis = final === url ? analysis : analyzeParsedUrl(engine, final);
  const finalEvidence =
    !moved || intel === null
      ? evidence
      : await timedStep(
          intel.evidence(finalAnalysis, deadline),
          observer,
          'intel',
          performance.now(),
        );
  const context = pageContextOf(engine, finalAnalysis, freshOf(finalEvidence));
  let pageAnalysis: PageAnalysis;
  const analysisStarted = performance.now();
  try {
    pageAnalysis = analyzePage(fetched.doc, context);
    observer?.layerTimed('page_analysis', performance.now() - analysisStarted);
  } catch (error) {
    // A page that breaks an analyzer must not turn into an error for the caller (an attacker
    // could shield a kit that way): layers 1–2 answer, the reason says so, the bug is reported.
    deps.onPageError?.(error);
    const unread: PageEvidence = { status: 'not_analysed', failure: 'analysis_failed' };
    return {
      verdict: judgeAnalysedUrl(engine, analysis, coverage, evidence, unread),
      incomplete: true,
    };
  }
  await consultLlm(
    page,
    pageAnalysis,
    fetched,
    context,
    url,
    deadline,
    finalEvidence,
    deps.onPageError,
    observer,
  );
  const pageEvidence: PageEvidence = { status: 'analysed', analysis: pageAnalysis };
  const landing = moved
    ? judgeLanding(engine, finalAnalysis, coverage, finalEvidence, pageEvidence)
    : null;
  return {
    verdict: judgeAnalysedUrl(engine, analysis, coverage, evidence, pageEvidence, landing),
    incomplete: ageUnknown(intel, evidence),
  };
}

/**
 * Ask the LLM judge when one is configured, time is left and the static result is ambiguous
 * (no hard rule fired, but there are findings or a credential or card field).
 * Its findings are appended to `analysis`; a late or failed answer is dropped (and reported to
 * `onError`) — the verdict never waits beyond the budget and never depends on the LLM being up.
 */
async function consultLlm(
  page: PageLayer,
  analysis: PageAnalysis,
  fetched: FetchedPage,
  context: PageContext,
  submitted: ParsedUrl,
  deadline: number,
  evidence: IntelEvidence,
  onError: ((error: unknown) => void) | undefined,
  observer: DetectionObserver | null,
): Promise<void> {
  if (page.llm === null || context.reputable || !ambiguous(analysis, fetched.doc)) return;
  const remaining = deadline - performance.now();
  if (remaining < MIN_LLM_MS) return;
  const summary = summarizeForLlm({
    doc: fetched.doc,
    context,
    findings: analysis.findings,
    submittedUrl: submitted.href,
    finalUrl: fetched.finalUrl.href,
    redirects: fetched.redirects,
    domainAgeDays: evidence.domainAge.status === 'known' ? evidence.domainAge.days : null,
  });
  try {
    const answer = await timedStep(
      page.llm.judge.judge(summary, {
        timeoutMs: Math.min(page.llm.timeoutMs, Math.floor(remaining)),
      }),
      observer,
      'llm_judge',
      performance.now(),
    );
    analysis.findings.push(...llmFindings(answer, analysis.findings, context));
  } catch (error) {
    // Optional evidence: an LLM that is down, late or answers garbage changes nothing in the
    // verdict, but the operator hears of it (LlmError messages carry no key and no page text).
    onError?.(error);
  }
}

function ambiguous(analysis: PageAnalysis, doc: PageDocument): boolean {
  if (analysis.findings.some((f) => f.level === 'danger')) return false;
  return (
    analysis.findings.length > 0 ||
    doc.fields.some(
      (f) => f.type === 'password' || f.autocomplete.includes('cc-') || f.tag === 'textarea',
    )
  );
}

function freshOf(evidence: IntelEvidence): boolean | null {
  return evidence.domainAge.status === 'known' ? evidence.domainAge.days < FRESH_DOMAIN_DAYS : null;
}

function ageUnknown(intel: IntelLayer | null, evidence: IntelEvidence): boolean {
  return intel?.hasDomainAge === true && evidence.domainAge.status === 'unknown';
}
